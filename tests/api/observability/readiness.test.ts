import { startApp, type TestApp } from '../../helpers/app';
import { redisUrl, requireEnv, usingMysql, usingServer } from '../../helpers/services';
import { startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy';
import { eventually } from '../../helpers/wait';

/**
 * `GET /_ready` (docs/operations.md#readiness): 200 while the database and Redis (when configured)
 * answer within a second, 503 naming what failed otherwise. On PostgreSQL or MySQL with Redis the app
 * reaches both through TCP proxies, which the test cuts to take them away from this app alone.
 */
let app: TestApp;
let database: TcpProxy | undefined;
let redis: TcpProxy | undefined;

beforeAll(async () => {
  if (usingServer) {
    const url = new URL(requireEnv('DATABASE_URL'));
    database = await startTcpProxy({ host: url.hostname, port: Number(url.port || (usingMysql ? 3306 : 5432)) });
  }
  let env: Record<string, string> = {};
  if (redisUrl) {
    const url = new URL(redisUrl);
    redis = await startTcpProxy({ host: url.hostname, port: Number(url.port || 6379) });
    url.hostname = '127.0.0.1';
    url.port = String(redis.port);
    // A web process, as load balancers check: with worker processes' BullMQ workers on the cut
    // connections, closing the app waits for them (see docs/operations.md#readiness).
    env = { REDIS_URL: url.toString(), WEBHOOK_WORKER: 'false', SCRAPER_WORKER: 'false' };
  }
  app = await startApp({ env, databaseVia: database && { host: '127.0.0.1', port: database.port } });
});

afterAll(async () => {
  database?.restore();
  redis?.restore();
  await app?.close();
  await database?.close();
  await redis?.close();
});

describe('GET /_ready', () => {
  it('answers 200 with the state of each dependency, uncached, without credentials', async () => {
    const response = await app.request().get('/_ready');
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toEqual({ status: 'ready', database: 'up', redis: redisUrl ? 'up' : 'not_configured' });
  });

  it('leaves liveness to Strapi: /_health answers 204', async () => {
    expect((await app.request().get('/_health')).status).toBe(204);
  });

  it('is not /metrics: without METRICS_TOKEN that route does not exist (404)', async () => {
    expect((await app.request().get('/metrics')).status).toBe(404);
    expect((await app.request().get('/metrics').set('Authorization', 'Bearer anything-at-all-here')).status).toBe(404);
  });
});

// Registered only on PostgreSQL and MySQL: SQLite is a file in the process, which cannot go away alone.
if (usingServer)
  describe('with the database taken away', () => {
    it('answers 503 naming the database when its connections are refused, and 200 again once it is back', async () => {
      database!.cut('refuse');
      const down = await app.request().get('/_ready');
      expect(down.status).toBe(503);
      expect(down.body).toEqual({ status: 'unavailable', database: 'down', redis: redisUrl ? 'up' : 'not_configured' });
      database!.restore();
      await expectReadyAgain();
    });

    it('answers 503 within about the timeout when the database hangs', async () => {
      database!.cut('hang');
      const started = Date.now();
      const down = await app.request().get('/_ready');
      const tookMs = Date.now() - started;
      expect(down.status).toBe(503);
      expect(down.body.database).toBe('down');
      expect(tookMs).toBeGreaterThanOrEqual(900);
      expect(tookMs).toBeLessThan(5_000);
      database!.restore();
      await expectReadyAgain();
    });
  });

// Registered only with REDIS_URL: without it there is no Redis to lose.
if (redisUrl)
  describe('with Redis taken away', () => {
    it('answers 503 naming Redis while it is gone, and 200 again once it is back', async () => {
      redis!.cut('refuse');
      const down = await app.request().get('/_ready');
      expect(down.status).toBe(503);
      expect(down.body).toEqual({ status: 'unavailable', database: 'up', redis: 'down' });
      redis!.restore();
      await expectReadyAgain();
    });
  });

/** Connections cut by the proxy are re-made by the pool and by ioredis on their own. */
async function expectReadyAgain(): Promise<void> {
  await eventually(
    async () => ((await app.request().get('/_ready')).status === 200 ? true : undefined),
    20_000,
    '/_ready to answer 200 again'
  );
}
