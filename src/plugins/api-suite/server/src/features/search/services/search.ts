import type { Core, UID } from '@strapi/strapi';
import { getConfig } from '../../../utils';

/** At most 5 items per collection (docs/search-feed-cors.md#search). */
export const SEARCH_LIMIT = 5;

export interface SearchCollection {
  name: string;
  uid: UID.ContentType;
  fields: string[];
  /** What a caller may see: the configured filter, and the published version under draft-and-publish. */
  visible: Record<string, unknown>[];
}

export type SearchHit = Record<string, unknown> & { id: number; _collection: string };

const TEXT_TYPES = new Set(['string', 'text', 'richtext', 'uid', 'email', 'enumeration']);

/**
 * Search across collections (docs/search-feed-cors.md#search): one query per collection asked for,
 * each a case-insensitive containment on any of its fields (`$containsi`: LOWER(column) LIKE
 * LOWER(?) with `%`, `_` and `\` escaped, on SQLite and PostgreSQL alike), limited to what the
 * public may see and to 5 rows, by ascending id. The collections, their fields and what "published"
 * means for each come from the plugin config.
 */
const searchService = ({ strapi }: { strapi: Core.Strapi }) => {
  let collections: Map<string, SearchCollection> | undefined;

  const resolve = (): Map<string, SearchCollection> => {
    const { search, contentTypes } = getConfig(strapi);
    const resolved = new Map<string, SearchCollection>();
    for (const [name, collection] of Object.entries(search.collections)) {
      const uid = (
        collection.contentType in contentTypes ? contentTypes[collection.contentType as keyof typeof contentTypes] : collection.contentType
      ) as UID.ContentType;
      const model = strapi.contentTypes[uid] as
        { attributes: Record<string, { type?: string }>; options?: { draftAndPublish?: boolean } } | undefined;
      if (!model) {
        strapi.log.warn(`[api-suite] search: collection "${name}" names ${uid}, which this site does not have; it is not searchable`);
        continue;
      }
      for (const field of collection.fields) {
        const type = model.attributes[field]?.type;
        if (!type || !TEXT_TYPES.has(type)) {
          throw new Error(
            `Invalid configuration for plugin api-suite: search.collections.${name}.fields: "${field}" is not a text attribute of ${uid}`
          );
        }
      }
      for (const key of Object.keys(collection.where ?? {})) {
        if (!key.startsWith('$') && !(key in model.attributes)) {
          throw new Error(
            `Invalid configuration for plugin api-suite: search.collections.${name}.where: "${key}" is not an attribute of ${uid}`
          );
        }
      }
      const visible: Record<string, unknown>[] = [];
      if (collection.where && Object.keys(collection.where).length > 0) visible.push(collection.where);
      if (model.options?.draftAndPublish) visible.push({ publishedAt: { $notNull: true } });
      resolved.set(name, { name, uid, fields: [...collection.fields], visible });
    }
    return resolved;
  };

  return {
    /** Check the configuration against the site's content types (at boot, so mistakes stop it). */
    prepare(): void {
      collections = resolve();
    },

    /** The collections a request names that exist (in the order asked, once each), or the defaults. */
    select(requested: string[] | undefined): SearchCollection[] {
      collections ??= resolve();
      const known = collections;
      const names = requested && requested.length > 0 ? requested : getConfig(strapi).search.defaultCollections;
      return [...new Set(names)]
        .map((name) => known.get(name))
        .filter((collection): collection is SearchCollection => collection !== undefined);
    },

    async search(q: string, selected: SearchCollection[]): Promise<SearchHit[]> {
      const pages = await Promise.all(
        selected.map(async (collection) => {
          const rows = (await strapi.db.query(collection.uid).findMany({
            select: ['id', ...collection.fields],
            where: { $and: [...collection.visible, { $or: collection.fields.map((field) => ({ [field]: { $containsi: q } })) }] },
            orderBy: { id: 'asc' },
            limit: SEARCH_LIMIT,
          })) as Array<Record<string, unknown> & { id: number }>;
          return rows.map((row): SearchHit => ({
            id: row.id,
            ...Object.fromEntries(collection.fields.map((field) => [field, row[field] ?? null])),
            _collection: collection.name,
          }));
        })
      );
      return pages.flat();
    },
  };
};

export type SearchService = ReturnType<typeof searchService>;
export default searchService;
