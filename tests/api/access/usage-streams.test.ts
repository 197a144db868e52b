import { startApp, type TestApp } from '../../helpers/app';
import { issueKey, type IssuedKey } from '../../helpers/keys';
import { makeAdministrator, registerUser, type TestUser } from '../../helpers/users';
import { eventually } from '../../helpers/wait';

/**
 * `GET /api/v1/usage/stream` held open: at most five streams a consumer (429 too_many_streams
 * beyond, the count given back when a stream closes).
 */
let app: TestApp;
let alice: TestUser;
let aliceKey: IssuedKey;
const open: AbortController[] = [];

beforeAll(async () => {
  app = await startApp();
  alice = await registerUser(app);
  aliceKey = await issueKey(app, alice);
});

afterAll(async () => {
  for (const controller of open) controller.abort();
  await app?.close();
});

/** Opens a stream with `key` and, when it is answered 200, reads its first bytes; the caller aborts it. */
async function openStream(key: string): Promise<{ status: number; body?: unknown; close: () => void }> {
  const controller = new AbortController();
  const response = await fetch(`${app.url}/api/v1/usage/stream`, { headers: { 'X-API-Key': key }, signal: controller.signal });
  if (response.status !== 200) return { status: response.status, body: await response.json(), close: () => undefined };
  open.push(controller);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  await reader.read();
  return { status: 200, close: () => controller.abort() };
}

describe('streams a consumer may hold open', () => {
  it('refuses a sixth stream with 429 too_many_streams, whichever key it is opened with', async () => {
    const otherKey = await issueKey(app, alice);
    const streams = [];
    for (let i = 0; i < 5; i += 1) streams.push(await openStream(i % 2 === 0 ? aliceKey.key : otherKey.key));
    expect(streams.map((stream) => stream.status)).toEqual([200, 200, 200, 200, 200]);
    const refused = await openStream(otherKey.key);
    expect(refused).toMatchObject({
      status: 429,
      body: { error: { code: 'too_many_streams', message: expect.stringContaining('5'), details: { limit: 5 } } },
    });
    // Another consumer is not held to alice's count.
    const bob = await registerUser(app);
    expect((await openStream((await issueKey(app, bob)).key)).status).toBe(200);
    for (const stream of streams) stream.close();
  });

  it('gives the count back when a stream closes', async () => {
    const streams = [];
    // The streams the last test closed are given back as the server sees them go.
    for (let i = 0; i < 5; i += 1)
      streams.push(await eventually(async () => ((await openStream(aliceKey.key)).status === 200 ? true : undefined)));
    expect((await openStream(aliceKey.key)).status).toBe(429);
    open.splice(0).forEach((controller) => controller.abort());
    expect(await eventually(async () => ((await openStream(aliceKey.key)).status === 200 ? true : undefined))).toBe(true);
    open.splice(0).forEach((controller) => controller.abort());
  });

  it('does not hold administrators to it', async () => {
    const admin = await makeAdministrator(app, await registerUser(app));
    const key = await issueKey(app, admin);
    const statuses = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await openStream(key.key)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    open.splice(0).forEach((controller) => controller.abort());
  });
});
