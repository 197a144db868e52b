import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventDataProblem } from './event-schemas';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The raw body, exactly as sent (signatures are checked over it). */
  body: string;
  receivedAt: number;
}

export interface ReceiverReply {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Wait this long before answering (a slow endpoint). */
  delayMs?: number;
  /** Never answer (a hung endpoint); the socket is closed when the receiver closes. */
  hang?: boolean;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Resolve once `count` requests have arrived, or reject after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  setReply(reply: (request: ReceivedRequest) => ReceiverReply): void;
  /** Answer on the same port at another loopback address too (`127.0.0.2`, `::1`): another name for the same place. */
  alsoOn(address: string): Promise<void>;
  /** Deliveries whose `data` did not fit their event's JSON Schema; `close` fails when there are any. */
  schemaProblems: string[];
  close(): Promise<void>;
}

/**
 * A local HTTP endpoint on 127.0.0.1 that records every request: a webhook receiver for tests.
 * Each webhook delivery's `data` is checked against its event's JSON Schema from the event
 * catalog; closing the receiver fails the test file if any did not fit.
 */
export async function startReceiver(reply: (request: ReceivedRequest) => ReceiverReply = () => ({ status: 200 })): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const schemaProblems: string[] = [];
  let answer = reply;
  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ReceivedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      requests.push(request);
      const event = request.headers['x-webhook-event'];
      if (request.method === 'POST' && typeof event === 'string') {
        const problem = eventDataProblem(event, request.body);
        if (problem) schemaProblems.push(problem);
      }
      for (const waiter of waiters.filter((w) => requests.length >= w.count)) waiter.resolve();
      const { status = 200, body = '', headers = {}, delayMs = 0, hang = false } = answer(request);
      if (hang) return;
      setTimeout(() => {
        res.writeHead(status, { 'content-type': 'text/plain', ...headers });
        res.end(body);
      }, delayMs);
    });
  };
  const server = http.createServer(handle);
  const others: http.Server[] = [];
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    schemaProblems,
    setReply(next) {
      answer = next;
    },
    async alsoOn(address) {
      const other = http.createServer(handle);
      others.push(other);
      await new Promise<void>((resolve, reject) => {
        other.once('error', reject);
        other.listen(port, address, resolve);
      });
    },
    waitFor(count, timeoutMs = 10_000) {
      if (requests.length >= count) return Promise.resolve(requests);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`receiver got ${requests.length} requests, expected ${count} within ${timeoutMs} ms`)),
          timeoutMs
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(requests);
          },
        });
      });
    },
    async close() {
      for (const listening of [server, ...others]) {
        listening.closeAllConnections();
        await new Promise<void>((resolve) => listening.close(() => resolve()));
      }
      if (schemaProblems.length > 0) throw new Error(`deliveries that do not fit their event's JSON Schema:\n${schemaProblems.join('\n')}`);
    },
  };
}
