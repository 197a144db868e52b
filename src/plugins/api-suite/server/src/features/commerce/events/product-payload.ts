import { toText } from '../../../db';
import type { ProductEventData } from '../../webhooks/validation/event-data';

/** A product event's payload (`product.created`, `product.updated`); checkout and returned stock announce stock changes with it too. */
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
