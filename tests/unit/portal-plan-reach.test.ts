import { includedFeatures, reaches, reachesRoute, routeKind } from '../../src/plugins/api-suite/portal/src/plans/reach';

/** The portal reads a plan's resolved endpoints with the access middleware's own matcher: the three seeded plans. */
const free = { endpoints: ['GET /api/v1/articles*'] };
const pro = {
  endpoints: ['GET /api/v1/articles*', '* /api/v1/articles*', '* /api/v1/scrapers*', 'POST /api/v1/webhooks', '* /api/webhooks/*'],
};
const enterprise = { endpoints: ['* *'] };

/** What the demo's page says it sells: the versioned articles, then its own types (two of them here). */
const sold = [
  { label: 'articles', path: '/api/v1/articles', write: 'POST' as const },
  { label: 'articles', path: '/api/articles', write: 'POST' as const },
  { label: 'about', path: '/api/about', write: 'PUT' as const },
];

it('says which features each seeded plan reaches', () => {
  expect(includedFeatures(free, sold)).toEqual(['Reading articles']);
  expect(includedFeatures(pro, sold)).toEqual(['Reading articles', 'Writing articles', 'Webhooks', 'Scrapers']);
  expect(includedFeatures(enterprise, sold)).toEqual([
    'Reading articles, about',
    'Writing articles, about',
    'Webhooks',
    'Scrapers',
    'Every other API route',
  ]);
});

it("names a fresh site's own types, read and written, as its default plans reach them", () => {
  const site = [
    { label: 'chefs', path: '/api/chefs', write: 'POST' as const },
    { label: 'recipes', path: '/api/recipes', write: 'POST' as const },
  ];
  const reading = { endpoints: ['GET /api/chefs', 'GET /api/chefs/*', 'GET /api/recipes', 'GET /api/recipes/*'] };
  expect(includedFeatures(reading, site)).toEqual(['Reading chefs, recipes']);
  const all = { endpoints: ['* /api/chefs', '* /api/chefs/*', '* /api/recipes', '* /api/recipes/*', '* /api/webhooks/*'] };
  expect(includedFeatures(all, site)).toEqual(['Reading chefs, recipes', 'Writing chefs, recipes', 'Webhooks']);
  expect(includedFeatures({ endpoints: [] }, site)).toEqual([]);
});

it('finds a feature reached by one exact or prefixed route', () => {
  expect(reaches(free, 'webhooks')).toBe(false);
  expect(reaches({ endpoints: ['GET /api/v1/scrapers*'] }, 'scrapers')).toBe(true);
  expect(reaches({ endpoints: ['GET /api/webhooks/subscriptions'] }, 'webhooks')).toBe(true);
  expect(reaches({ endpoints: ['POST /api/v1/webhooks'] }, 'webhooks')).toBe(false);
});

it("marks the reference's operations as the access middleware treats them: open, account, or the plan's", () => {
  expect(routeKind(['post', '/api/v1/oauth/token'])).toBe('open');
  expect(routeKind(['get', '/api/v1/openapi.d.ts'])).toBe('open');
  expect(routeKind(['get', '/api/v1/keys'])).toBe('account');
  expect(routeKind(['delete', '/api/v1/keys/{id}'])).toBe('account');
  expect(routeKind(['get', '/api/webhooks/event-types'])).toBe('account');
  expect(routeKind(['post', '/api/webhooks/event-types'])).toBe('plan');
  expect(routeKind(['get', '/api/v1/scrapers/{id}'])).toBe('plan');
  // A template is asked with its parameters filled in, as a request has them.
  expect(reachesRoute(free, ['get', '/api/v1/articles/{id}'])).toBe(true);
  expect(reachesRoute(free, ['post', '/api/v1/articles'])).toBe(false);
  expect(reachesRoute(pro, ['get', '/api/v1/scrapers/{id}/runs/{runId}'])).toBe(true);
  expect(reachesRoute({ endpoints: ['GET /api/v1/scrapers'] }, ['get', '/api/v1/scrapers/{id}'])).toBe(false);
});
