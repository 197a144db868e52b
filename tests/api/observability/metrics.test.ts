import Transport from 'winston-transport';
import { startApp, type TestApp } from '../../helpers/app';
import { seriesValue } from '../../helpers/metrics';
import { awayFromMinuteEdge, issueKey, UNKNOWN_KEY, type IssuedKey } from '../../helpers/keys';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { adminSession, makeAdministrator, registerUser, type TestUser } from '../../helpers/users';
import { eventually } from '../../helpers/wait';
import { orderData, subscribe, waitForPosts } from '../../helpers/webhooks';

/**
 * `GET /metrics` (docs/operations.md#metrics) behind METRICS_TOKEN, counters that move with real
 * requests, labels that never name a consumer, and request ids on answers and JSON log lines.
 */
const TOKEN = 'metrics-token-for-tests-0123456789';
let app: TestApp;
let carol: TestUser;
let key: IssuedKey;
let receiver: Receiver;
const lines: string[] = [];

/** Every finished log line, as the logger's format left it. */
class Collect extends Transport {
  log(info: Record<string | symbol, unknown>, done: () => void): void {
    lines.push(String(info[Symbol.for('message')]));
    done();
  }
}

beforeAll(async () => {
  receiver = await startReceiver((request) => (request.path.startsWith('/down') ? { status: 500 } : { status: 200 }));
  // No retries: an attempt that fails settles the delivery as failed.
  app = await startApp({ env: { METRICS_TOKEN: TOKEN, LOG_FORMAT: 'json', WEBHOOK_RETRY_SCHEDULE: '' } });
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
  await receiver?.close();
});

async function scrape(): Promise<string> {
  const response = await app.request().get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
  expect(response.status).toBe(200);
  return response.text;
}

const valueOf = seriesValue;

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
    expect((await app.request().get('/api/v1/articles').set('X-API-Key', UNKNOWN_KEY)).status).toBe(401);
    const after = await scrape();
    const moved = (series: string) => valueOf(after, series) - valueOf(before, series);
    expect(moved(requests('free', 'allowed'))).toBe(10);
    expect(moved(requests('free', 'rate_limited'))).toBe(1);
    expect(moved(requests('free', 'endpoint_not_in_plan'))).toBe(1);
    expect(moved(requests('none', 'invalid_api_key'))).toBe(1);
  });

  it('counts delivery attempts by event type and outcome, their duration and the lag from publishing', async () => {
    const dave = await registerUser(app, { plan: 'enterprise' });
    const admin = await makeAdministrator(app, await registerUser(app));
    await subscribe(app, dave, { endpoint_url: `${receiver.url}/up`, events: ['order.created'] });
    await subscribe(app, dave, { endpoint_url: `${receiver.url}/down`, events: ['order.created'] });
    // Each new subscription is sent a test event: counted, under its own event type, before `before`.
    const tests = (exposition: string) =>
      ['succeeded', 'failed'].reduce(
        (sum, outcome) => sum + valueOf(exposition, `api_suite_webhook_attempts_total{event_type="webhook.test",outcome="${outcome}"}`),
        0
      );
    const before = await eventually(
      async () => {
        const exposition = await scrape();
        return tests(exposition) === 2 ? exposition : undefined;
      },
      10_000,
      'the test events to be counted'
    );
    const published = await app
      .request()
      .post('/api/webhooks/events')
      .set('Authorization', `Bearer ${admin.jwt}`)
      .send({ type: 'order.created', payload: orderData(1) });
    expect(published.status).toBe(202);
    await waitForPosts(receiver, 2, (request) => request.headers['x-webhook-event'] === 'order.created');
    const attempts = (outcome: string) => `api_suite_webhook_attempts_total{event_type="order.created",outcome="${outcome}"}`;
    const after = await eventually(
      async () => {
        const exposition = await scrape();
        const settled = ['succeeded', 'failed'].map(
          (outcome) => valueOf(exposition, attempts(outcome)) - valueOf(before, attempts(outcome))
        );
        return settled.every((count) => count >= 1) ? exposition : undefined;
      },
      10_000,
      'both attempts to be counted'
    );
    const moved = (series: string) => valueOf(after, series) - valueOf(before, series);
    expect(moved(attempts('succeeded'))).toBe(1);
    expect(moved('api_suite_webhook_attempt_duration_seconds_count{outcome="succeeded"}')).toBe(1);
    expect(moved('api_suite_webhook_attempt_duration_seconds_count{outcome="failed"}')).toBe(1);
    expect(moved('api_suite_webhook_delivery_lag_seconds_count{event_type="order.created"}')).toBe(1);
    expect(valueOf(after, 'api_suite_webhook_delivery_lag_seconds_sum{event_type="order.created"}')).toBeLessThan(60);
    expect(after).toMatch(/^api_suite_webhook_backlog\{status="pending"\} \d+$/m);
    expect(after).toMatch(/^api_suite_webhook_saturated_endpoints 0$/m);
    expect(after).toMatch(/^api_suite_webhook_requests\{state="open"\} \d+$/m);

    // The admin panel's Overview reads the same registry: this process's counts since it started
    // (under an hour ago), here the two test events and the event, each once to /up and once to /down.
    const session = await adminSession(app);
    const activity = await eventually(
      async () => {
        const overview = await app.request().get('/api-suite/overview').set('Authorization', `Bearer ${session.token}`);
        expect(overview.status).toBe(200);
        const read = overview.body.data.activity as { backlog: Record<string, number> };
        return read.backlog.pending === 0 ? read : undefined;
      },
      10_000,
      'the backlog to be written back as empty'
    );
    expect(activity).toEqual({
      since: expect.any(String),
      deliveries: { succeeded: 2, failed: 2 },
      requests: expect.objectContaining({ allowed: expect.any(Number), rate_limited: 1, endpoint_not_in_plan: 1, invalid_api_key: 1 }),
      backlog: { pending: 0, retrying: 0 },
      saturatedEndpoints: 0,
    });
  });

  it('never labels a series with a consumer, a key, an e-mail, a URL or an id', async () => {
    const exposition = await scrape();
    const values = [...exposition.matchAll(/^api_suite_[a-z_]+\{([^}]*)\}/gm)].flatMap((match) =>
      // `le` is a histogram's bucket bound, not a label of ours.
      [...match[1].matchAll(/(\w+)="([^"]*)"/g)].filter((label) => label[1] !== 'le').map((label) => label[2])
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
