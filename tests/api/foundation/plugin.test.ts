import { stripVTControlCharacters } from 'node:util';
import { startApp, type TestApp } from '../../helpers/app';
import { startInstance } from '../../helpers/instance';
import { adminSession, makeAdministrator, registerUser } from '../../helpers/users';
import { redisUrl } from '../../helpers/services';
import { expectAnswer } from '../../helpers/answers';
import { overview } from '../../../src/plugins/api-suite/server/src/features/platform/validation/responses';

/** The api-suite plugin is loaded: its routes answer, consumers have ids, the administrator role exists. */
let app: TestApp;

beforeAll(async () => {
  app = await startApp();
});

afterAll(async () => {
  await app?.close();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('the api-suite plugin', () => {
  it('answers its health route without credentials', async () => {
    const response = await app.request().get('/api/api-suite/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', database: 'ok', jobs: redisUrl ? 'bullmq' : 'in-process' });
  });

  it('creates the users-permissions administrator role at boot', async () => {
    const role = await app.strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'administrator' } });
    expect(role).toMatchObject({ name: 'Administrator', type: 'administrator' });
  });

  it('gives every user a stable consumer_id that nobody can change', async () => {
    const first = await registerUser(app, { plan: 'enterprise' });
    const second = await registerUser(app, { plan: 'enterprise' });
    expect(first.consumer_id).toMatch(UUID);
    expect(second.consumer_id).toMatch(UUID);
    expect(first.consumer_id).not.toBe(second.consumer_id);

    await app.strapi.db
      .query('plugin::users-permissions.user')
      .update({ where: { id: first.id }, data: { consumer_id: 'hijacked', username: `${first.username}x` } });
    const again = await app.request().get('/api/users/me').set('Authorization', `Bearer ${first.jwt}`);
    expect(again.body).toMatchObject({ consumer_id: first.consumer_id, username: `${first.username}x` });
  });

  it('does not take a consumer_id from the registration body', async () => {
    const forced = '11111111-1111-4111-8111-111111111111';
    const response = await app
      .request()
      .post('/api/auth/local/register')
      .send({ username: 'sneaky', email: 'sneaky@example.test', password: 'Sneaky-pass-1', consumer_id: forced });
    expect(response.status).toBe(400);
    const row = await app.strapi.db.query('plugin::users-permissions.user').findOne({ where: { consumer_id: forced } });
    expect(row).toBeNull();
  });

  it('lets an administrator be made through the admin panel API', async () => {
    const user = await makeAdministrator(app, await registerUser(app));
    const service = app.strapi.plugin('api-suite').service('consumers') as { isAdministrator(id: number): Promise<boolean> };
    expect(await service.isAdministrator(user.id)).toBe(true);
  });

  it('says at boot what the resolved config allows of private addresses: an empty OUTBOUND_ALLOW_PRIVATE is the default', async () => {
    const said = async (env: Record<string, string>) => {
      const instance = await startInstance(app, { LOG_LEVEL: 'info', WEBHOOK_WORKER: 'false', SCRAPER_WORKER: 'false', ...env });
      await instance.stop();
      return stripVTControlCharacters(instance.output())
        .split('\n')
        .filter((line) => line.includes('OUTBOUND_ALLOW_PRIVATE is on'));
    };
    const byDefault = await said({ OUTBOUND_ALLOW_PRIVATE: '' });
    expect(byDefault).toHaveLength(1);
    expect(byDefault[0]).toMatch(/\binfo\b.*OUTBOUND_ALLOW_PRIVATE is on \(the default when NODE_ENV is not production\)/);
    const byHand = await said({ OUTBOUND_ALLOW_PRIVATE: 'true' });
    expect(byHand).toHaveLength(1);
    expect(byHand[0]).toMatch(
      /\bwarn\b.*OUTBOUND_ALLOW_PRIVATE is on \(set to true by OUTBOUND_ALLOW_PRIVATE or by outbound\.allowPrivate/
    );
    expect(await said({ OUTBOUND_ALLOW_PRIVATE: 'false' })).toEqual([]);
  }, 120_000);

  it('serves the admin overview to admin-panel users only', async () => {
    expect((await app.request().get('/api-suite/overview')).status).toBe(401);
    const admin = await adminSession(app);
    const response = await app.request().get('/api-suite/overview').set('Authorization', `Bearer ${admin.token}`);
    expect(response.status).toBe(200);
    expectAnswer(overview, response.body.data);
    expect(response.body.data).toEqual({
      jobs: { driver: redisUrl ? 'bullmq' : 'in-process' },
      outbound: { allowPrivate: true },
      database: { client: process.env.DATABASE_CLIENT ?? 'sqlite' },
      access: {
        routePrefixes: ['/api/v1', '/api/webhooks'],
        sharedKey: false,
        endpointGroups: {
          public: ['GET /api/v1/articles*'],
          private: ['* /api/v1/articles*', '* /api/v1/scrapers*', 'POST /api/v1/webhooks', '* /api/webhooks/*'],
          // The site's own content types' routes, for the @content group.
          content: ['articles', 'authors', 'comments', 'pages', 'products'].flatMap((plural) => [`* /api/${plural}`, `* /api/${plural}/*`]),
        },
      },
      commerce: { currency: 'eur' },
      activity: {
        since: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        deliveries: expect.any(Object),
        requests: expect.any(Object),
        backlog: { pending: 0, retrying: 0 },
        saturatedEndpoints: 0,
      },
    });
  });
});
