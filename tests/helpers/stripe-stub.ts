import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { URLSearchParams } from 'node:url';

export interface StubSession {
  id: string;
  object: 'checkout.session';
  url: string;
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  amount_total: number;
  currency: string;
  metadata: Record<string, string>;
  payment_intent: string | null;
  success_url: string | null;
  cancel_url: string | null;
  payment_method_types: string[];
}

export interface StubRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Form fields as Stripe's SDK encodes them, such as `line_items[0][price_data][unit_amount]`. */
  form: Record<string, string>;
}

export interface StripeStub {
  host: string;
  port: number;
  protocol: 'http';
  requests: StubRequest[];
  sessions: Map<string, StubSession>;
  /** Make the next N session creations fail with a Stripe API error. */
  failNext(count: number, status?: number): void;
  /** A `Stripe-Signature` header for `payload`, as Stripe signs webhooks (t=…,v1=HMAC-SHA256). */
  sign(payload: string, secret: string, timestamp?: number): string;
  close(): Promise<void>;
}

/**
 * A local stand-in for the Stripe API, enough for Checkout: create, retrieve and expire
 * sessions. Point the official SDK at it with `{ host, port, protocol }`. Idempotency keys are
 * honoured as Stripe does: the same key returns the first answer again.
 */
export async function startStripeStub(): Promise<StripeStub> {
  const requests: StubRequest[] = [];
  const sessions = new Map<string, StubSession>();
  const byIdempotencyKey = new Map<string, string>();
  let failures: { count: number; status: number } = { count: 0, status: 500 };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const path = (req.url ?? '/').split('?')[0];
      requests.push({ method: req.method ?? 'GET', path, headers: req.headers, form });
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${crypto.randomBytes(6).toString('hex')}` });
        res.end(JSON.stringify(body));
      };

      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        if (failures.count > 0) {
          failures.count -= 1;
          return send(failures.status, { error: { type: 'api_error', message: 'stub failure' } });
        }
        const key = req.headers['idempotency-key'];
        if (typeof key === 'string' && byIdempotencyKey.has(key)) return send(200, sessions.get(byIdempotencyKey.get(key) as string));
        const session = createSession(form, `http://127.0.0.1:${port}`);
        sessions.set(session.id, session);
        if (typeof key === 'string') byIdempotencyKey.set(key, session.id);
        return send(200, session);
      }
      const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
      if (req.method === 'POST' && expire) {
        const session = sessions.get(expire[1]);
        if (!session) return send(404, { error: { type: 'invalid_request_error', message: 'No such checkout.session' } });
        session.status = 'expired';
        return send(200, session);
      }
      const retrieve = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && retrieve) {
        const session = sessions.get(retrieve[1]);
        return session ? send(200, session) : send(404, { error: { type: 'invalid_request_error', message: 'No such checkout.session' } });
      }
      return send(404, { error: { type: 'invalid_request_error', message: `stub has no route ${req.method} ${path}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    host: '127.0.0.1',
    port,
    protocol: 'http',
    requests,
    sessions,
    failNext(count, status = 500) {
      failures = { count, status };
    },
    sign(payload, secret, timestamp = Math.floor(Date.now() / 1000)) {
      const signature = crypto.createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
      return `t=${timestamp},v1=${signature}`;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function createSession(form: Record<string, string>, base: string): StubSession {
  const id = `cs_test_${crypto.randomBytes(12).toString('hex')}`;
  const metadata: Record<string, string> = {};
  let amount = 0;
  for (const [key, value] of Object.entries(form)) {
    const meta = /^metadata\[(.+)\]$/.exec(key);
    if (meta) metadata[meta[1]] = value;
    const line = /^line_items\[(\d+)\]\[price_data\]\[unit_amount\]$/.exec(key);
    if (line) amount += Number(value) * Number(form[`line_items[${line[1]}][quantity]`] ?? 1);
  }
  return {
    id,
    object: 'checkout.session',
    url: `${base}/pay/${id}`,
    mode: form.mode ?? 'payment',
    status: 'open',
    payment_status: 'unpaid',
    amount_total: amount,
    currency: form['line_items[0][price_data][currency]'] ?? 'usd',
    metadata,
    payment_intent: null,
    success_url: form.success_url ?? null,
    cancel_url: form.cancel_url ?? null,
    payment_method_types: Object.entries(form)
      .filter(([key]) => key.startsWith('payment_method_types[') || key.startsWith('allowed_payment_method_types['))
      .map(([, value]) => value),
  };
}
