import { z } from 'zod';
import { toIso, toText } from '../../../db';
import { defineEvent, type EventDefinition } from '../../webhooks/events/registry';

/**
 * The events of the two content types the plugin was first specified with: the site's articles
 * and products (`contentTypes.article` and `contentTypes.product` in the plugin config). They keep
 * the names and payloads their subscribers already rely on, rather than the generic document
 * payload every other type gets (events.ts): `article.*` carries the article's UUID as `id`, and
 * `product.*` the flags the product feed uses.
 */
const at = (description: string) => z.iso.datetime().nullable().meta({ description });

export const articleEventData = z.strictObject({
  id: z.string().meta({ description: "The article's UUID." }),
  title: z.string().nullable(),
  slug: z.string().nullable(),
  status: z.string().nullable().meta({ description: "The article's status, such as draft, published or archived." }),
  createdAt: at('When the article was created.'),
  updatedAt: at('When it last changed.'),
});
export type ArticleEventData = z.infer<typeof articleEventData>;

export const productEventData = z.strictObject({
  id: z.string().meta({ description: "The product's document id." }),
  name: z.string().nullable(),
  slug: z.string().nullable(),
  price: z.number().nullable(),
  stock: z.int().nullable().meta({ description: 'Units in stock.' }),
  published: z.boolean(),
  deleted: z.boolean().meta({ description: 'True on the event of its deletion.' }),
});
export type ProductEventData = z.infer<typeof productEventData>;

/** The fields the payloads are built from, read before and after each change. */
export const ARTICLE_FIELDS = ['documentId', 'uuid', 'title', 'slug', 'status', 'createdAt', 'updatedAt'];
export const PRODUCT_FIELDS = ['documentId', 'name', 'slug', 'price', 'stock', 'published', 'deleted'];

export function articlePayload(row: Record<string, unknown>): ArticleEventData {
  return {
    id: String(row.uuid ?? row.documentId),
    title: toText(row.title),
    slug: toText(row.slug),
    status: toText(row.status),
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

/** A product event's payload; checkout and returned stock announce stock changes with it too. */
export function productPayload(row: Record<string, unknown>): ProductEventData {
  return {
    id: String(row.documentId),
    name: toText(row.name),
    slug: toText(row.slug),
    price: row.price === null || row.price === undefined ? null : Number(row.price),
    stock: row.stock === null || row.stock === undefined ? null : Number(row.stock),
    published: row.published === true || row.published === 1,
    deleted: row.deleted === true || row.deleted === 1,
  };
}

const article: ArticleEventData = {
  id: '1b4e28ba-2fa1-4d2b-a9c1-6b0a3f1c9d2e',
  title: 'Hello world',
  slug: 'hello-world',
  status: 'published',
  createdAt: '2026-01-01T12:00:00.000Z',
  updatedAt: '2026-01-01T12:05:00.000Z',
};
const product: ProductEventData = {
  id: 'q8v2k1m0x9c7b6n5z4l3j2h1',
  name: 'Blue mug',
  slug: 'blue-mug',
  price: 12.5,
  stock: 40,
  published: true,
  deleted: false,
};

const defineArticle = (name: string, description: string, example: ArticleEventData) =>
  defineEvent({ name, description, schema: articleEventData, example, audience: 'everyone', owner: 'content' });
const defineProduct = (name: string, description: string, example: ProductEventData) =>
  defineEvent({ name, description, schema: productEventData, example, audience: 'everyone', owner: 'content' });

export const ARTICLE_EVENTS: EventDefinition[] = [
  defineArticle('article.created', 'An article was created (API or admin panel).', { ...article, status: 'draft' }),
  defineArticle('article.updated', 'An article was changed.', article),
  defineArticle('article.published', "An article's status became published.", article),
  defineArticle('article.unpublished', "An article's status stopped being published (back to draft, or archived).", {
    ...article,
    status: 'archived',
  }),
  defineArticle('article.deleted', 'An article was deleted.', article),
];

export const PRODUCT_EVENTS: EventDefinition[] = [
  defineProduct('product.created', 'A product was created.', product),
  defineProduct('product.updated', 'A product was changed, published, unpublished or deleted.', { ...product, stock: 39 }),
  defineProduct('product.deleted', 'A product was deleted (product.updated is sent too, with deleted true).', {
    ...product,
    deleted: true,
  }),
];

declare module '../../webhooks/events/registry' {
  interface EventPayloads {
    'article.created': ArticleEventData;
    'article.updated': ArticleEventData;
    'article.published': ArticleEventData;
    'article.unpublished': ArticleEventData;
    'article.deleted': ArticleEventData;
    'product.created': ProductEventData;
    'product.updated': ProductEventData;
    'product.deleted': ProductEventData;
  }
}
