import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { startApp, type TestApp } from '../helpers/app';
import { APP_DIR } from '../helpers/paths';
import { adminSession } from '../helpers/users';
import { eventually } from '../helpers/wait';

/**
 * The README's "Your first hour", step by step, with what each step says the newcomer sees: the
 * demo consumer signs in, makes a key and calls the API with it, adds an endpoint with a payload
 * filter on `npm run playground` (the real script, restarted with the signing secret as the step
 * says), an editor publishes an article and saves a draft (the playground prints the published
 * one's delivery, its signature verified, and nothing for the draft), and a scraper reads the
 * playground's shop. A step that stops working fails here before a newcomer meets it.
 */
const DEMO = { identifier: 'demo@example.com', password: 'demo-password-1' };
let app: TestApp;
let playground: Playground | undefined;
let jwt = '';
let apiKey = '';
let secret = '';

interface Playground {
  url: string;
  lines: string[];
  stop(): Promise<void>;
}

/** `npm run playground`'s script on a port of its own, its printed lines kept. */
async function startPlayground(port = 20_000 + Math.floor(Math.random() * 20_000), env: Record<string, string> = {}): Promise<Playground> {
  const child: ChildProcess = spawn(process.execPath, [path.join(APP_DIR, 'scripts', 'playground.js')], {
    env: { ...process.env, ...env, PLAYGROUND_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let pending = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    lines.push(...parts);
  });
  child.stderr?.on('data', (chunk: Buffer) => lines.push(`stderr: ${chunk.toString('utf8')}`));
  await eventually(() => (lines.some((line) => line.includes('listening on')) ? true : undefined), 10_000, 'the playground listening');
  return {
    url: `http://127.0.0.1:${port}`,
    lines,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

beforeAll(async () => {
  app = await startApp({ env: { SEED_DEMO_DATA: 'true' } });
  playground = await startPlayground();
}, 120_000);

afterAll(async () => {
  await playground?.stop();
  await app?.close();
});

it('2. signs in as the demo consumer, on the pro plan', async () => {
  const signedIn = await app.request().post('/api/auth/local').send(DEMO);
  expect(signedIn.status).toBe(200);
  jwt = signedIn.body.jwt as string;
  const usage = await app.request().get('/api/v1/usage').set('Authorization', `Bearer ${jwt}`);
  expect(usage.status).toBe(200);
  expect(usage.body.data.plan.name).toBe('pro');
});

it('3. makes a key with the read scope, shown once', async () => {
  const created = await app
    .request()
    .post('/api/v1/keys')
    .set('Authorization', `Bearer ${jwt}`)
    .send({ name: 'my first key', scopes: ['read'] });
  expect([created.status, created.body.error]).toEqual([201, undefined]);
  apiKey = created.body.data.key as string;
  expect(apiKey).toEqual(expect.any(String));
});

it('4. calls the API with the key: the newest article and the rate-limit headers', async () => {
  const answer = await app.request().get('/api/v1/articles?limit=1').set('X-API-Key', apiKey);
  expect(answer.status).toBe(200);
  expect(answer.body.data).toHaveLength(1);
  expect(answer.headers['x-ratelimit-limit']).toEqual(expect.any(String));
  expect(answer.headers['x-ratelimit-remaining']).toEqual(expect.any(String));
});

it('5. adds an endpoint on the playground with a payload filter, and restarts the playground with its secret', async () => {
  const created = await app
    .request()
    .post('/api/webhooks/subscriptions')
    .set('Authorization', `Bearer ${jwt}`)
    .send({ endpoint_url: `${playground?.url}/hooks`, events: ['article.created', 'article.updated'], filter: { status: 'published' } });
  expect([created.status, created.body.error]).toEqual([201, undefined]);
  // Adding it sends a test event, which the playground prints before it knows the secret.
  await eventually(
    () => (playground?.lines.some((line) => line.includes('webhook.test, not checked')) ? true : undefined),
    10_000,
    () => `the test event printed: ${playground?.lines.join('\n')}`
  );
  secret = created.body.secret as string;
  // The README's restart with WEBHOOK_SECRET, on the port the endpoint names.
  const port = Number(new URL(playground?.url as string).port);
  await playground?.stop();
  playground = await startPlayground(port, { WEBHOOK_SECRET: secret });
}, 30_000);

it('6. an editor publishes an article: the playground prints its delivery, verified; a draft sends nothing', async () => {
  const { token } = await adminSession(app);
  const write = (title: string, status: string) =>
    app
      .request()
      .post('/content-manager/collection-types/api::article.article')
      .set('Authorization', `Bearer ${token}`)
      .send({ title, excerpt: 'A first article.', body: 'Written during the walkthrough.', status });
  expect((await write('A draft nobody is told of', 'draft')).status).toBe(201);
  expect((await write('Hello from the walkthrough', 'published')).status).toBe(201);
  const deliveries = () => (playground?.lines ?? []).filter((line) => line.includes('] delivery '));
  await eventually(
    () => (deliveries().length >= 1 ? true : undefined),
    20_000,
    () => `a delivery printed: ${playground?.lines.join('\n')}`
  );
  const [delivery] = deliveries();
  expect(delivery).toContain('article.created, signature verified');
  expect(playground?.lines.join('\n')).toContain('Hello from the walkthrough');
  // The draft was held back by the filter: one article delivery, beside the test event sent when the endpoint was added.
  const list = await app.request().get('/api/webhooks/subscriptions').set('Authorization', `Bearer ${jwt}`);
  const id = (list.body.data as Array<{ id: string }>)[0].id;
  const sent = await app.request().get(`/api/webhooks/subscriptions/${id}/deliveries`).set('Authorization', `Bearer ${jwt}`);
  expect((sent.body.data as Array<{ event_type: string }>).map((delivery) => delivery.event_type).sort()).toEqual([
    'article.created',
    'webhook.test',
  ]);
  expect(deliveries()).toHaveLength(1);
}, 60_000);

it("7. a scraper reads the playground's shop: 3 items, downloadable as CSV", async () => {
  const as = { Authorization: `Bearer ${jwt}` };
  const scraper = await app
    .request()
    .post('/api/v1/scrapers')
    .set(as)
    .send({
      name: 'Playground shop',
      url: `${playground?.url}/shop`,
      selectors: { item: '.product', fields: { name: '.name', price: '.price', link: 'a.link@href' } },
    });
  expect([scraper.status, scraper.body.error]).toEqual([201, undefined]);
  const id = scraper.body.id as number;
  expect((await app.request().post(`/api/v1/scrapers/${id}/run`).set(as)).status).toBeLessThan(300);
  const run = await eventually(
    async () => {
      const runs = await app.request().get(`/api/v1/scrapers/${id}/runs`).set(as);
      const latest = (runs.body.data as Array<{ id: number; status: string; items_collected: number }>)[0];
      return latest && latest.status !== 'pending' && latest.status !== 'running' ? latest : undefined;
    },
    30_000,
    'the run ended'
  );
  expect(run).toMatchObject({ status: 'completed', items_collected: 3 });
  const csv = await app.request().get(`/api/v1/scrapers/${id}/results?run_id=${run.id}&format=csv`).set(as);
  expect(csv.status).toBe(200);
  const rows = csv.text.trim().split('\n');
  expect(rows).toHaveLength(4);
  expect(csv.text).toContain('Green teapot');
}, 60_000);
