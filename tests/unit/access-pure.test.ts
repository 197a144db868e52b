import { createHash } from 'node:crypto';
import {
  API_KEY_PATTERN,
  generateApiKey,
  generateClientId,
  hashApiKey,
  keyPrefixOf,
  randomAlphanumeric,
  safeEqual,
} from '../../src/plugins/api-suite/server/src/features/access/credentials';
import { compileEndpoints, resolveEndpoints } from '../../src/plugins/api-suite/server/src/features/access/endpoints';
import { effectiveStatus } from '../../src/plugins/api-suite/server/src/features/access/services/keys';
import { apiPathUnder, configuredApiPath, normalizePrefix, sitePathOf } from '../../src/plugins/api-suite/server/src/http/site-paths';

describe('API key credentials', () => {
  it('generates sk_ + 48 alphanumerics, every one different', () => {
    const keys = new Set(Array.from({ length: 1000 }, generateApiKey));
    expect(keys.size).toBe(1000);
    for (const key of keys) expect(key).toMatch(API_KEY_PATTERN);
    expect(generateClientId()).toMatch(/^ci_[A-Za-z0-9]{24}$/);
  });

  it('draws every alphanumeric character about equally often', () => {
    const counts = new Map<string, number>();
    for (const char of randomAlphanumeric(62 * 2000)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 2,000 expected per character; a modulo bias would push the first characters far above it.
    for (const count of counts.values()) expect(Math.abs(count - 2000)).toBeLessThan(250);
  });

  it('hashes with SHA-256 and keeps an 8-character prefix', () => {
    expect(hashApiKey('sk_test')).toBe(createHash('sha256').update('sk_test').digest('hex'));
    expect(keyPrefixOf('sk_AbCdEfGhIj')).toBe('sk_AbCdE');
  });

  it('compares in constant time without throwing on different lengths', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(safeEqual('', '')).toBe(true);
  });
});

describe('plan endpoints', () => {
  const groups = {
    public: ['GET /api/v1/articles*'],
    private: ['* /api/v1/scrapers*', 'POST /api/v1/webhooks'],
    content: ['* /api/recipes', '* /api/recipes/*'],
  };

  it('resolves @public and @private from the configured groups, once each', () => {
    expect(resolveEndpoints(['@public', '@private', 'GET /api/v1/articles*'], groups)).toEqual([
      'GET /api/v1/articles*',
      '* /api/v1/scrapers*',
      'POST /api/v1/webhooks',
    ]);
    expect(resolveEndpoints('not a list', groups)).toEqual([]);
  });

  it('resolves @content to the base paths of the watched content types, and does not reach a longer name', () => {
    const allows = compileEndpoints(resolveEndpoints(['@content'], groups));
    expect(allows('GET', '/api/recipes')).toBe(true);
    expect(allows('DELETE', '/api/recipes/abc123')).toBe(true);
    expect(allows('GET', '/api/recipes-archive')).toBe(false);
    expect(allows('GET', '/api/v1/articles')).toBe(false);
  });

  it('matches methods, prefixes and exact paths', () => {
    const allows = compileEndpoints(['GET /api/v1/articles*', 'POST /api/v1/webhooks', '* /api/webhooks/*']);
    expect(allows('GET', '/api/v1/articles')).toBe(true);
    expect(allows('GET', '/api/v1/articles/5/comments')).toBe(true);
    expect(allows('HEAD', '/api/v1/articles')).toBe(true);
    expect(allows('POST', '/api/v1/articles')).toBe(false);
    expect(allows('POST', '/api/v1/webhooks')).toBe(true);
    expect(allows('POST', '/api/v1/webhooks/')).toBe(true);
    expect(allows('POST', '/api/v1/webhooks/1')).toBe(false);
    expect(allows('DELETE', '/api/webhooks/subscriptions/1')).toBe(true);
    expect(allows('GET', '/api/webhooks')).toBe(false);
  });

  it('lets "* *" reach everything and ignores malformed entries', () => {
    expect(compileEndpoints(['* *'])('PATCH', '/anything/at/all')).toBe(true);
    expect(compileEndpoints(['GET'])('GET', '/')).toBe(false);
  });
});

describe('key status', () => {
  it('is expired once expires_at has passed, and expired wins over revoked (verification checks expired first)', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(effectiveStatus('active', null, now)).toBe('active');
    expect(effectiveStatus('active', now + 1, now)).toBe('active');
    expect(effectiveStatus('active', now, now)).toBe('expired');
    expect(effectiveStatus('revoked', now - 1, now)).toBe('expired');
    expect(effectiveStatus('revoked', now + 1, now)).toBe('revoked');
    expect(effectiveStatus('revoked', null, now)).toBe('revoked');
  });
});

describe("a site's REST prefix and a path's case (http/site-paths.ts)", () => {
  it('reads a request path as its API path: the prefix written as /api, lower case', () => {
    expect(apiPathUnder('/api', '/api/v1/keys')).toBe('/api/v1/keys');
    expect(apiPathUnder('/api', '/API/Authors')).toBe('/api/authors');
    expect(apiPathUnder('/content', '/Content/V1/keys')).toBe('/api/v1/keys');
    expect(apiPathUnder('/content', '/content')).toBe('/api');
    expect(apiPathUnder('/content', '/api/v1/keys')).toBeUndefined();
    expect(apiPathUnder('/content', '/contentious/x')).toBeUndefined();
    expect(apiPathUnder('/api/v2', '/api/v2/recipes')).toBe('/api/recipes');
    expect(apiPathUnder('/api', '/admin/users')).toBeUndefined();
  });

  it('reads a configured pattern path written either way, and shows an API path as the site serves it', () => {
    expect(configuredApiPath('/content', '/content/recipes*')).toBe('/api/recipes*');
    expect(configuredApiPath('/content', '/api/recipes*')).toBe('/api/recipes*');
    expect(sitePathOf('/content', '/api/v1/keys')).toBe('/content/v1/keys');
    expect(sitePathOf('/api', '/api/v1/keys')).toBe('/api/v1/keys');
    expect(sitePathOf('/content', '/admin')).toBe('/admin');
    expect(normalizePrefix('content/')).toBe('/content');
    expect(normalizePrefix(undefined)).toBe('/api');
  });

  it('matches plan patterns without regard to case, through the reader given', () => {
    const allows = compileEndpoints(['POST /Content/Comments', 'GET /api/v1/articles*'], (path) => configuredApiPath('/content', path));
    expect(allows('POST', '/api/comments')).toBe(true);
    expect(allows('GET', '/api/v1/articles/abc')).toBe(true);
    expect(allows('POST', '/api/authors')).toBe(false);
  });
});
