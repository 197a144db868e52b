import type { Core, UID } from '@strapi/strapi';

/**
 * A filter that goes through a relation reaches every version of the related documents: Strapi
 * applies a call's `status` to the documents it returns and to what it populates, not to the rows
 * a filter joins. So `/api/chefs?filters[recipes][title][$eq]=…` would tell anyone whether a chef
 * has a draft recipe of that title, a draft's text guessed one question at a time. For callers who
 * are not staff, every filter through a relation to a draft & publish type is held to that type's
 * published versions (`publishedAt` set), at any depth, inside `$and`, `$or` and `$not` and
 * through components. Returns the filters unchanged (the same object) when nothing needed it.
 */
export function publishedRelationsOnly(
  strapi: Core.Strapi,
  uid: string,
  filters: unknown,
  hasDraftAndPublish: (uid: string) => boolean
): unknown {
  return rewrite(strapi, uid, filters, hasDraftAndPublish, 0);
}

/** Deeper than this, filters are left as they are: Strapi's own query depth limits apply long before. */
const MAX_DEPTH = 20;

interface Attribute {
  type?: string;
  target?: string;
  component?: string;
}

function rewrite(strapi: Core.Strapi, uid: string, filters: unknown, hasDraftAndPublish: (uid: string) => boolean, depth: number): unknown {
  if (!isPlainObject(filters) || depth > MAX_DEPTH) return filters;
  const attributes = ((strapi.getModel(uid as UID.Schema) as { attributes?: Record<string, Attribute> } | undefined)?.attributes ??
    {}) as Record<string, Attribute>;
  let changed = false;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filters)) {
    let next = value;
    if ((key === '$and' || key === '$or') && Array.isArray(value)) {
      const items = value.map((item) => rewrite(strapi, uid, item, hasDraftAndPublish, depth + 1));
      if (items.some((item, n) => item !== value[n])) next = items;
    } else if (key === '$not') {
      next = rewrite(strapi, uid, value, hasDraftAndPublish, depth + 1);
    } else {
      const attribute = attributes[key];
      if (attribute?.type === 'relation' && attribute.target && isPlainObject(value)) {
        const inner = rewrite(strapi, attribute.target, value, hasDraftAndPublish, depth + 1);
        next = hasDraftAndPublish(attribute.target) ? { $and: [{ publishedAt: { $notNull: true } }, inner] } : inner;
      } else if (attribute?.type === 'component' && attribute.component) {
        next = rewrite(strapi, attribute.component, value, hasDraftAndPublish, depth + 1);
      }
    }
    if (next !== value) changed = true;
    result[key] = next;
  }
  return changed ? result : filters;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
