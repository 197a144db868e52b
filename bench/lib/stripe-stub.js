'use strict';
/**
 * A local stand-in for the Stripe API for bench/commerce, ported from tests/helpers/stripe-stub.ts:
 * enough of Checkout for the app's official SDK (create, retrieve and expire sessions). Idempotency
 * keys are honoured as Stripe does: the same key returns the first answer again.
 *
 * Used two ways:
 *   - `startStripeStub()` in the calling process;
 *   - forked (`node bench/lib/stripe-stub.js`, with an IPC channel): it listens, sends `{ port }`,
 *     and answers `{ report: id }` with `{ report: id, creations, replays, sessions }`, so the stub
 *     never shares an event loop with the load generator.
 */
const crypto = require('node:crypto');
const http = require('node:http');

async function startStripeStub() {
  const sessions = new Map();
  const byIdempotencyKey = new Map();
  const counts = { creations: 0, replays: 0, requests: 0 };

  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      counts.requests += 1;
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const path = (req.url ?? '/').split('?')[0];
      const send = (status, body) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${crypto.randomBytes(6).toString('hex')}` });
        res.end(JSON.stringify(body));
      };

      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        const key = req.headers['idempotency-key'];
        if (typeof key === 'string' && byIdempotencyKey.has(key)) {
          counts.replays += 1;
          return send(200, sessions.get(byIdempotencyKey.get(key)));
        }
        const session = createSession(form, `http://127.0.0.1:${port}`);
        sessions.set(session.id, session);
        if (typeof key === 'string') byIdempotencyKey.set(key, session.id);
        counts.creations += 1;
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
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();

  return {
    host: '127.0.0.1',
    port,
    protocol: 'http',
    sessions,
    counts,
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function createSession(form, base) {
  const id = `cs_test_${crypto.randomBytes(12).toString('hex')}`;
  const metadata = {};
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
    client_reference_id: form.client_reference_id ?? null,
    payment_intent: null,
    success_url: form.success_url ?? null,
    cancel_url: form.cancel_url ?? null,
    payment_method_types: Object.entries(form)
      .filter(([key]) => key.startsWith('payment_method_types[') || key.startsWith('allowed_payment_method_types['))
      .map(([, value]) => value),
  };
}

/** Fork this file as a stub process; resolves with `{ host, port, protocol, report(), kill() }`. */
async function forkStripeStub() {
  const { forkHelper } = require('./app');
  const helper = await forkHelper(__filename);
  return { host: '127.0.0.1', port: helper.port, protocol: 'http', report: () => helper.ask(), kill: helper.kill };
}

if (require.main === module && process.send) {
  startStripeStub().then((stub) => {
    process.on('message', (message) => {
      if (message && message.report !== undefined) process.send({ report: message.report, ...stub.counts, sessions: stub.sessions.size });
    });
    process.on('disconnect', () => process.exit(0));
    process.send({ port: stub.port });
  });
}

module.exports = { startStripeStub, forkStripeStub };
