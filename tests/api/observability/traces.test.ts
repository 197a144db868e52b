import { randomBytes } from 'node:crypto';
import { startApp, type TestApp } from '../../helpers/app';
import { startInstance, type Instance } from '../../helpers/instance';
import { issueKey, UNKNOWN_KEY } from '../../helpers/keys';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../helpers/otlp';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { redisUrl } from '../../helpers/services';
import { startSite, type TestSite } from '../../helpers/site';
import { makeAdministrator, registerUser, type TestUser } from '../../helpers/users';
import { orderData, posts, subscribe } from '../../helpers/webhooks';
import { eventually } from '../../helpers/wait';

/**
 * Traces (docs/operations.md#traces): app processes started with OTEL_EXPORTER_OTLP_ENDPOINT
 * export spans to a local OTLP/HTTP JSON receiver. A publish carries the caller's traceparent into
 * its request span; its delivery's first attempt (refused by the endpoint) is a span of that trace
 * in the first process; that process then stops, and the retry, made by a second process after
 * the restart (from the job in Redis with BullMQ, from the database with the in-process driver),
 * joins the same trace. The test process itself runs without tracing and sends nothing
 * (WEBHOOK_WORKER=false).
 */
const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;

let app: TestApp;
let otlp: OtlpReceiver;
let receiver: Receiver;
let site: TestSite;
let admin: TestUser;
const instances: Instance[] = [];

function tracingEnv(service: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_SERVICE_NAME: service,
    // Export within a fifth of a second rather than the default five.
    OTEL_BSP_SCHEDULE_DELAY: '200',
    WEBHOOK_WORKER: 'true',
    SCRAPER_WORKER: 'true',
    WEBHOOK_RETRY_SCHEDULE: '2',
    ...extra,
  };
}

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  let orders = 0;
  // The order's first attempt is refused, so that a retry remains for the second process.
  receiver = await startReceiver((request) => ({
    status: request.headers['x-webhook-event'] === 'order.created' && ++orders === 1 ? 500 : 200,
  }));
  site = await startSite();
  app = await startApp({ env: { WEBHOOK_WORKER: 'false', SCRAPER_WORKER: 'false', WEBHOOK_RETRY_SCHEDULE: '2' } });
  admin = await makeAdministrator(app, await registerUser(app));
}, 120_000);

// Each test's processes stop with it: with BullMQ, a process left running would take the next test's jobs.
afterEach(async () => {
  for (const instance of instances.splice(0)) await instance.stop();
});

afterAll(async () => {
  await app?.close();
  await receiver?.close();
  await otlp?.close();
  await site?.close();
});

it(`follows a publish to each of its delivery attempts, across processes and a restart (${redisUrl ? 'BullMQ' : 'in-process'} driver)`, async () => {
  await subscribe(app, admin, { endpoint_url: `${receiver.url}/traced`, events: ['order.created'] });
  const first = await startInstance(app, tracingEnv('api-first'));
  instances.push(first);

  const traceId = randomBytes(16).toString('hex');
  const callerSpanId = randomBytes(8).toString('hex');
  const published = await first
    .request()
    .post('/api/webhooks/events')
    .set('Authorization', `Bearer ${admin.jwt}`)
    .set('traceparent', `00-${traceId}-${callerSpanId}-01`)
    .send({ events: [{ type: 'order.created', payload: orderData('traced-1') }] });
  expect(published.status).toBe(202);

  const inTrace = () => otlp.spans.filter((span) => span.traceId === traceId);
  const attemptSpan = (attempt: number) =>
    inTrace().find((span) => span.name === 'webhooks.deliver' && span.attributes['api_suite.attempt'] === attempt);
  await eventually(async () => attemptSpan(1), 30_000, 'the first attempt exported');
  // Stopped cleanly, the process exports what it still holds; its retry is left to the next process.
  await first.stop();
  expect(orderPosts()).toHaveLength(1);

  const second = await startInstance(app, tracingEnv('api-second', { WEBHOOK_SEND_TRACEPARENT: 'true' }));
  instances.push(second);
  await eventually(async () => attemptSpan(2), 60_000, 'the retry exported by the second process');

  const spans = inTrace();
  // The request: a server span, child of the caller's span, named after its route.
  const request = only(spans, (span) => span.kind === SERVER && span.service === 'api-first');
  expect(request.parentSpanId).toBe(callerSpanId);
  expect(request.name).toBe('POST /api/webhooks/events');
  expect(request.attributes['http.route']).toBe('/api/webhooks/events');
  expect(request.attributes['http.response.status_code']).toBe(202);
  expect(request.attributes['api_suite.request_id']).toBe(published.headers['x-request-id']);

  // The publish, inside the request.
  const publish = only(spans, (span) => span.name === 'webhooks.publish');
  expect(publish.kind).toBe(PRODUCER);
  expect(publish.attributes['api_suite.event_types']).toEqual(['order.created']);
  expect(publish.attributes['api_suite.deliveries']).toBe(1);
  expect(isBelow(spans, publish, request)).toBe(true);

  // Both attempts are children of the publish, each made by its own process.
  const [attempt1, attempt2] = [attemptSpan(1) as ReceivedSpan, attemptSpan(2) as ReceivedSpan];
  for (const attempt of [attempt1, attempt2]) {
    expect(attempt.kind).toBe(CONSUMER);
    expect(attempt.parentSpanId).toBe(publish.spanId);
    expect(attempt.attributes['api_suite.event_type']).toBe('order.created');
  }
  expect(attempt1.service).toBe('api-first');
  expect(attempt1.attributes['http.response.status_code']).toBe(500);
  expect(attempt1.status.code).toBe(2);
  expect(attempt2.service).toBe('api-second');
  expect(attempt2.attributes['http.response.status_code']).toBe(200);
  expect(attempt1.attributes['api_suite.delivery_id']).toBe(attempt2.attributes['api_suite.delivery_id']);

  // Each attempt's request, traced by the undici instrumentation, is its child.
  for (const attempt of [attempt1, attempt2]) {
    const outbound = only(spans, (span) => span.kind === CLIENT && span.parentSpanId === attempt.spanId && span.name === 'POST');
    expect(String(outbound.attributes['url.full'])).toBe(`${receiver.url}/traced`);
    expect(outbound.attributes['http.response.status_code']).toBe(attempt === attempt1 ? 500 : 200);
  }

  // Database queries (knex) inside the request.
  const queries = spans.filter((span) => span.attributes['db.system.name'] !== undefined && span.service === 'api-first');
  expect(queries.length).toBeGreaterThan(0);
  expect(queries.every((span) => span.kind === CLIENT && typeof span.attributes['db.query.text'] === 'string')).toBe(true);
  expect(queries.some((span) => span.attributes['db.operation.name'] === 'INSERT' && isBelow(spans, span, publish))).toBe(true);
  if (redisUrl) {
    // The delivery's job written to Redis by ioredis, inside the publish.
    const redis = spans.filter((span) => span.attributes['db.system'] === 'redis' || span.attributes['db.system.name'] === 'redis');
    expect(redis.some((span) => isBelow(spans, span, publish))).toBe(true);
  }

  // A receiver is handed the trace context only where the operator turned it on (the second process).
  const [sent1, sent2] = orderPosts();
  expect(sent1.headers.traceparent).toBeUndefined();
  expect(String(sent2.headers.traceparent)).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
}, 180_000);

it('traces the key decision of an API request, and leaves probes untraced', async () => {
  const instance = await startInstance(app, tracingEnv('api-keys'));
  instances.push(instance);
  const consumer = await registerUser(app);
  const key = await issueKey(app, consumer);
  const traceId = randomBytes(16).toString('hex');

  const answered = await instance
    .request()
    .get('/api/v1/articles?limit=1')
    .set('X-API-Key', key.key)
    .set('traceparent', `00-${traceId}-${randomBytes(8).toString('hex')}-01`);
  expect(answered.status).toBe(200);
  const refused = await instance.request().get('/api/v1/articles?limit=1').set('X-API-Key', UNKNOWN_KEY);
  expect(refused.status).toBe(401);
  expect((await instance.request().get('/_health')).status).toBe(204);

  const decisions = await eventually(
    async () => {
      const found = otlp.spans.filter((span) => span.service === 'api-keys' && span.name === 'api_suite.access');
      return found.length >= 2 ? found : undefined;
    },
    30_000,
    'both key decisions exported'
  );
  const allowed = only(decisions, (span) => span.traceId === traceId);
  expect(allowed.attributes['api_suite.decision']).toBe('allowed');
  expect(typeof allowed.attributes['api_suite.plan']).toBe('string');
  const request = only(otlp.spans, (span) => span.spanId === allowed.parentSpanId);
  expect(request.kind).toBe(SERVER);
  expect(request.name).toBe('GET /api/v1/articles');
  expect(only(decisions, (span) => span.traceId !== traceId).attributes['api_suite.decision']).toBe('invalid_api_key');
  // Nothing the key middleware sees leaves the key in a span.
  expect(JSON.stringify(otlp.spans)).not.toContain(key.key);
  // Probes are not traced.
  expect(otlp.spans.some((span) => span.service === 'api-keys' && String(span.attributes['url.path']) === '/_health')).toBe(false);
}, 120_000);

it('exports no API key, wherever a request put it: the query string, the path, an OAuth client secret', async () => {
  const instance = await startInstance(app, tracingEnv('api-secrets'));
  instances.push(instance);
  const consumer = await registerUser(app);
  const key = await issueKey(app, consumer);
  const redactedKey = `${key.key.slice(0, 8)}[redacted]`;

  const inQuery = await instance.request().get(`/api/v1/articles?limit=1&api_key=${key.key}`);
  expect(inQuery.status).toBe(200);
  const inPath = await instance.request().get(`/api/v1/articles/${key.key}`).set('X-API-Key', key.key);
  expect(inPath.status).toBeLessThan(500);
  const asForm = await instance
    .request()
    .post('/api/v1/oauth/token')
    .type('form')
    .send({ grant_type: 'client_credentials', client_id: key.client_id, client_secret: key.key });
  expect(asForm.status).toBe(200);
  const secretInQuery = await instance
    .request()
    .post(`/api/v1/oauth/token?grant_type=client_credentials&client_id=${key.client_id}&client_secret=${key.key}`);
  expect(secretInQuery.status).toBeLessThan(500);

  const served = await eventually(
    async () => {
      const found = otlp.spans.filter((span) => span.service === 'api-secrets' && span.kind === SERVER);
      return found.length >= 4 ? found : undefined;
    },
    30_000,
    'the four requests exported'
  );
  // Nowhere in what was exported: attributes, names, statuses, events.
  expect(JSON.stringify(otlp.spans.filter((span) => span.service === 'api-secrets'))).not.toContain(key.key);
  // What is left still tells the requests apart: the parameter's name, the key's prefix.
  const query = only(served, (span) => span.attributes['url.path'] === '/api/v1/articles');
  expect(query.attributes['url.query']).toBe('limit=1&api_key=[redacted]');
  const path = only(served, (span) => String(span.attributes['url.path']).startsWith('/api/v1/articles/'));
  expect(path.attributes['url.path']).toBe(`/api/v1/articles/${redactedKey}`);
  const token = only(served, (span) => span.attributes['url.path'] === '/api/v1/oauth/token' && span.attributes['url.query'] !== undefined);
  expect(token.attributes['url.query']).toBe(`grant_type=client_credentials&client_id=${key.client_id}&client_secret=[redacted]`);
}, 120_000);

it("puts a scraper run's page fetches in the run's trace", async () => {
  const instance = await startInstance(app, tracingEnv('api-scrapes'));
  instances.push(instance);
  const consumer = await registerUser(app, { plan: 'enterprise' });
  const created = await instance
    .request()
    .post('/api/v1/scrapers')
    .set('Authorization', `Bearer ${consumer.jwt}`)
    .send({ name: 'traced', url: `${site.url}/page2`, max_pages: 2 });
  expect(created.status).toBe(201);
  const started = await instance.request().post(`/api/v1/scrapers/${created.body.id}/run`).set('Authorization', `Bearer ${consumer.jwt}`);
  expect(started.status).toBe(202);

  const run = await eventually(
    async () => otlp.spans.find((span) => span.name === 'scrapers.run' && span.attributes['api_suite.run_id'] === started.body.run_id),
    60_000,
    'the run exported'
  );
  expect(run.service).toBe('api-scrapes');
  expect(run.attributes['api_suite.status']).toBe('completed');
  const fetched = otlp.spans
    .filter((span) => span.kind === CLIENT && span.parentSpanId === run.spanId && span.name === 'GET')
    .map((span) => String(span.attributes['url.full']));
  const pages = fetched.filter((url) => !url.endsWith('/robots.txt'));
  expect(pages).toContain(`${site.url}/page2`);
  expect(pages).toHaveLength(Number(run.attributes['api_suite.pages_fetched']));
}, 120_000);

function orderPosts() {
  return posts(receiver).filter((request) => request.headers['x-webhook-event'] === 'order.created');
}

function only(spans: ReceivedSpan[], match: (span: ReceivedSpan) => boolean): ReceivedSpan {
  const found = spans.filter(match);
  if (found.length !== 1) throw new Error(`expected one span, found ${found.length}: ${JSON.stringify(found.map((span) => span.name))}`);
  return found[0];
}

/** Whether `span` descends from `ancestor` within `spans`. */
function isBelow(spans: ReceivedSpan[], span: ReceivedSpan, ancestor: ReceivedSpan): boolean {
  const byId = new Map(spans.map((candidate) => [candidate.spanId, candidate]));
  for (let parent = byId.get(span.parentSpanId); parent; parent = byId.get(parent.parentSpanId)) {
    if (parent.spanId === ancestor.spanId) return true;
  }
  return false;
}
