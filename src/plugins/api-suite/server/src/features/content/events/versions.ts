import type { Core, UID } from '@strapi/strapi';
import { populateFor, project, type SchemaSource } from '../schema';
import type { WatchedType } from '../watched';

/**
 * Reading the version an event carries, as one of the site's two audiences would read it
 * (docs/webhooks.md#drafts-and-audiences):
 *
 * - `public`: as the content API answers someone who is not staff: the published version, its
 *   relations in their published versions (or left out), and the site's own read rules
 *   (document-service middlewares such as the demo's article visibility) applied, because the read
 *   runs in a content-API request context of an anonymous caller;
 * - `staff`: every version, no rule applied (what an administrator sees).
 */
export type Reader = 'public' | 'staff';
export type Status = 'draft' | 'published';

export interface VersionRead {
  type: WatchedType;
  status: Status;
  locale: string | null;
  reader: Reader;
}

/** The content-API request of an anonymous caller, as the site's document-service middlewares see one. */
function publicRequest(): unknown {
  return { state: { route: { info: { type: 'content-api' } } }, query: {}, request: { query: {} } };
}

/** Run `work` as `reader` would read: inside an anonymous content-API request, or outside any request. */
export function readingAs<T>(strapi: Core.Strapi, reader: Reader, work: () => Promise<T>): Promise<T> {
  // Strapi's type says the callback returns nothing; it returns what the callback does (AsyncLocalStorage.run).
  const run = strapi.requestContext.run.bind(strapi.requestContext) as unknown as (
    context: unknown,
    callback: () => Promise<T>
  ) => Promise<T>;
  return run(reader === 'public' ? publicRequest() : undefined, work);
}

/** The documents' versions, one query per slice of 200 ids; by documentId (absent: none, or hidden from the reader). */
export async function readVersions(
  strapi: Core.Strapi,
  source: SchemaSource,
  read: VersionRead,
  documentIds: string[]
): Promise<Map<string, Record<string, unknown>>> {
  const { type, status, locale, reader } = read;
  const found = new Map<string, Record<string, unknown>>();
  for (let start = 0; start < documentIds.length; start += 200) {
    const slice = documentIds.slice(start, start + 200);
    const documents = await readingAs(
      strapi,
      reader,
      async () =>
        (await strapi.documents(type.uid as UID.ContentType).findMany({
          filters: { documentId: { $in: slice } },
          ...(locale ? { locale } : {}),
          // A type without draft & publish has one version, which Strapi reads as published; asked
          // for that way, its draft & publish relations are read in their published versions.
          status: type.draftAndPublish ? status : 'published',
          populate: populateFor(source, type.uid, type.depth),
          limit: slice.length,
        } as never)) as Array<Record<string, unknown>>
    );
    for (const document of documents) found.set(String(document.documentId), project(source, type.uid, type.depth, document));
  }
  return found;
}

/**
 * One version as an event about it carries it, and who may receive it: read as the public would
 * see it when that audience may (`public`), else as staff, and then for the staff only. Undefined
 * when the version does not exist.
 */
export async function readForAudience(
  strapi: Core.Strapi,
  source: SchemaSource,
  read: Omit<VersionRead, 'reader'> & { publicMay: boolean },
  documentId: string
): Promise<{ payload: Record<string, unknown>; staff: boolean } | undefined> {
  if (read.publicMay) {
    const seen = (await readVersions(strapi, source, { ...read, reader: 'public' }, [documentId])).get(documentId);
    if (seen) return { payload: seen, staff: false };
  }
  const payload = (await readVersions(strapi, source, { ...read, reader: 'staff' }, [documentId])).get(documentId);
  return payload ? { payload, staff: true } : undefined;
}
