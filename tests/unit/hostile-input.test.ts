import {
  badCharacterAt,
  badFilterAt,
  inputProblemAt,
  MAX_NESTING,
} from '../../src/plugins/api-suite/server/src/features/platform/middlewares/hostile-input';
import { csvCell } from '../../src/plugins/api-suite/server/src/features/scrapers/csv-cells';
import { redactSecrets } from '../../src/plugins/api-suite/server/src/http/redact';
import { isReservedHeader } from '../../src/plugins/api-suite/server/src/http/reserved-headers';

describe('badCharacterAt', () => {
  it('finds NUL and unpaired surrogates in values and keys, with their path', () => {
    expect(badCharacterAt({ a: 'ok', b: [{ c: 'x\u0000' }] })).toBe('b.0.c');
    expect(badCharacterAt({ a: '\uD800' })).toBe('a');
    expect(badCharacterAt({ a: 'x\uDC00y' })).toBe('a');
    expect(badCharacterAt({ 'k\u0000': 1 })).toBe('k?');
    expect(badCharacterAt('\u0000')).toBe('');
  });

  it('lets well-formed text, pairs and other types through', () => {
    expect(badCharacterAt({ a: '🚀 \uD83D\uDE80', b: 1, c: null, d: true, e: ['x', { f: 'é' }] })).toBeUndefined();
    expect(badCharacterAt(undefined)).toBeUndefined();
  });
});

/** `levels` arrays one inside the other, `inner` in the innermost, as JSON.parse would build them. */
function nested(levels: number, inner: unknown = undefined): unknown {
  let value: unknown[] = inner === undefined ? [] : [inner];
  for (let level = 1; level < levels; level += 1) value = [value];
  return value;
}

describe('deeply nested input', () => {
  it('is walked without recursion: 20,000 levels (40 KB of JSON) overflow nothing', () => {
    const deep = JSON.parse('['.repeat(20_000) + '"\\u0000"' + ']'.repeat(20_000)) as unknown;
    expect(() => badCharacterAt(deep)).not.toThrow();
    expect(badCharacterAt(deep)).toBe(new Array<string>(20_000).fill('0').join('.'));
    expect(badCharacterAt(nested(20_000))).toBeUndefined();
    let filters: Record<string, unknown> = { $eq: { $ne: 'x' } };
    for (let level = 0; level < 20_000; level += 1) filters = { $and: [filters] };
    expect(() => badFilterAt(filters)).not.toThrow();
    expect(badFilterAt(filters)?.endsWith('[$and][0][$eq]')).toBe(true);
  });

  it(`is refused beyond ${MAX_NESTING} levels, under the top-level field it is in`, () => {
    expect(MAX_NESTING).toBe(64);
    expect(inputProblemAt(nested(64))).toBeUndefined();
    expect(inputProblemAt(nested(65))).toEqual({ kind: 'nesting', at: '0' });
    expect(inputProblemAt({ ok: 1, name: nested(63) })).toBeUndefined();
    expect(inputProblemAt({ ok: 1, name: nested(64) })).toEqual({ kind: 'nesting', at: 'name' });
    expect(inputProblemAt({ data: { deep: nested(8_000) } })).toEqual({ kind: 'nesting', at: 'data' });
    expect(inputProblemAt({ a: { b: { c: 1 } } }, 2)).toEqual({ kind: 'nesting', at: 'a' });
    expect(inputProblemAt('text')).toBeUndefined();
  });

  it('reports the first problem in document order, a key before its own value', () => {
    expect(inputProblemAt({ a: 'x\u0000', b: nested(100) })).toEqual({ kind: 'character', at: 'a' });
    expect(inputProblemAt({ b: nested(100), a: 'x\u0000' })).toEqual({ kind: 'nesting', at: 'b' });
    expect(inputProblemAt({ 'k\u0000': 'v\u0000' })).toEqual({ kind: 'character', at: 'k?' });
    expect(inputProblemAt({ a: [{ b: 'ok' }, { 'c\uD800': 1 }], d: '\u0000' })).toEqual({ kind: 'character', at: 'a.1.c?' });
    expect(badFilterAt({ a: { b: { $eq: { x: 1 } } }, $or: [{ c: { $in: [{}] } }] })).toBe('[a][b][$eq]');
    expect(badFilterAt({ $or: [{ c: { $in: [{}] } }], a: { b: { $eq: { x: 1 } } } })).toBe('[$or][0][c][$in]');
  });
});

describe('badFilterAt', () => {
  it('finds a comparing operator given an object, at any depth', () => {
    expect(badFilterAt({ title: { $eq: { $ne: 'x' } } })).toBe('[title][$eq]');
    expect(badFilterAt({ $or: [{ title: { $in: [{ $eq: 1 }] } }] })).toBe('[$or][0][title][$in]');
    expect(badFilterAt({ author: { name: { $containsi: { a: 1 } } } })).toBe('[author][name][$containsi]');
  });

  it('accepts values, lists of values and the combining operators', () => {
    expect(
      badFilterAt({ title: { $eq: 'x' }, id: { $in: ['1', '2'] }, $or: [{ title: { $null: 'true' } }], $not: { title: { $eq: 'y' } } })
    ).toBeUndefined();
    expect(badFilterAt(undefined)).toBeUndefined();
    expect(badFilterAt('x')).toBeUndefined();
  });
});

describe('csvCell', () => {
  it.each([
    ['=HYPERLINK("http://evil.example/","click")', '\'=HYPERLINK("http://evil.example/","click")'],
    ["+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"],
    ['@SUM(1,1)', "'@SUM(1,1)"],
    ['-2+3', "'-2+3"],
    ['\t=1', "'\t=1"],
    ['\r=1', "'\r=1"],
    ['plain', 'plain'],
    ['a=b', 'a=b'],
  ])('%j becomes %j', (input, output) => {
    expect(csvCell(input)).toBe(output);
  });

  it('writes objects as JSON and nothing for null', () => {
    expect(csvCell({ a: 1 })).toBe('{"a":1}');
    expect(csvCell(null)).toBe('');
    expect(csvCell(-5)).toBe("'-5");
  });
});

describe('redactSecrets', () => {
  it("keeps a key's 8-character prefix and drops the rest, wherever it stands", () => {
    const key = `sk_${'A'.repeat(48)}`;
    expect(redactSecrets(`GET /api/v1/keys?api_key=${key} (3 ms) 200`)).toBe('GET /api/v1/keys?api_key=[redacted] (3 ms) 200');
    expect(redactSecrets(`key ${key} refused`)).toBe('key sk_AAAAA[redacted] refused');
    expect(redactSecrets('GET /x?a=1&API_KEY=whatever&b=2')).toBe('GET /x?a=1&API_KEY=[redacted]&b=2');
    expect(redactSecrets('nothing here')).toBe('nothing here');
  });

  it('drops the value of api_key= and client_secret= whatever its shape, at the start of a query string too', () => {
    const key = `sk_${'A'.repeat(48)}`;
    expect(redactSecrets(`api_key=${key}&limit=1`)).toBe('api_key=[redacted]&limit=1');
    expect(redactSecrets(`grant_type=client_credentials&client_id=ci_1&client_secret=${key}`)).toBe(
      'grant_type=client_credentials&client_id=ci_1&client_secret=[redacted]'
    );
    expect(redactSecrets('POST /api/v1/oauth/token?client_secret=sk_short')).toBe('POST /api/v1/oauth/token?client_secret=[redacted]');
    expect(redactSecrets(`/api/v1/articles/${key}`)).toBe('/api/v1/articles/sk_AAAAA[redacted]');
    // A parameter that merely ends with the name is not one of them.
    expect(redactSecrets('my_api_key=1&not_client_secret=2')).toBe('my_api_key=1&not_client_secret=2');
  });
});

describe('isReservedHeader', () => {
  it('folds _ to - and case before comparing', () => {
    for (const name of ['Webhook_Signature', 'webhook-id', 'HOST', 'transfer_encoding', 'Expect', 'Proxy_Authorization', 'keep-alive'])
      expect(isReservedHeader(name)).toBe(true);
    for (const name of ['X-Tenant', 'authorization', 'user_agent']) expect(isReservedHeader(name)).toBe(false);
  });
});
