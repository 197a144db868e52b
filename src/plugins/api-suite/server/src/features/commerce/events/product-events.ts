import type { Core } from '@strapi/strapi';
import { z } from 'zod';
import { toText } from '../../../db';
import { getConfig } from '../../../utils';
import type { ContentEventAdapter } from '../../content/events/adapters';
import type { ContentChange } from '../../platform/services/content-changes';
import { defineEvent, type EventDefinition } from '../../webhooks/events/registry';
import type { PublishableEvent } from '../../webhooks/services/webhooks';

/**
 * The events of the site's products (`contentTypes.product` in the plugin config), which the
 * content path announces through this adapter: they keep the names and the payload with the
 * flags the product feed uses. Checkout's and returned stock's changes reach them the same way,
 * as changes made outside the document service (`content-changes.changedOutside`).
 */
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

/** The fields the payload is built from, read before and after each change. */
const PRODUCT_FIELDS = ['documentId', 'name', 'slug', 'price', 'stock', 'published', 'deleted'];

/** A product event's payload. */
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

const product: ProductEventData = {
  id: 'q8v2k1m0x9c7b6n5z4l3j2h1',
  name: 'Blue mug',
  slug: 'blue-mug',
  price: 12.5,
  stock: 40,
  published: true,
  deleted: false,
};

const defineProduct = (name: string, description: string, example: ProductEventData) =>
  defineEvent({ name, description, schema: productEventData, example, audience: 'everyone', owner: 'content' });

const PRODUCT_EVENTS: EventDefinition[] = [
  defineProduct('product.created', 'A product was created.', product),
  defineProduct('product.updated', 'A product was changed, published, unpublished or deleted.', { ...product, stock: 39 }),
  defineProduct('product.deleted', 'A product was deleted (product.updated is sent too, with deleted true).', {
    ...product,
    deleted: true,
  }),
];

/** product.created; product.updated on any other change, a deletion included (`deleted: true`), which is also product.deleted. */
function productEvents({ action, before, after }: ContentChange): PublishableEvent[] {
  if (action === 'delete') {
    if (!before) return [];
    const payload = { ...productPayload(before), deleted: true };
    return [
      { type: 'product.updated', payload },
      { type: 'product.deleted', payload },
    ];
  }
  if (!after) return [];
  return [{ type: action === 'create' || action === 'clone' ? 'product.created' : 'product.updated', payload: productPayload(after) }];
}

export const productEventAdapter: ContentEventAdapter = {
  uid: (strapi: Core.Strapi) => getConfig(strapi).contentTypes.product,
  fields: PRODUCT_FIELDS,
  definitions: PRODUCT_EVENTS,
  events: productEvents,
};

declare module '../../webhooks/events/registry' {
  interface EventPayloads {
    'product.created': ProductEventData;
    'product.updated': ProductEventData;
    'product.deleted': ProductEventData;
  }
}
