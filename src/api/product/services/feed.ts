import type { Core } from '@strapi/strapi';

/**
 * The product feed: a flat, cache-friendly list of the products a shop front may show, served
 * on GET /api/products when the query speaks the feed's own parameters
 * (docs/search-feed-cors.md#product-feed).
 */

const PRODUCT = 'api::product.product';

/** Parameters that only the feed understands. */
const FEED_PARAMETERS = ['action', 'id', 'limit', 'offset', 'search'] as const;

/** Strapi's content-API query parameters: any of them means the caller wants Strapi's own find. */
const STRAPI_PARAMETERS = ['filters', 'populate', 'sort', 'pagination', 'fields', 'status', 'locale', 'publicationState'] as const;

export const FEED_DEFAULT_LIMIT = 20;
export const FEED_MAX_LIMIT = 100;

export interface FeedItem {
  id: number;
  title: string;
  slug: string | null;
  description: string | null;
  price: number;
  image: string | null;
  url: string | null;
}

export interface FeedPage {
  total: number;
  limit: number;
  offset: number;
  items: FeedItem[];
}

export type FeedRequest =
  { action: 'list'; limit: number; offset: number; search: string | undefined } | { action: 'get'; id: number | undefined };

/** What a handler answers: a status and the JSON body. */
export interface FeedAnswer {
  status: number;
  body: FeedPage | FeedItem | { error: string };
}

type Query = Record<string, unknown>;

interface ProductRow {
  id: number;
  name: string;
  slug: string | null;
  description: string | null;
  price: number | string | null;
  image?: { url?: string | null } | null;
}

export function isFeedQuery(query: Query): boolean {
  const has = (name: string): boolean => Object.prototype.hasOwnProperty.call(query, name);
  return FEED_PARAMETERS.some(has) && !STRAPI_PARAMETERS.some(has);
}

class FeedRequestError extends Error {}

/** Validates the feed's query; throws FeedRequestError with the message the caller gets as 400. */
export function parseFeedQuery(query: Query): FeedRequest {
  const action = query.action === undefined ? 'list' : query.action;
  if (action === 'get') {
    // A non-numeric id names no product, which is a 404 like any unknown id, not a 400.
    if (query.id === undefined) throw new FeedRequestError('id is required for action=get');
    return { action: 'get', id: typeof query.id === 'string' && /^\d+$/.test(query.id) ? safeInteger(query.id) : undefined };
  }
  if (action !== 'list') throw new FeedRequestError(`Unknown action: ${typeof action === 'string' ? action : JSON.stringify(action)}`);

  const limit = count(query.limit, 'limit', FEED_DEFAULT_LIMIT);
  const offset = count(query.offset, 'offset', 0);
  if (offset > Number.MAX_SAFE_INTEGER) throw new FeedRequestError('offset is too large');
  let search: string | undefined;
  if (query.search !== undefined) {
    if (typeof query.search !== 'string') throw new FeedRequestError('search must be a single string');
    search = query.search.trim() || undefined;
  }
  return { action: 'list', limit: Math.min(limit, FEED_MAX_LIMIT), offset, search };
}

/** A non-negative integer written in plain digits; repeated parameters arrive as arrays and are refused. */
function count(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) throw new FeedRequestError(`${name} must be a non-negative integer`);
  return Number(value);
}

function safeInteger(digits: string): number | undefined {
  const value = Number(digits);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** The first configured frontend origin: product links point at the shop, not at the API. */
function frontendOrigin(): string {
  const first = (process.env.FRONTEND_ORIGIN || 'http://localhost:3000').split(',')[0]?.trim() || 'http://localhost:3000';
  return first.replace(/\/+$/, '');
}

function toItem(row: ProductRow, origin: string): FeedItem {
  return {
    id: row.id,
    title: row.name,
    slug: row.slug ?? null,
    description: row.description ?? null,
    // PostgreSQL hands decimals back as strings; the feed promises a JSON number.
    price: Number(row.price ?? 0),
    image: row.image?.url ?? null,
    url: row.slug ? `${origin}/products/${encodeURIComponent(row.slug)}` : null,
  };
}

const VISIBLE = { published: true, deleted: false } as const;
const SELECT = ['id', 'name', 'slug', 'description', 'price'];
const POPULATE = { image: { select: ['url'] } };

const feedService = ({ strapi }: { strapi: Core.Strapi }) => {
  async function list(request: { limit: number; offset: number; search?: string }): Promise<FeedPage> {
    const where: Record<string, unknown> = request.search ? { ...VISIBLE, name: { $containsi: request.search } } : { ...VISIBLE };
    const products = strapi.db.query(PRODUCT);
    const [total, rows] = await Promise.all([
      products.count({ where }),
      // The query engine reads a limit of 0 as "no limit", so an empty page is not asked for.
      request.limit === 0
        ? Promise.resolve([] as ProductRow[])
        : (products.findMany({
            where,
            select: SELECT,
            populate: POPULATE,
            orderBy: [{ menuindex: 'asc' }, { id: 'asc' }],
            limit: request.limit,
            offset: request.offset,
          }) as Promise<ProductRow[]>),
    ]);
    const origin = frontendOrigin();
    return { total: Number(total), limit: request.limit, offset: request.offset, items: rows.map((row) => toItem(row, origin)) };
  }

  async function get(id: number): Promise<FeedItem | null> {
    const row = (await strapi.db.query(PRODUCT).findOne({
      where: { ...VISIBLE, id },
      select: SELECT,
      populate: POPULATE,
    })) as ProductRow | null;
    return row ? toItem(row, frontendOrigin()) : null;
  }

  /** The whole feed request: validation, lookup and the answer's status. */
  async function answer(query: Query): Promise<FeedAnswer> {
    let request: FeedRequest;
    try {
      request = parseFeedQuery(query);
    } catch (error) {
      if (error instanceof FeedRequestError) return { status: 400, body: { error: error.message } };
      throw error;
    }
    if (request.action === 'list') return { status: 200, body: await list(request) };
    const item = request.id === undefined ? null : await get(request.id);
    return item ? { status: 200, body: item } : { status: 404, body: { error: 'Product not found' } };
  }

  return { isFeedQuery, list, get, answer };
};

export type FeedService = ReturnType<typeof feedService>;
export default feedService;
