/** A product event's payload (`product.created`, `product.updated`); checkout and returned stock announce stock changes with it too. */
export function productPayload(row: Record<string, unknown>): Record<string, unknown> {
  return {
    id: row.documentId,
    name: row.name ?? null,
    slug: row.slug ?? null,
    price: row.price === null || row.price === undefined ? null : Number(row.price),
    stock: row.stock ?? null,
    published: row.published === true || row.published === 1,
    deleted: row.deleted === true || row.deleted === 1,
  };
}
