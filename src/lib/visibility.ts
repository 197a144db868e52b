import type { Core, UID } from '@strapi/strapi';
import { errors } from '@strapi/utils';

type Context = Parameters<Core.ControllerHandler>[0];
type Where = Record<string, unknown>;
type Params = Record<string, unknown>;

/**
 * What the content API may show to whom (docs/content-api.md). Anonymous callers (the Public
 * role) and ordinary users see only these rows of these types; administrators and Strapi API
 * tokens issued in the admin panel see everything. Drafts of a draft-and-publish type are the
 * api-suite plugin's business on any site: it refuses a status other than `published` (403
 * `drafts_not_allowed`) and reads the published version otherwise, so the root of such a type
 * needs no rule here; a relation into one still keeps its drafts out below.
 */
export const VISIBLE_ROWS: Readonly<Record<string, Where>> = {
  'api::article.article': { status: 'published' },
  'api::product.product': { published: true, deleted: false },
};

/** Document-service actions that read rows (the root's visibility applies to them). */
const READS = new Set(['findMany', 'findFirst', 'findOne', 'count']);

/**
 * Enforce the visibility rule on every document-service call made while answering a
 * content-API request of a caller who may not see everything: the root type's rows, every
 * relation reached through `populate` (at any depth, whatever the query's shape: `*`, lists,
 * dotted paths, objects) and every relation named in `filters`. One document-service middleware
 * rather than a patch per controller, so a route, a relation or a content type added later is
 * covered without anyone remembering to.
 *
 * Reads the engine makes for itself (the v1 articles routes, search, the feed, webhooks) go
 * through the query engine or knex, not the document service, and are not affected; admin-panel
 * requests (route type `admin`) are not either.
 */
export function enforceVisibility(strapi: Core.Strapi): void {
  strapi.documents.use(async (context, next) => {
    const request = strapi.requestContext.get() as Context | undefined;
    if (!request || routeType(request) !== 'content-api') return next();
    const reads = READS.has(context.action);
    const params = (context.params ?? {}) as Params;
    if (!reads && params.populate === undefined) return next();
    if (await seesEverythingOnce(strapi, request)) return next();
    (context as { params: Params }).params = restrictParams(strapi, context.uid, params, reads);
    return next();
  });
}

export async function seesEverything(strapi: Core.Strapi, ctx: Context): Promise<boolean> {
  // The api-suite plugin owns who the site's staff are: API tokens, its administrator role and
  // the roles the site names as draft readers.
  const staff = strapi.plugin('api-suite').service('staff') as { isStaffRequest(ctx: Context): Promise<boolean> };
  return staff.isStaffRequest(ctx);
}

/**
 * The document-service parameters of one call, limited to what a restricted caller may see.
 * `reads`: whether the call returns rows of the root type chosen by its filters (find, count),
 * rather than rows it has just written (create, update), whose relations are still limited.
 */
export function restrictParams(strapi: Core.Strapi, uid: string, params: Params, reads: boolean): Params {
  const scope = new Scope(strapi);
  const out: Params = { ...params };
  if (params.populate !== undefined) out.populate = scope.populate(uid, params.populate);
  if (!reads) return out;
  if (params.filters !== undefined) out.filters = scope.filters(uid, params.filters as Where, false);
  const rule = VISIBLE_ROWS[uid];
  if (rule) out.filters = out.filters ? { $and: [out.filters, rule] } : { ...rule };
  scope.checkSort(uid, params.sort);
  return out;
}

const SEES_EVERYTHING = Symbol('api-suite.sees-everything');

/** One decision per request, however many document-service calls answering it makes. */
async function seesEverythingOnce(strapi: Core.Strapi, ctx: Context): Promise<boolean> {
  const state = ctx.state as Record<symbol, Promise<boolean> | undefined>;
  state[SEES_EVERYTHING] ??= seesEverything(strapi, ctx);
  return state[SEES_EVERYTHING];
}

function routeType(ctx: Context): string | undefined {
  return (ctx.state.route as { info?: { type?: string } } | undefined)?.info?.type;
}

type Attribute = { type: string; target?: string; component?: string; components?: string[]; private?: boolean; relation?: string };

const GROUPS = new Set(['$and', '$or']);

class Scope {
  constructor(private readonly strapi: Core.Strapi) {}

  hasDraftAndPublish(uid: string): boolean {
    const model = this.strapi.getModel(uid as UID.Schema) as { options?: { draftAndPublish?: boolean } } | undefined;
    return model?.options?.draftAndPublish === true;
  }

  private attributes(uid: string): Record<string, Attribute> {
    const model = this.strapi.getModel(uid as UID.Schema) as { attributes?: Record<string, Attribute> } | undefined;
    return model?.attributes ?? {};
  }

  /** Whether a row of `uid` can be hidden from a restricted caller. */
  private restricted(uid: string): boolean {
    return VISIBLE_ROWS[uid] !== undefined || this.hasDraftAndPublish(uid);
  }

  /** The row filter that keeps a relation's hidden targets out (draft-and-publish: the published version). */
  private rowRule(uid: string): Where | undefined {
    const rule = VISIBLE_ROWS[uid];
    const published = this.hasDraftAndPublish(uid) ? { publishedAt: { $notNull: true } } : undefined;
    if (rule && published) return { $and: [rule, published] };
    return rule ?? published;
  }

  /**
   * Any populate shape, normalised to Strapi's object form, with the row rule of each relation's
   * target added to that relation's filters, at every depth.
   */
  populate(uid: string, populate: unknown): unknown {
    const entries = this.populateEntries(uid, populate);
    if (entries === undefined) return populate;
    const out: Params = {};
    const attributes = this.attributes(uid);
    for (const [name, value] of Object.entries(entries)) {
      const attribute = attributes[name];
      out[name] = attribute ? this.populateOne(attribute, value) : value;
    }
    return out;
  }

  /** `populate` as `{ attribute: true | { … } }`, or undefined when it populates nothing. */
  private populateEntries(uid: string, populate: unknown): Record<string, unknown> | undefined {
    if (populate === undefined || populate === null || populate === false) return undefined;
    if (populate === true || populate === '*') return this.everything(uid);
    if (typeof populate === 'string') return this.paths(populate.split(','));
    if (Array.isArray(populate)) return this.paths(populate.flatMap((item) => (typeof item === 'string' ? item.split(',') : [])));
    if (typeof populate === 'object') return { ...(populate as Params) };
    return undefined;
  }

  /** What `*` populates: every relation, media, component and dynamic zone a content-API caller may read. */
  private everything(uid: string): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, attribute] of Object.entries(this.attributes(uid))) {
      if (attribute.private) continue;
      if (attribute.type === 'relation' && attribute.target?.startsWith('admin::')) continue;
      if (['relation', 'media', 'component', 'dynamiczone'].includes(attribute.type)) out[name] = true;
    }
    return out;
  }

  /** `['articles.comments', 'author']` → `{ articles: { populate: { comments: true } }, author: true }`. */
  private paths(list: string[]): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const path of list.map((item) => item.trim()).filter(Boolean)) {
      const [head, ...rest] = path.split('.');
      if (rest.length === 0) {
        out[head] ??= true;
        continue;
      }
      const current = out[head];
      const nested = current && typeof current === 'object' ? (((current as Params).populate as string[] | undefined) ?? []) : [];
      out[head] = { populate: [...(Array.isArray(nested) ? nested : []), rest.join('.')] };
    }
    return out;
  }

  private populateOne(attribute: Attribute, value: unknown): unknown {
    if (value === false || value === null || value === undefined) return value;
    if (attribute.type === 'component' && attribute.component) return this.nested(attribute.component, value, false);
    if (attribute.type === 'dynamiczone') return this.fragments(value);
    if (attribute.type !== 'relation' || !attribute.target) return value;
    return this.nested(attribute.target, value, this.restricted(attribute.target));
  }

  /** A populated relation or component: its own filters and populate restricted, and its rows if `hide`. */
  private nested(uid: string, value: unknown, hide: boolean): unknown {
    const options: Params = value === true || value === '*' || typeof value === 'string' ? {} : { ...(value as Params) };
    if (options.on !== undefined) return this.fragments(options);
    if (options.populate !== undefined) options.populate = this.populate(uid, options.populate);
    if (options.filters !== undefined) options.filters = this.filters(uid, options.filters as Where, false);
    const rule = hide ? this.rowRule(uid) : undefined;
    if (rule) options.filters = options.filters ? { $and: [options.filters, rule] } : rule;
    if (options.sort !== undefined) this.checkSort(uid, options.sort);
    return options;
  }

  /** Dynamic zones and morph relations (`on: { uid: populate }`): each fragment restricted as its own type. */
  private fragments(value: unknown): unknown {
    if (!value || typeof value !== 'object' || !('on' in (value as Params))) return value;
    const on = (value as { on: Record<string, unknown> }).on;
    return {
      ...(value as Params),
      on: Object.fromEntries(Object.entries(on).map(([uid, sub]) => [uid, this.nested(uid, sub, this.restricted(uid))])),
    };
  }

  /**
   * Filters with every relation into a restricted type limited to its visible rows, so that a
   * filter on a hidden row's fields matches nothing, exactly as if the row did not exist. That
   * holds for conditions a row either meets or not; a negation (`$not`, or `$null` on the
   * relation itself) would turn "a hidden row does not match" into a match and reveal it, so
   * those are refused for such relations.
   */
  filters(uid: string, filters: Where, negated: boolean): Where {
    if (Array.isArray(filters)) return filters.map((item) => this.filters(uid, item as Where, negated)) as unknown as Where;
    if (!filters || typeof filters !== 'object') return filters;
    const attributes = this.attributes(uid);
    const out: Where = {};
    for (const [key, value] of Object.entries(filters)) {
      if (GROUPS.has(key) && Array.isArray(value)) {
        out[key] = value.map((item) => this.filters(uid, item as Where, negated));
        continue;
      }
      if (key === '$not') {
        out[key] = this.filters(uid, value as Where, !negated);
        continue;
      }
      const attribute = attributes[key];
      if (attribute?.type !== 'relation' || !attribute.target) {
        out[key] = value;
        continue;
      }
      out[key] = this.relationFilter(key, attribute.target, value, negated);
    }
    return out;
  }

  private relationFilter(name: string, target: string, value: unknown, negated: boolean): unknown {
    const hide = this.restricted(target);
    const operator = isRecord(value) ? singleOperator(value) : undefined;
    const onIds = !isRecord(value) || (operator !== undefined && !GROUPS.has(operator));
    if (
      hide &&
      (negated ||
        (operator !== undefined && ['$null', '$notNull'].includes(operator) && isNegativeNull(operator, (value as Params)[operator])))
    ) {
      throw new errors.ValidationError(
        `Invalid filter: "${name}" cannot be negated or tested for absence by callers who see published entries only`
      );
    }
    const inner = onIds ? { id: value } : this.filters(target, value as Where, negated);
    const rule = hide ? this.rowRule(target) : undefined;
    if (!rule) return onIds ? value : inner;
    return { $and: [inner, rule] };
  }

  /**
   * Sorting by a relation's field orders rows by the related rows' values, hidden ones included,
   * which reveals them (a draft titled "AAA" would sort its author first): refused.
   */
  checkSort(uid: string, sort: unknown): void {
    for (const path of sortPaths(sort)) {
      let current = uid;
      for (const part of path.split('.').slice(0, -1)) {
        const attribute = this.attributes(current)[part];
        if (attribute?.type !== 'relation' || !attribute.target) break;
        if (this.restricted(attribute.target)) {
          throw new errors.ValidationError(
            `Invalid sort: "${path}" orders by a relation whose unpublished entries are hidden from this caller`
          );
        }
        current = attribute.target;
      }
    }
  }
}

function isRecord(value: unknown): value is Params {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function singleOperator(value: Params): string | undefined {
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0].startsWith('$') ? keys[0] : undefined;
}

/** `$null: true` and `$notNull: false` ask for "no related row", which hidden rows would falsify. */
function isNegativeNull(operator: string, value: unknown): boolean {
  const truthy = value === true || value === 'true' || value === 1 || value === '1';
  return operator === '$null' ? truthy : !truthy;
}

/** The field paths of any of Strapi's sort shapes: `'a.b:asc'`, `['a:asc']`, `{ a: 'asc' }`, `[{ a: { b: 'asc' } }]`. */
function sortPaths(sort: unknown, prefix = ''): string[] {
  if (typeof sort === 'string')
    return sort
      .split(',')
      .map((item) => prefix + item.trim().split(':')[0])
      .filter(Boolean);
  if (Array.isArray(sort)) return sort.flatMap((item) => sortPaths(item, prefix));
  if (isRecord(sort)) {
    return Object.entries(sort).flatMap(([key, value]) => (isRecord(value) ? sortPaths(value, `${prefix}${key}.`) : [`${prefix}${key}`]));
  }
  return [];
}
