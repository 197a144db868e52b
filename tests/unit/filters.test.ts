import { isOperatorOfType } from '@strapi/utils';
import { z } from 'zod';
import {
  compileFilter,
  FIELD_OPERATOR_NAMES,
  fieldSuggestions,
  filterProblem,
  FilterProblem,
  LOGICAL_OPERATORS,
  type JsonSchema,
} from '../../src/plugins/api-suite/shared/filters';

const order = {
  id: 42,
  total: 129.5,
  currency: 'EUR',
  status: 'paid',
  note: null,
  createdAt: '2026-03-01T10:00:00.000Z',
  customer: { name: 'Ada Lovelace', email: 'ada@example.com', vip: true },
  tags: ['gift', 'Express'],
  items: [
    { sku: 'A-1', qty: 1, price: 100 },
    { sku: 'B-2', qty: 3, price: 9.83 },
  ],
  empty: [],
};

type Case = [string, unknown, boolean];

const cases: Case[] = [
  // bare values, $eq, $ne
  ['bare string', { status: 'paid' }, true],
  ['bare string, other value', { status: 'pending' }, false],
  ['bare number', { id: 42 }, true],
  ['bare boolean, nested', { customer: { vip: true } }, true],
  ['bare list means $in', { status: ['pending', 'paid'] }, true],
  ['bare null means $null', { note: null }, true],
  ['bare null on a value', { status: null }, false],
  ['$eq', { currency: { $eq: 'EUR' } }, true],
  ['$eq is case-sensitive', { currency: { $eq: 'eur' } }, false],
  ['$eqi', { currency: { $eqi: 'eur' } }, true],
  ['$ne', { currency: { $ne: 'USD' } }, true],
  ['$ne, equal', { currency: { $ne: 'EUR' } }, false],
  ['$nei', { currency: { $nei: 'eur' } }, false],
  ['$eq null on null', { note: { $eq: null } }, true],
  ['$eq on a missing field', { missing: { $eq: 'x' } }, false],
  ['$ne on a missing field', { missing: { $ne: 'x' } }, true],
  // numbers
  ['$gt', { total: { $gt: 100 } }, true],
  ['$gt, equal', { total: { $gt: 129.5 } }, false],
  ['$gte, equal', { total: { $gte: 129.5 } }, true],
  ['$lt', { total: { $lt: 100 } }, false],
  ['$lte', { total: { $lte: 129.5 } }, true],
  ['$between', { total: { $between: [100, 200] } }, true],
  ['$between, outside', { total: { $between: [1, 100] } }, false],
  ['$between, bounds included', { total: { $between: [129.5, 129.5] } }, true],
  ['$in numbers', { id: { $in: [1, 42] } }, true],
  ['$notIn numbers', { id: { $notIn: [1, 42] } }, false],
  // dates
  ['date $gt', { createdAt: { $gt: '2026-01-01T00:00:00Z' } }, true],
  ['date $lt', { createdAt: { $lt: '2026-01-01' } }, false],
  ['date $eq in another precision', { createdAt: { $eq: '2026-03-01T10:00:00Z' } }, true],
  ['date $eq in another offset', { createdAt: { $eq: '2026-03-01T11:00:00+01:00' } }, true],
  ['date $between', { createdAt: { $between: ['2026-03-01', '2026-03-02'] } }, true],
  // text
  ['$contains', { customer: { name: { $contains: 'Love' } } }, true],
  ['$contains is case-sensitive', { customer: { name: { $contains: 'love' } } }, false],
  ['$containsi', { customer: { name: { $containsi: 'love' } } }, true],
  ['$notContains', { customer: { name: { $notContains: 'Babbage' } } }, true],
  ['$notContainsi', { customer: { name: { $notContainsi: 'ADA' } } }, false],
  ['$startsWith', { customer: { email: { $startsWith: 'ada@' } } }, true],
  ['$startsWithi', { customer: { email: { $startsWithi: 'ADA@' } } }, true],
  ['$endsWith', { customer: { email: { $endsWith: '.com' } } }, true],
  ['$endsWithi', { customer: { email: { $endsWithi: '.ORG' } } }, false],
  // null and not null
  ['$null true on null', { note: { $null: true } }, true],
  ['$null true on a missing field', { missing: { $null: true } }, true],
  ['$null false on a value', { status: { $null: false } }, true],
  ['$notNull true on a value', { status: { $notNull: true } }, true],
  ['$notNull true on null', { note: { $notNull: true } }, false],
  ['$notNull false on null', { note: { $notNull: false } }, true],
  // lists in the data
  ['list of strings, some item equal', { tags: 'gift' }, true],
  ['list of strings, $containsi', { tags: { $containsi: 'express' } }, true],
  ['list of strings, $ne means none equal', { tags: { $ne: 'gift' } }, false],
  ['list of strings, $notIn', { tags: { $notIn: ['a', 'b'] } }, true],
  ['list of objects, a field of some item', { items: { sku: 'B-2' } }, true],
  ['list of objects, a comparison on some item', { items: { qty: { $gte: 3 } } }, true],
  ['list of objects, no item', { items: { qty: { $gt: 3 } } }, false],
  ['empty list is null', { empty: { $null: true } }, true],
  ['list with values is not null', { tags: { $notNull: true } }, true],
  // logic
  ['$and', { $and: [{ status: 'paid' }, { total: { $gt: 100 } }] }, true],
  ['$and, one fails', { $and: [{ status: 'paid' }, { total: { $gt: 1000 } }] }, false],
  ['$or', { $or: [{ status: 'pending' }, { total: { $gt: 100 } }] }, true],
  ['$or, none holds', { $or: [{ status: 'pending' }, { total: { $gt: 1000 } }] }, false],
  ['$not at the top', { $not: { status: 'paid' } }, false],
  ['$not on a field', { status: { $not: { $eq: 'pending' } } }, true],
  ['$not with a bare value', { status: { $not: 'paid' } }, false],
  ['$not around a list condition: no item', { $not: { tags: 'gift' } }, false],
  ['nested $or inside a field', { customer: { $or: [{ name: 'Nobody' }, { vip: true }] } }, true],
  ['several entries all hold', { status: 'paid', currency: 'EUR', total: { $gt: 1, $lt: 200 } }, true],
  ['several entries, one fails', { status: 'paid', currency: 'USD' }, false],
  ['empty filter', {}, true],
  ['empty $or', { $or: [] }, true],
  // values of the wrong kind never throw and never match
  ['number operator on text', { status: { $gt: 5 } }, false],
  ['text operator on a number', { total: { $contains: '12' } }, false],
  ['field below a string', { status: { deeper: 'x' } }, false],
  ['field below null', { note: { deeper: { $eq: 1 } } }, false],
  ['numeric string compares as a number', { id: { $eq: 42 } }, true],
];

describe('payload filters: matching', () => {
  it.each(cases)('%s', (_name, filter, expected) => {
    expect(compileFilter(filter).test(order)).toBe(expected);
  });

  it('never throws, whatever the data', () => {
    const filters = cases.map(([, filter]) => compileFilter(filter));
    const hostile: unknown[] = [
      null,
      undefined,
      42,
      'text',
      [],
      [null, 1, 'x'],
      { status: { nested: [1, { a: null }] } },
      Object.create(null),
      { tags: 'not a list', items: 'nope', total: '129.5', createdAt: 12 },
      JSON.parse('{"__proto__": {"status": "paid"}, "constructor": 1}'),
    ];
    for (const data of hostile) for (const filter of filters) expect(typeof filter.test(data)).toBe('boolean');
  });

  it('does not read inherited properties', () => {
    expect(compileFilter({ toString: { $notNull: true } }).test({})).toBe(false);
    expect(compileFilter({ constructor: { $null: true } }).test({})).toBe(true);
  });
});

describe('payload filters: refusals with their place', () => {
  const refused: Array<[string, unknown, string[]]> = [
    ['unknown operator', { total: { $greater: 5 } }, ['total', '$greater']],
    ['Strapi-internal operator', { total: { $jsonSupersetOf: {} } }, ['total', '$jsonSupersetOf']],
    ['$in without a list', { id: { $in: 4 } }, ['id', '$in']],
    ['$between with one value', { total: { $between: [1] } }, ['total', '$between']],
    ['$null with a string', { note: { $null: 'yes' } }, ['note', '$null']],
    ['$contains with a number', { status: { $contains: 5 } }, ['status', '$contains']],
    ['$eq with an object', { status: { $not: { $eq: { a: 1 } } } }, ['status', '$not', '$eq']],
    ['$or not a list', { $or: { status: 'paid' } }, ['$or']],
    ['$or item not an object', { $or: [{ status: 'paid' }, 'x'] }, ['$or', '1']],
    ['filter not an object', ['status'], []],
    ['bare list of objects', { items: [{ sku: 'A' }] }, ['items']],
  ];
  it.each(refused)('%s', (_name, filter, path) => {
    let problem: unknown;
    try {
      compileFilter(filter);
    } catch (error) {
      problem = error;
    }
    expect(problem).toBeInstanceOf(FilterProblem);
    expect((problem as FilterProblem).path).toEqual(path);
  });

  it('refuses filters nested or sized beyond the limits', () => {
    let deep: Record<string, unknown> = { a: 1 };
    for (let level = 0; level < 20; level += 1) deep = { $and: [deep] };
    expect(() => compileFilter(deep)).toThrow(/nested more than/);
    const wide = { $or: Array.from({ length: 120 }, (_, index) => ({ id: index })) };
    expect(() => compileFilter(wide)).toThrow(/at most 100 conditions/);
  });
});

describe('payload filters: checked against event schemas', () => {
  const orderSchema = z.toJSONSchema(
    z.object({
      id: z.int(),
      total: z.number(),
      status: z.enum(['pending', 'paid', 'cancelled']),
      note: z.string().nullable(),
      createdAt: z.iso.datetime(),
      customer: z.object({ name: z.string(), vip: z.boolean() }),
      tags: z.array(z.string()),
      items: z.array(z.object({ sku: z.string(), qty: z.int() })),
      meta: z.record(z.string(), z.unknown()),
    }),
    { target: 'draft-2020-12' }
  ) as JsonSchema;
  const runSchema = z.toJSONSchema(z.object({ id: z.string(), pages: z.int() }), { target: 'draft-2020-12' }) as JsonSchema;
  const types = [
    { name: 'order.paid', schema: orderSchema },
    { name: 'run.completed', schema: runSchema },
  ];
  const problem = (filter: unknown) => {
    const found = filterProblem(compileFilter(filter), types);
    return found && { path: found.path, message: found.message };
  };

  it('accepts fields any of the types has, with values of their kind', () => {
    expect(problem({ total: { $gt: 100 }, status: { $in: ['paid', 'pending'] } })).toBeUndefined();
    expect(problem({ pages: { $lt: 5 } })).toBeUndefined();
    expect(problem({ id: 'x' })).toBeUndefined(); // a string id in run.completed
    expect(problem({ createdAt: { $gte: '2026-01-01' } })).toBeUndefined();
    expect(problem({ items: { sku: { $startsWith: 'A' }, qty: 2 } })).toBeUndefined();
    expect(problem({ tags: { $containsi: 'gift' } })).toBeUndefined();
    expect(problem({ meta: { anything: { deeper: 1 } } })).toBeUndefined();
    expect(problem({ note: null, customer: { vip: true } })).toBeUndefined();
  });

  it('names an unknown field at its place', () => {
    expect(problem({ $or: [{ total: 1 }, { customer: { nmae: 'Ada' } }] })).toEqual({
      path: ['$or', '1', 'customer', 'nmae'],
      message: 'any of the 2 event types it receives has no field customer.nmae',
    });
    expect(problem({ vendor: { name: { first: 'Ada' } } })).toEqual({
      path: ['vendor'],
      message: 'any of the 2 event types it receives has no field vendor',
    });
    expect(filterProblem(compileFilter({ price: 1 }), [types[1]])?.message).toBe('run.completed has no field price');
  });

  it('names a value of the wrong kind at its operator', () => {
    expect(problem({ total: { $gt: '100' } })?.path).toEqual(['total', '$gt']);
    expect(problem({ total: { $contains: '1' } })?.message).toBe('$contains compares text, and total of order.paid holds numbers');
    expect(problem({ createdAt: { $gt: 'yesterday' } })?.message).toMatch(/"yesterday" is not an ISO 8601 date/);
    expect(problem({ status: 'payed' })).toEqual({
      path: ['status'],
      message: '"payed" is not one of "pending", "paid", "cancelled": status of order.paid holds text',
    });
    expect(problem({ customer: { vip: { $in: [1] } } })?.path).toEqual(['customer', 'vip', '$in']);
    expect(problem({ customer: 'Ada' })?.path).toEqual(['customer']);
  });

  it('checks nothing when a schema allows anything', () => {
    expect(filterProblem(compileFilter({ whatever: { $gt: 1 } }), [{ name: 'x.y', schema: {} }])).toBeUndefined();
  });

  it('suggests the fields a filter may name', () => {
    const paths = fieldSuggestions(orderSchema).map((field) => field.path);
    expect(paths).toEqual(expect.arrayContaining(['total', 'customer.name', 'items.sku', 'tags', 'createdAt']));
    expect(fieldSuggestions(orderSchema).find((field) => field.path === 'createdAt')?.kinds).toEqual(['date']);
  });
});

describe('payload filters: the operators are Strapi’s', () => {
  it('every operator offered is one of Strapi’s filter operators', () => {
    for (const name of FIELD_OPERATOR_NAMES) expect([name, isOperatorOfType('where', name)]).toEqual([name, true]);
    for (const name of LOGICAL_OPERATORS)
      expect([name, isOperatorOfType('where', name) || isOperatorOfType('group', name)]).toEqual([name, true]);
  });
});
