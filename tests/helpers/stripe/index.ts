import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { catalogRoutes } from './catalog';
import { checkoutRoutes, completeCheckout } from './checkout';
import { customerRoutes } from './customers';
import { StubError, type StripeErrorBody } from './errors';
import { API_VERSION, deliver, EventQueue, type Deliverable, type WebhookTarget } from './events';
import { flatForm, Params, parseForm } from './form';
import { invoiceRoutes } from './invoices';
import { meteringRoutes } from './metering';
import { payPage, portalPage, successRedirect } from './pages';
import type { Route } from './route';
import { expand, Store, type StubContext } from './store';
import { lifecycle, subscriptionRoutes } from './subscriptions';
import type { StubEvent, StubSession } from './types';

export type { Deliverable, WebhookTarget } from './events';
export type { Store } from './store';
export type {
  StubCustomer,
  StubEvent,
  StubEventType,
  StubInvoice,
  StubInvoiceLine,
  StubList,
  StubMeter,
  StubMeterEvent,
  StubObject,
  StubPlan,
  StubPortalSession,
  StubPrice,
  StubProduct,
  StubSession,
  StubSubscription,
  StubSubscriptionItem,
} from './types';

export interface StubRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Form fields as Stripe's SDK encodes them, such as `line_items[0][price_data][unit_amount]`: the body of a POST, the query of a GET or DELETE. */
  form: Record<string, string>;
  /** The query string's fields (the SDK sends a GET's and a DELETE's parameters there). */
  query: Record<string, string>;
}

export interface StripeStub {
  host: string;
  port: number;
  protocol: 'http';
  /** Every request received, in order (refused ones too). */
  requests: StubRequest[];
  /** Checkout Sessions by id (the same map as `store.sessions`). */
  sessions: Map<string, StubSession>;
  /** Every object the stub holds: products, prices, meters, customers, subscriptions, invoices, meterEvents. */
  store: Store;
  /** Events made by state changes and not yet delivered by `flush()`, oldest first. */
  pending: StubEvent[];
  /** Every event ever made, delivered or not. */
  events: StubEvent[];
  /** Where `flush()` and the "Pay" page deliver events. */
  webhookTarget: WebhookTarget | null;
  /** While set, every /v1 request answers this HTTP status with an `api_error`. */
  down: number | null;
  /**
   * Requests whose paths match are carried out (Stripe acts on them) but never answered: the
   * caller waits until it gives up or dies, as when a connection breaks after Stripe has acted.
   */
  hold: RegExp | null;
  /** While set, requests whose paths match answer 500 with an `api_error` (one object Stripe cannot serve for now). */
  failing: RegExp | null;
  /** Make the next N session creations fail with a Stripe API error. */
  failNext(count: number, status?: number): void;
  /** A `Stripe-Signature` header for `payload`, as Stripe signs webhooks (t=…,v1=HMAC-SHA256). */
  sign(payload: string, secret: string, timestamp?: number): string;
  /** The customer paid: subscription and first invoice made in subscription mode; the events queued. */
  completeCheckout(sessionId: string): StubEvent[];
  /** A renewal whose payment fails (or a further failed attempt at the open invoice): the subscription past_due. */
  failPayment(subscriptionId: string): StubEvent[];
  /** The open invoice paid, the subscription active again. */
  payInvoice(subscriptionId: string): StubEvent[];
  /** The period ends and the next is paid (or, with cancel_at_period_end, the subscription ends). */
  renew(subscriptionId: string): StubEvent[];
  /** A trialing subscription's trial ends now: active, its first real invoice paid (or, with cancel_at_period_end, it ends). */
  endTrial(subscriptionId: string): StubEvent[];
  /** The subscription ends now. */
  endSubscription(subscriptionId: string): StubEvent[];
  /** The sum of the values of the accepted meter events naming this customer. */
  meterTotal(customerId: string, eventName?: string): number;
  /** POST every pending event in order to `webhookTarget`; their HTTP statuses. */
  flush(): Promise<number[]>;
  /** POST these events (again, changed, or in another order) to a target, `webhookTarget` by default. */
  post(events: readonly Deliverable[], target?: WebhookTarget): Promise<number[]>;
  close(): Promise<void>;
}

const routes: Route[] = [
  ...checkoutRoutes,
  ...catalogRoutes,
  ...meteringRoutes,
  ...customerRoutes,
  ...subscriptionRoutes,
  ...invoiceRoutes,
];

const readBody = (req: http.IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

/**
 * A local stand-in for the Stripe API: Checkout (payment and subscription mode), Billing (products,
 * prices, meters, meter events, customers, subscriptions, invoices, the Customer Portal) and webhook
 * events. Point the official SDK at it with `{ host, port, protocol }`. It checks what Stripe checks and
 * answers Stripe's errors; idempotency keys are honoured as Stripe does (the same key returns the first answer).
 */
export async function startStripeStub(): Promise<StripeStub> {
  const sessions = new Map<string, StubSession>();
  const store = new Store(sessions);
  const queue = new EventQueue();
  const ctx: StubContext = { store, events: queue, base: '' };
  const requests: StubRequest[] = [];
  const answered = new Map<string, { path: string; body: string; status: number; answer: string }>();
  let failures = { count: 0, status: 500 };
  const held: http.ServerResponse[] = [];

  const send = (res: http.ServerResponse, status: number, body: object | string, headers: Record<string, string> = {}) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    const type = typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json';
    res.writeHead(status, {
      'content-type': type,
      'request-id': headers['request-id'] ?? `req_${crypto.randomBytes(7).toString('hex')}`,
      'stripe-version': API_VERSION,
      ...headers,
    });
    res.end(text);
  };

  const api = (req: http.IncomingMessage, path: string, search: string, raw: string): { status: number; body: object } => {
    const method = req.method ?? 'GET';
    const fail = (status: number, type: string, message: string): { status: number; body: StripeErrorBody } => ({
      status,
      body: { error: { type, message } },
    });
    if (stub.down !== null) return fail(stub.down, 'api_error', 'stub is down');
    if (stub.failing?.test(path)) return fail(500, 'api_error', 'stub failure');
    if (!req.headers.authorization) return fail(401, 'invalid_request_error', 'You did not provide an API key.');
    if (method === 'POST' && path === '/v1/checkout/sessions' && failures.count > 0) {
      failures.count -= 1;
      return fail(failures.status, 'api_error', 'stub failure');
    }
    const key = method === 'POST' && typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : null;
    const earlier = key ? answered.get(key) : undefined;
    if (earlier) {
      if (earlier.path !== path || earlier.body !== raw) {
        return fail(
          400,
          'idempotency_error',
          `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`
        );
      }
      return { status: earlier.status, body: JSON.parse(earlier.answer) as object };
    }
    const found = routes
      .map((candidate) => ({ candidate, match: candidate.method === method ? candidate.path.exec(path) : null }))
      .find((entry) => entry.match);
    if (!found?.match) {
      return fail(
        404,
        'invalid_request_error',
        `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`
      );
    }
    const requestId = `req_${crypto.randomBytes(7).toString('hex')}`;
    try {
      const params = new Params(parseForm(method === 'POST' ? raw : search));
      const answer = found.candidate.handle({ ctx, params, ids: found.match.slice(1), cause: { requestId, idempotencyKey: key } });
      const body = expand(answer, params.strings('expand'), store) as object;
      if (key) answered.set(key, { path, body: raw, status: 200, answer: JSON.stringify(body) });
      return { status: 200, body };
    } catch (error) {
      if (error instanceof StubError) return { status: error.status, body: error.body() };
      return fail(500, 'api_error', `The Stripe stub failed: ${error instanceof Error ? error.stack : String(error)}`);
    }
  };

  const pages = async (req: http.IncomingMessage, res: http.ServerResponse, path: string) => {
    const pay = /^\/pay\/([^/]+)$/.exec(path);
    const session = pay ? sessions.get(pay[1]) : undefined;
    if (session && req.method === 'GET') return send(res, 200, payPage(session));
    if (session && req.method === 'POST') {
      if (session.status !== 'open') return send(res, 400, payPage(session));
      stub.completeCheckout(session.id);
      if (stub.webhookTarget) await stub.flush();
      res.writeHead(303, { location: successRedirect(session) });
      return res.end();
    }
    const portal = /^\/portal\/([^/]+)$/.exec(path);
    const portalSession = portal ? store.portalSessions.get(portal[1]) : undefined;
    if (portalSession && req.method === 'GET') return send(res, 200, portalPage(portalSession));
    return send(res, 404, '<!doctype html><title>Not found</title><p>Not found</p>');
  };

  const server = http.createServer((req, res) => {
    readBody(req)
      .then(async (raw) => {
        const [path, search = ''] = (req.url ?? '/').split(/\?(.*)/s, 2);
        const query = flatForm(search);
        const method = req.method ?? 'GET';
        requests.push({ method, path, headers: req.headers, form: method === 'POST' ? flatForm(raw) : query, query });
        if (!path.startsWith('/v1/')) return pages(req, res, path);
        const { status, body } = api(req, path, search, raw);
        if (stub.hold?.test(path)) {
          held.push(res);
          return undefined;
        }
        return send(res, status, body);
      })
      .catch((error: unknown) => {
        if (!res.headersSent) send(res, 500, { error: { type: 'api_error', message: String(error) } });
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  ctx.base = `http://127.0.0.1:${port}`;

  const stub: StripeStub = {
    host: '127.0.0.1',
    port,
    protocol: 'http',
    requests,
    sessions,
    store,
    pending: queue.pending,
    events: queue.all,
    webhookTarget: null,
    down: null,
    hold: null,
    failing: null,
    failNext(count, status = 500) {
      failures = { count, status };
    },
    sign(payload, secret, timestamp = Math.floor(Date.now() / 1000)) {
      const signature = crypto.createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
      return `t=${timestamp},v1=${signature}`;
    },
    completeCheckout: (sessionId) => completeCheckout(ctx, sessionId),
    failPayment: (subscriptionId) => lifecycle.failPayment(ctx, subscriptionId),
    payInvoice: (subscriptionId) => lifecycle.payInvoice(ctx, subscriptionId),
    renew: (subscriptionId) => lifecycle.renew(ctx, subscriptionId),
    endTrial: (subscriptionId) => lifecycle.endTrial(ctx, subscriptionId),
    endSubscription: (subscriptionId) => lifecycle.endSubscription(ctx, subscriptionId),
    meterTotal: (customerId, eventName) => store.meterTotal(customerId, eventName),
    async flush() {
      const target = stub.webhookTarget;
      if (!target) throw new Error('Set webhookTarget before flush()');
      const statuses: number[] = [];
      // One at a time, out of the queue only once delivered: a failed delivery leaves the rest pending.
      while (queue.pending.length > 0) {
        statuses.push(...(await deliver([queue.pending[0]], target)));
        queue.pending.shift();
      }
      return statuses;
    },
    async post(events, target = stub.webhookTarget ?? undefined) {
      if (!target) throw new Error('Set webhookTarget or pass a target to post()');
      return deliver(events, target);
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return stub;
}
