import { badCharacterAt, badFilterAt } from '../../src/plugins/api-suite/server/src/features/platform/middlewares/hostile-input';
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
