'use strict';
/**
 * A webhook receiver in its own process for bench/webhooks: it verifies every signed delivery
 * as a real receiver would, with node:crypto (lib/signatures.js; one in 50 also with the public
 * `standardwebhooks` package, the reference), and keeps per-delivery receipt times. Paths name the secret to verify with (`/s/<name>`); `/plain` accepts unsigned
 * requests (Strapi's built-in webhooks). Driven over IPC:
 *   { secrets: { name: secret } }   add secrets
 *   { reset: true }                  forget what was received
 *   { delayMs: n }                   answer every request n ms after it arrived (a slow endpoint; 0: at once)
 *   { pathDelays: { path: n } }      answer requests to `path` n ms after they arrived (one slow endpoint beside healthy ones)
 *   { report: id, since?, before?, path?, windowMs?, origin?, bucketMs? }  answer { report: id, ...figures }
 * With `path` and `windowMs` the report adds the receipts on that path within `windowMs` of its
 * first one, and the most within any one second (bench/webhooks-anchors: the throttle). With
 * `latencyPath` it adds that path's own figures: unique deliveries, publish-to-receipt p50/p99 and
 * the receipts between `from` and `to` (bench/webhooks: the noisy neighbour).
 */
const http = require('node:http');
const { sampledVerify, verify } = require('./signatures');

/** Secrets by name (the path `/s/<name>`). */
const verifiers = new Map();
/** One delivery in 50 is verified with the standardwebhooks package as well. */
const reference = sampledVerify(50);
let state = fresh();
/** How long each answer waits: a real endpoint's latency, which bounds what one process's request slots deliver. */
let delayMs = 0;
/** Paths answering later than the rest. */
let pathDelays = {};

function answer(res, status, path) {
  const wait = pathDelays[path] ?? delayMs;
  if (wait > 0) setTimeout(() => res.writeHead(status).end(), wait);
  else res.writeHead(status).end();
}

function fresh() {
  return {
    verified: 0,
    failed: 0,
    referenceVerified: 0,
    referenceFailed: 0,
    plain: 0,
    duplicates: 0,
    ids: new Set(),
    latencies: [],
    latenciesByPath: {},
    first: null,
    last: null,
    firstSentAt: null,
    receipts: [],
    byPath: {},
  };
}

/** Receipt time minus the publisher's `sent_at`, kept once per delivery. */
function noteLatency(sentAt, now, path) {
  if (typeof sentAt !== 'number') return;
  state.latencies.push(now - sentAt);
  if (path) (state.latenciesByPath[path] = state.latenciesByPath[path] || []).push(now - sentAt);
  if (state.firstSentAt === null || sentAt < state.firstSentAt) state.firstSentAt = sentAt;
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const now = Date.now();
    state.first ??= now;
    state.last = now;
    state.receipts.push(now);
    state.byPath[req.url] = state.byPath[req.url] || [];
    state.byPath[req.url].push(now);
    const body = Buffer.concat(chunks).toString('utf8');
    if (req.url === '/plain') {
      // Strapi's built-in webhooks: unsigned, `{ event, createdAt, model, entry }`, no delivery id.
      state.plain += 1;
      state.ids.add(`plain-${state.plain}`);
      try {
        noteLatency(JSON.parse(body).entry?.sent_at, now);
      } catch {
        // not JSON: counted, no latency
      }
      answer(res, 200, req.url);
      return;
    }
    const name = /^\/s\/([^/?]+)/.exec(req.url || '')?.[1];
    const secret = name && verifiers.get(name);
    try {
      if (!secret) throw new Error(`no secret for ${req.url}`);
      if (!verify(secret, req.headers, body)) throw new Error('bad signature');
      const sampled = reference(secret, req.headers, body);
      if (sampled === true) state.referenceVerified += 1;
      if (sampled === false) state.referenceFailed += 1;
      const event = JSON.parse(body);
      state.verified += 1;
      const id = req.headers['webhook-id'];
      if (state.ids.has(id)) state.duplicates += 1;
      else {
        state.ids.add(id);
        noteLatency(sentAtOf(event && event.data), now, req.url);
      }
      answer(res, 200, req.url);
    } catch {
      state.failed += 1;
      answer(res, 400, req.url);
    }
  });
});
server.keepAliveTimeout = 60_000;

process.on('message', (message) => {
  if (message.secrets) for (const [name, secret] of Object.entries(message.secrets)) verifiers.set(name, secret);
  if (message.reset) state = fresh();
  if (message.delayMs !== undefined) delayMs = message.delayMs;
  if (message.pathDelays !== undefined) pathDelays = message.pathDelays;
  if (message.report !== undefined) {
    // Deliveries/s from `message.since` on (what the engine manages once publishing has stopped).
    const since = message.since ?? 0;
    const later = state.receipts.filter((at) => at >= since);
    const sinceRate = later.length > 1 && state.last > later[0] ? Math.round((later.length * 1000) / (state.last - later[0])) : null;
    const sorted = [...state.latencies].sort((a, b) => a - b);
    const at = (q) => (sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
    process.send({
      report: message.report,
      verified: state.verified,
      failed: state.failed,
      // Checked with the standardwebhooks package as well (one in 50): any failure there is a bad signature.
      reference_verified: state.referenceVerified,
      reference_failed: state.referenceFailed,
      // The receiver's own CPU since it started (ms): what verifying and answering cost beside the app's.
      cpu_ms: Math.round((process.cpuUsage().user + process.cpuUsage().system) / 1000),
      plain: state.plain,
      unique: state.ids.size,
      duplicates: state.duplicates,
      first: state.first,
      last: state.last,
      first_sent_at: state.firstSentAt,
      since_per_s: sinceRate,
      // Receipts before `message.before` (ms since the epoch): how soon deliveries start.
      before_count: message.before === undefined ? null : state.receipts.filter((at) => at < message.before).length,
      p50_ms: at(0.5),
      p99_ms: at(0.99),
      max_ms: sorted.length ? sorted[sorted.length - 1] : null,
      ...(message.path && message.windowMs ? windowOf(state.byPath[message.path] || [], message.windowMs) : {}),
      ...(message.latencyPath ? pathFigures(message.latencyPath, message.from ?? 0, message.to ?? Infinity, message.times) : {}),
      // Receipts per `bucketMs` from `origin` on (bench/webhooks --timeline).
      ...(message.bucketMs ? { buckets: bucketsOf(state.receipts, message.origin, message.bucketMs) } : {}),
    });
  }
});

server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));

/** When a delivered event was sent: `sent_at`, or an order's `created_at` (the webhook benchmark's events). */
function sentAtOf(data) {
  if (!data) return undefined;
  if (typeof data.sent_at === 'number') return data.sent_at;
  return typeof data.created_at === 'string' ? Date.parse(data.created_at) : undefined;
}

/** How many receipts fell in each `bucketMs` from `origin` on. */
function bucketsOf(times, origin, bucketMs) {
  const counts = [];
  for (const at of times) {
    const index = Math.max(0, Math.floor((at - origin) / bucketMs));
    while (counts.length <= index) counts.push(0);
    counts[index] += 1;
  }
  return counts;
}

/** One path's figures: its publish-to-receipt latencies, and its receipts between `from` and `to`. */
function pathFigures(path, from, to, withTimes) {
  const sorted = [...(state.latenciesByPath[path] || [])].sort((a, b) => a - b);
  const at = (q) => (sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
  const receipts = state.byPath[path] || [];
  return {
    path_unique: sorted.length,
    path_received: receipts.length,
    path_p50_ms: at(0.5),
    path_p99_ms: at(0.99),
    path_max_ms: sorted.length ? sorted[sorted.length - 1] : null,
    path_between: receipts.filter((time) => time >= from && time < to).length,
    ...(withTimes ? { path_times: receipts.filter((time) => time >= from && time < to) } : {}),
  };
}

/** Receipts within `windowMs` of the first, and the most within any one second. */
function windowOf(times, windowMs) {
  if (times.length === 0) return { in_window: 0, busiest_second: 0, path_total: 0 };
  const first = times[0];
  let busiest = 0;
  for (let start = 0, end = 0; end < times.length; end += 1) {
    while (times[end] - times[start] >= 1000) start += 1;
    busiest = Math.max(busiest, end - start + 1);
  }
  return { in_window: times.filter((at) => at < first + windowMs).length, busiest_second: busiest, path_total: times.length };
}
