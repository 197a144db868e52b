import { includedFeatures, reaches } from '../../src/plugins/api-suite/portal/src/plans/reach';

/** The portal reads a plan's resolved endpoints with the access middleware's own matcher: the three seeded plans. */
const free = { endpoints: ['GET /api/v1/articles*'] };
const pro = {
  endpoints: ['GET /api/v1/articles*', '* /api/v1/articles*', '* /api/v1/scrapers*', 'POST /api/v1/webhooks', '* /api/webhooks/*'],
};
const enterprise = { endpoints: ['* *'] };

it('says which features each seeded plan reaches', () => {
  expect(includedFeatures(free)).toEqual(['Reading articles']);
  expect(includedFeatures(pro)).toEqual(['Reading articles', 'Writing articles', 'Webhooks', 'Scrapers']);
  expect(includedFeatures(enterprise)).toEqual(['Reading articles', 'Writing articles', 'Webhooks', 'Scrapers', 'Every other API route']);
});

it('finds a feature reached by one exact or prefixed route', () => {
  expect(reaches(free, 'webhooks')).toBe(false);
  expect(reaches({ endpoints: ['GET /api/v1/scrapers*'] }, 'scrapers')).toBe(true);
  expect(reaches({ endpoints: ['GET /api/webhooks/subscriptions'] }, 'webhooks')).toBe(true);
  expect(reaches({ endpoints: ['POST /api/v1/webhooks'] }, 'webhooks')).toBe(false);
});
