'use strict';
/**
 * The tests' Stripe stub (tests/helpers/stripe, TypeScript, Stripe Billing included) for the
 * benchmarks: bundled with esbuild into .tmp/bench on first use, and run in a forked process so it
 * never shares an event loop with the load generator. It listens, sends `{ port }`, and answers
 * `{ report: id }` with `{ report: id, meter_events, meter_value }` (accepted meter events and the
 * sum of their values), and `{ report: id, reset: true }` by forgetting the meter events so far.
 */
const path = require('node:path');

const APP_DIR = path.resolve(__dirname, '..', '..');
const BUNDLE = path.join(APP_DIR, '.tmp', 'bench', 'billing-stub.bundle.js');

function bundle() {
  require('esbuild').buildSync({
    entryPoints: [path.join(APP_DIR, 'tests', 'helpers', 'stripe', 'index.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: BUNDLE,
    external: ['stripe'],
    logLevel: 'error',
  });
}

async function forkBillingStub() {
  bundle();
  const { forkHelper } = require('./app');
  const helper = await forkHelper(__filename);
  return {
    host: '127.0.0.1',
    port: helper.port,
    protocol: 'http',
    report: () => helper.ask(),
    reset: () => helper.ask({ reset: true }),
    kill: helper.kill,
  };
}

if (require.main === module && process.send) {
  require(BUNDLE)
    .startStripeStub()
    .then((stub) => {
      process.on('message', (message) => {
        if (!message || message.report === undefined) return;
        if (message.reset) stub.store.meterEvents.length = 0;
        const events = stub.store.meterEvents;
        process.send({
          report: message.report,
          meter_events: events.length,
          meter_value: events.reduce((sum, event) => sum + Number(event.payload.value), 0),
        });
      });
      process.on('disconnect', () => process.exit(0));
      process.send({ port: stub.port });
    });
}

module.exports = { forkBillingStub };
