import type { Core, UID } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../../utils';
import { DraftsNotAllowedError } from './refusal';
import { publishedRelationsOnly } from './filters';

/**
 * Drafts stay private on the site's content API (docs/content-api.md#drafts). Strapi lets any
 * role that may `find` a type read its drafts with `?status=draft` (or any status but
 * `published`, which its document service reads as a draft); a site that sells its content must
 * not. For every caller but staff (Strapi's API tokens, the plugin's administrators, the roles
 * named in `content.draftReaders`: the `staff` service), on a content-API request:
 *
 * - a call on a draft & publish type that names any status but `published` is refused, 403
 *   `drafts_not_allowed`: reads, writes (`POST ?status=draft`) and deletes alike, so a caller
 *   learns that drafts are not for them rather than receiving something other than they asked;
 * - a read that names no status reads the published version: Strapi's REST controllers ask for it
 *   themselves, but a site's own controller calling the document service without one would get
 *   Strapi's default, the draft;
 * - on a type without draft & publish the status only decides which version of related draft &
 *   publish documents `populate` brings along (Strapi filters every populated level by it, and
 *   links such a document to both versions of its related ones), so a call that populates is set
 *   to `published` whatever it asked, or did not: `/api/chefs?status=draft&populate=recipes`
 *   answers 200 with published recipes only;
 * - a filter through a relation to a draft & publish type matches only its published versions
 *   (filters.ts): `/api/chefs?filters[recipes][title][$eq]=…` cannot probe a draft recipe's text.
 *
 * One document-service middleware keyed on the request's route type, like the site's own
 * visibility rules, so any content type and any controller are covered. Calls made outside a
 * content-API request (the admin panel, scripts, the payloads of the events for staff) are not
 * affected; the payloads of the events for everyone are read as the public reads them, published.
 */
export function keepDraftsPrivate(strapi: Core.Strapi): void {
  const draftAndPublish = new Map<string, boolean>();
  const hasDraftAndPublish = (uid: string): boolean => {
    let known = draftAndPublish.get(uid);
    if (known === undefined) {
      const model = strapi.getModel(uid as UID.Schema) as { options?: { draftAndPublish?: boolean } } | undefined;
      known = model?.options?.draftAndPublish === true;
      draftAndPublish.set(uid, known);
    }
    return known;
  };

  strapi.documents.use(async (context, next) => {
    const request = strapi.requestContext.get() as Context | undefined;
    if (!request || routeType(request) !== 'content-api') return next();
    const params = (context.params ?? {}) as Params;
    const change = changeFor(hasDraftAndPublish(context.uid), context.action, params);
    // Filters through relations to draft & publish types, held to the published versions (filters.ts).
    const filters =
      params.filters === undefined ? undefined : publishedRelationsOnly(strapi, context.uid, params.filters, hasDraftAndPublish);
    const filtersChange = filters !== params.filters;
    // Deciding who the caller is costs a query: only when the call would be changed or refused.
    if ((change === undefined && !filtersChange) || (await getService(strapi, 'staff').isStaffRequest(request))) return next();
    if (change === 'refuse') throw new DraftsNotAllowedError();
    (context as { params: Params }).params = {
      ...params,
      ...(change === 'publish' ? { status: 'published' } : {}),
      ...(filtersChange ? { filters } : {}),
    };
    return next();
  });
}

type Params = Record<string, unknown>;

/** Document-service actions that read rows. */
const READS = new Set(['findMany', 'findFirst', 'findOne', 'count']);

/** What a call by a caller who is not staff needs: refused, read as published, or nothing. */
function changeFor(draftAndPublish: boolean, action: string, params: Params): 'refuse' | 'publish' | undefined {
  const { status } = params;
  if (status === 'published') return undefined;
  if (draftAndPublish) {
    if (status !== undefined) return 'refuse';
    return READS.has(action) ? 'publish' : undefined;
  }
  // Only the populated relations' version depends on it here, for reads and writes alike.
  return params.populate !== undefined ? 'publish' : undefined;
}

function routeType(ctx: Context): string | undefined {
  return (ctx.state.route as { info?: { type?: string } } | undefined)?.info?.type;
}
