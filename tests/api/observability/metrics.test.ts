import Transport from 'winston-transport';
import { startApp, type TestApp } from '../../helpers/app';
import { awayFromMinuteEdge, issueKey, type IssuedKey } from '../../helpers/keys';
import { registerUser, type TestUser } from '../../helpers/users';

/**
 * `GET /metrics` (docs/operations.md#metrics) behind METRICS_TOKEN, counters that move with real
 * requests, labels that never name a consumer, and request ids on answers and JSON log lines.
 */
const TOKEN = 'metrics-token-for-tests-0123456789';
let app: TestApp;
let carol: TestUser;
let key: IssuedKey;
const lines: string[] = [];

/** Every finished log line, as the logger's format left it. */
class Collect extends Transport {
  log(info: Record<string | symbol, unknown>, done: () => void): void {
    lines.push(String(info[Symbol.for('message')]));
    done();
  }
}

beforeAll(async () => {
  app = await startApp({ env: { METRICS_TOKEN: TOKEN, LOG_FORMAT: 'json' } });
  // From here on every line, the request log's included, goes to the test rather than the console.
  const logger = app.strapi.log as unknown as { clear(): void; add(transport: Transport): void; level: string };
  logger.clear();
  logger.add(new Collect());
  logger.level = 'http';
  carol = await registerUser(app);
  key = await issueKey(app, carol);
});

afterAll(async () => {
  await app?.close();
});

async function scrape(): Promise<string> {
  const response = await app.request().get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
  expect(response.status).toBe(200);
  return response.text;
}

/** The value of one series, or 0 when it has not been written yet. */
function valueOf(exposition: string, series: string): number {
  const line = exposition.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

const requests = (plan: string, decision: string) => `api_suite_api_requests_total{plan="${plan}",decision="${decision}"}`;

describe('GET /metrics', () => {
  it('refuses a missing or wrong token with 401', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const request = app.request().get('/metrics');
      const response = await (authorization ? request.set('Authorization', authorization) : request);
      expect(response.status).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(response.body).toEqual({ error: { code: 'unauthorized', message: 'Send Authorization: Bearer <METRICS_TOKEN>' } });
    }
  });

  it("answers Prometheus' text format with Node's process metrics and the plugin's", async () => {
    const response = await app.request().get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(response.text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    expect(response.text).toContain('# TYPE api_suite_api_requests_total counter');
    expect(response.text).toMatch(/^api_suite_queue_jobs\{queue="webhook-deliveries",state="waiting"\} \d+$/m);
  });

  it('counts API requests by plan and decision as they happen', async () => {
    await awayFromMinuteEdge();
    const before = await scrape();
    const asKey = () => app.request().get('/api/v1/articles').set('X-API-Key', key.key);
    // The free plan: 10 requests a minute on the public routes only.
    for (let i = 0; i < 10; i += 1) expect((await asKey()).status).toBe(200);
    expect((await asKey()).status).toBe(429);
    expect((await app.request().post('/api/v1/scrapers').set('X-API-Key', key.key).send({})).status).toBe(403);
    expect(
      (
        await app
          .request()
          .get('/api/v1/articles')
          .set('X-API-Key', `sk_${'x'.repeat(48)}`)
      ).status
    ).toBe(401);
    const after = await scrape();
    const moved = (series: string) => valueOf(after, series) - valueOf(before, series);
    expect(moved(requests('free', 'allowed'))).toBe(10);
    expect(moved(requests('free', 'rate_limited'))).toBe(1);
    expect(moved(requests('free', 'endpoint_not_in_plan'))).toBe(1);
    expect(moved(requests('none', 'invalid_api_key'))).toBe(1);
  });

  it('never labels a series with a consumer, a key, an e-mail, a URL or an id', async () => {
    const exposition = await scrape();
    const values = [...exposition.matchAll(/^api_suite_[a-z_]+\{([^}]*)\}/gm)].flatMap((match) =>
      [...match[1].matchAll(/="([^"]*)"/g)].map((label) => label[1])
    );
    expect(values.length).toBeGreaterThan(0);
    const secrets = [carol.consumer_id, carol.email, key.key_prefix, key.client_id, String(carol.id), String(key.id)];
    for (const value of values) {
      expect(secrets).not.toContain(value);
      expect(value).not.toMatch(/[/@:]|sk_|^\d+$|^[0-9a-f-]{36}$/);
    }
  });
});

describe('request ids', () => {
  it('gives every answer a new X-Request-Id, and keeps a safe one the caller sent', async () => {
    const fresh = await app.request().get('/api/v1/plans');
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const kept = await app.request().get('/api/v1/plans').set('X-Request-Id', 'lb-2f9a.trace_01');
    expect(kept.headers['x-request-id']).toBe('lb-2f9a.trace_01');
  });

  it('replaces an id that is too short, too long, has other characters, or is an API key', async () => {
    for (const sent of ['short', 'x'.repeat(129), 'has space in it', 'line\tbreak-abc', key.key]) {
      const response = await app.request().get('/api/v1/plans').set('X-Request-Id', sent);
      expect(response.headers['x-request-id']).not.toBe(sent);
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('is on refusals, unknown routes and operator routes too', async () => {
    const answers = [
      await app.request().get('/api/v1/articles').set('X-API-Key', 'sk_nope'),
      await app.request().get('/api/no-such-route'),
      await app.request().post('/api/v1/keys').set('Authorization', `Bearer ${carol.jwt}`).send({ name: 7 }),
      await app.request().get('/metrics'),
      await app.request().get('/_ready'),
    ];
    expect(answers.map((response) => response.status)).toEqual([401, 404, 400, 401, 200]);
    for (const response of answers) expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("is in the request's log lines, each one JSON object with LOG_FORMAT=json", async () => {
    const id = `req-${Date.now()}-abcdef`;
    await app
      .request()
      .get('/api/v1/articles?api_key=' + key.key)
      .set('X-Request-Id', id);
    const line = lines.find((candidate) => candidate.includes(id));
    expect(line).toBeDefined();
    const parsed = JSON.parse(line as string) as Record<string, unknown>;
    expect(parsed).toMatchObject({ level: 'http', request_id: id });
    expect(parsed.message).toMatch(/^GET \/api\/v1\/articles\?api_key=\[redacted\] \(\d+ ms\) (200|429)$/);
    expect(Date.parse(parsed.timestamp as string)).not.toBeNaN();
    expect(lines.join('\n')).not.toContain(key.key);
    for (const written of lines) expect(() => JSON.parse(written)).not.toThrow();
  });
});
