import { schemaOutline } from '../../src/plugins/api-suite/shared/schema-outline';

/** The event catalog's reading of a JSON Schema: one row a field, its kind in words. */
it('lists the fields of a schema with their kinds, formats, choices, lists and nesting, following $defs', () => {
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      id: { type: 'string', description: "The order's id." },
      total: { type: 'number' },
      status: { type: 'string', enum: ['pending', 'paid'] },
      paid_at: { anyOf: [{ type: 'string', format: 'date-time', pattern: '^(?:(?:\\d\\d[2468][048]|…)$' }, { type: 'null' }] },
      customer: { $ref: '#/$defs/Customer' },
      items: {
        type: 'array',
        items: { type: 'object', properties: { sku: { type: 'string' }, quantity: { type: 'integer' } }, required: ['sku'] },
      },
      tags: { type: 'array', items: { type: 'string' } },
    },
    required: ['id', 'total'],
    additionalProperties: false,
    $defs: { Customer: { type: 'object', properties: { email: { type: 'string', format: 'email' } } } },
  };
  expect(schemaOutline(schema)).toEqual([
    { path: 'id', depth: 0, type: 'text', required: true, description: "The order's id." },
    { path: 'total', depth: 0, type: 'number', required: true },
    { path: 'status', depth: 0, type: 'one of pending, paid', required: false },
    { path: 'paid_at', depth: 0, type: 'text, date-time or null', required: false },
    { path: 'customer', depth: 0, type: 'object', required: false },
    { path: 'customer.email', depth: 1, type: 'text, email', required: false },
    { path: 'items', depth: 0, type: 'list of objects', required: false },
    { path: 'items[].sku', depth: 1, type: 'text', required: true },
    { path: 'items[].quantity', depth: 1, type: 'whole number', required: false },
    { path: 'tags', depth: 0, type: 'list of texts', required: false },
  ]);
});

it('says nothing of a schema without fields, and stops at its limit', () => {
  expect(schemaOutline(true)).toEqual([]);
  expect(schemaOutline({ type: 'object' })).toEqual([]);
  const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 50 }, (_, n) => [`f${n}`, { type: 'string' }])) };
  expect(schemaOutline(wide, 10)).toHaveLength(10);
});
