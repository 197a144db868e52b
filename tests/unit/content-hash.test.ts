import { createHash } from 'node:crypto';
import {
  canonicalJson,
  combineHashes,
  contentHash,
  itemKeyHash,
} from '../../src/plugins/api-suite/server/src/features/scrapers/content-hash';

/** Change detection's hashes: stable across key order, exact about values, and the key an item is compared by. */
describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson([2, 1])).toBe('[2,1]');
  });

  it('writes what JSON.stringify writes for values: undefined fields dropped, undefined in arrays null, dates as ISO', () => {
    expect(canonicalJson({ a: undefined, b: 'x' })).toBe('{"b":"x"}');
    expect(canonicalJson([undefined, 1])).toBe('[null,1]');
    expect(canonicalJson({ at: new Date('2026-01-02T03:04:05.000Z') })).toBe('{"at":"2026-01-02T03:04:05.000Z"}');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson('é "q"')).toBe('"é \\"q\\""');
  });
});

describe('contentHash', () => {
  it('is the sha256 hex of the canonical JSON, the same whatever the key order', () => {
    const expected = createHash('sha256').update('{"link":"https://x/a","name":"A"}').digest('hex');
    expect(contentHash({ name: 'A', link: 'https://x/a' })).toBe(expected);
    expect(contentHash({ link: 'https://x/a', name: 'A' })).toBe(expected);
  });

  it('tells apart values JSON tells apart', () => {
    const hashes = [{ a: 1 }, { a: '1' }, { a: null }, {}, { a: [1, 2] }, { a: [2, 1] }, { a: 'A' }, { a: 'a' }].map(contentHash);
    expect(new Set(hashes).size).toBe(hashes.length);
  });
});

describe('combineHashes', () => {
  it("is the item's own hash for one item, and the same for several in any order", () => {
    const [a, b, c] = ['a', 'b', 'c'].map(contentHash);
    expect(combineHashes([a])).toBe(a);
    expect(combineHashes([a, b, c])).toBe(combineHashes([c, a, b]));
    expect(combineHashes([a, b])).not.toBe(combineHashes([a, c]));
    expect(combineHashes([a, a])).not.toBe(a);
    expect(combineHashes([a, b])).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('itemKeyHash', () => {
  const item = (data: Record<string, unknown>, url = 'https://shop.test/') => ({ url, data });

  it('uses the key field when one is set', () => {
    expect(itemKeyHash(item({ sku: 'A-1', name: 'A' }), { key: 'sku' })).toBe(contentHash('A-1'));
    expect(itemKeyHash(item({ sku: 1 }), { key: 'sku' })).not.toBe(itemKeyHash(item({ sku: '1' }), { key: 'sku' }));
  });

  it("without a key, uses the item's url field, else the page's URL", () => {
    expect(itemKeyHash(item({ url: 'https://shop.test/a', title: 'A' }), {})).toBe(contentHash('https://shop.test/a'));
    expect(itemKeyHash(item({ name: 'A' }, 'https://shop.test/p2'), {})).toBe(contentHash('https://shop.test/p2'));
  });

  it('gives no key for a missing, null or empty field', () => {
    expect(itemKeyHash(item({ name: 'A' }), { key: 'sku' })).toBeNull();
    expect(itemKeyHash(item({ sku: null }), { key: 'sku' })).toBeNull();
    expect(itemKeyHash(item({ sku: '' }), { key: 'sku' })).toBeNull();
  });
});
