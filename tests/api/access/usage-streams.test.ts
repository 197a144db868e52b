import net from 'node:net';
import { once } from 'node:events';
import Transport from 'winston-transport';
import { startApp, type TestApp } from '../../helpers/app';
import { issueKey, type IssuedKey } from '../../helpers/keys';
import { makeAdministrator, registerUser, type TestUser } from '../../helpers/users';
import { eventually, quietFor } from '../../helpers/wait';

/**
 * `GET /api/v1/usage/stream` held open: at most five streams a consumer (429 too_many_streams
 * beyond, the count given back when a stream closes), and a client that resets its connection
 * leaves JSON log lines with LOG_FORMAT=json, not Koa's plain-text stack.
 */
let app: TestApp;
let alice: TestUser;
let aliceKey: IssuedKey;
const lines: string[] = [];
const printed: string[] = [];
const open: AbortController[] = [];

/** Every finished log line, as the logger's format left it. */
class Collect extends Transport {
  log(info: Record<string | symbol, unknown>, done: () => void): void {
    lines.push(String(info[Symbol.for('message')]));
    done();
  }
}

beforeAll(async () => {
  app = await startApp({ env: { LOG_FORMAT: 'json' } });
  const logger = app.strapi.log as unknown as { clear(): void; add(transport: Transport): void; level: string };
  logger.clear();
  logger.add(new Collect());
  logger.level = 'http';
  // Whatever bypasses the logger: Koa's own error handler (app.onerror, which the upload plugin's listener calls too) prints with console.error.
  jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')));
  alice = await registerUser(app);
  aliceKey = await issueKey(app, alice);
});

afterAll(async () => {
  for (const controller of open) controller.abort();
  await app?.close();
  jest.restoreAllMocks();
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

/** A stream opened on a raw socket, which the test then resets (RST) rather than closes. */
async function rawStream(key: string): Promise<net.Socket> {
  const socket = net.connect(Number(new URL(app.url).port), '127.0.0.1');
  await once(socket, 'connect');
  socket.write(`GET /api/v1/usage/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${key}\r\n\r\n`);
  const [first] = (await once(socket, 'data')) as [Buffer];
  expect(first.toString('utf8')).toMatch(/^HTTP\/1\.1 200 /);
  return socket;
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

describe('a client that resets its stream', () => {
  it('leaves only JSON log lines (LOG_FORMAT=json), and its stream is given back', async () => {
    const carol = await registerUser(app);
    const key = await issueKey(app, carol);
    // A client that leaves is logged at debug level.
    (app.strapi.log as unknown as { level: string }).level = 'debug';
    const sockets = [];
    for (let i = 0; i < 5; i += 1) sockets.push(await rawStream(key.key));
    for (const socket of sockets) socket.resetAndDestroy();
    // The server saw each reset: carol's five streams are hers again.
    for (let i = 0; i < 5; i += 1) {
      expect(await eventually(async () => ((await openStream(key.key)).status === 200 ? true : undefined))).toBe(true);
    }
    open.splice(0).forEach((controller) => controller.abort());
    const gone = await eventually(
      () => lines.find((line) => line.includes('the client went away (read ECONNRESET)')),
      5_000,
      'the reset in the log'
    );
    expect(JSON.parse(gone)).toMatchObject({ level: 'debug', message: expect.stringMatching(/^\[api-suite\] .*the client went away/) });
    await quietFor(500, () => printed.length, 'text written past the logger');
    expect(printed).toEqual([]);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
  });
});
