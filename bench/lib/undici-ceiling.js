'use strict';
/**
 * The undici ceiling of bench/webhooks, in a worker thread of its own: plain undici with keep-alive
 * connections sends signed requests (HMAC-SHA256 with node:crypto, as the engine signs: lib/signatures.js)
 * with the same body as the engine's deliveries to the same receiver, which verifies every one as it
 * does the engine's.
 * A thread, so that the driver's own event loop (its timers, its IPC with the receiver) does not
 * slow the ceiling down, and the ceiling does not borrow the driver's. Answers the CPU time the
 * process spent while it ran (the driver is idle meanwhile, so that is the thread's).
 */
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');

if (isMainThread) {
  /** Send `events` signed requests over `connections` connections to `url` + `path`; resolves with { cpuMs }. */
  module.exports.runCeiling = function runCeiling({ url, path, secret, connections, events, type }) {
    return new Promise((resolve, reject) => {
      const worker = new Worker(__filename, { workerData: { url, path, secret, connections, events, type } });
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => code !== 0 && reject(new Error(`the undici ceiling thread exited with ${code}`)));
    });
  };
} else {
  const { Pool } = require('undici');
  const { sign } = require('./signatures');
  const { url, path, secret, connections, events, type } = workerData;
  (async () => {
    const cpuBefore = process.cpuUsage();
    const target = new Pool(url, { connections, pipelining: 1 });
    let next = 0;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (next < events) {
          const n = (next += 1);
          const id = `msg_ceiling_${n}`;
          const now = new Date();
          const timestamp = Math.floor(now.getTime() / 1000);
          // The body the engine sends: { type, timestamp, data } with a benchmark order as data.
          const data = { id: `bench-${n}`, status: 'pending', total: n, created_at: new Date(Date.now()).toISOString() };
          const body = JSON.stringify({ type, timestamp: now.toISOString(), data });
          const response = await target.request({
            method: 'POST',
            path,
            headers: {
              'content-type': 'application/json',
              'webhook-id': id,
              'webhook-timestamp': String(timestamp),
              'webhook-signature': sign(secret, id, timestamp, body),
            },
            body,
          });
          await response.body.dump();
        }
      })
    );
    await target.close();
    const cpu = process.cpuUsage(cpuBefore);
    parentPort.postMessage({ cpuMs: (cpu.user + cpu.system) / 1000 });
  })().catch((error) => {
    process.stderr.write(`${error.stack}\n`);
    process.exit(1);
  });
}
