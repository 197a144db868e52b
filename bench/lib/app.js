'use strict';
/**
 * Shared pieces of the benchmarks: compile the app, boot it in-process for setup, and run it in
 * child processes (one per arm) so the load generator never shares a process with the server.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { fork, spawn } = require('node:child_process');

const APP_DIR = path.resolve(__dirname, '..', '..');
const DIST_DIR = path.join(APP_DIR, 'dist');

/** Environment every process of one benchmark run shares: its own database and secrets. */
function benchEnv(name) {
  const dir = path.join(APP_DIR, '.tmp', 'bench', name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const secret = () => crypto.randomBytes(32).toString('base64');
  return {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    SEED_DEMO_DATA: 'false',
    DATABASE_FILENAME: path.join(dir, 'data.db'),
    JOBS_PREFIX: `bench-${name}-${Date.now()}`,
    APP_KEYS: [secret(), secret()].join(','),
    ADMIN_JWT_SECRET: secret(),
    API_TOKEN_SALT: secret(),
    TRANSFER_TOKEN_SALT: secret(),
    JWT_SECRET: secret(),
    ENCRYPTION_KEY: secret(),
  };
}

async function compile() {
  await require('../../scripts/compile-app').compileApp(APP_DIR);
}

/**
 * Boot the app in this process with `env`, run `fn(strapi)`, shut it down. Whatever the app
 * prints meanwhile (its log) goes to stderr: a benchmark's stdout is its one JSON line.
 */
async function withStrapi(env, fn) {
  const saved = { ...process.env };
  const write = process.stdout.write;
  Object.assign(process.env, env);
  process.stdout.write = process.stderr.write.bind(process.stderr);
  try {
    const { createStrapi } = require('@strapi/strapi');
    const strapi = await createStrapi({ appDir: APP_DIR, distDir: DIST_DIR, serveAdminPanel: false }).load();
    try {
      return await fn(strapi);
    } finally {
      await strapi.destroy();
    }
  } finally {
    process.stdout.write = write;
    process.env = saved;
  }
}

/** Start a server process (`nodeArgs` go to node itself); resolves with its URL, its pid and a stop function. */
function serve(env, nodeArgs = []) {
  // BENCH_SERVER_NODE_ARGS: Node flags for the app's processes only (not for the driver's own).
  const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(
    process.execPath,
    [...extra, ...nodeArgs, path.join(APP_DIR, 'tests', 'helpers', 'instance-main.js'), APP_DIR, DIST_DIR],
    {
      cwd: APP_DIR,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const match = /\{"port":(\d+)\}/.exec(stdout);
      if (match) {
        const exited = new Promise((done) => child.once('exit', done));
        resolve({
          url: `http://127.0.0.1:${match[1]}`,
          // For figures read from /proc/<pid> (bench/scrapers: the server's CPU time).
          pid: child.pid,
          stop: async () => {
            child.kill('SIGTERM');
            await exited;
          },
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
}

/**
 * Fork a helper process of the benchmark (a receiver, a stub) that sends `{ port }` once it
 * listens and answers `{ report: id, ...query }` with its figures as `{ report: id, ... }`.
 */
async function forkHelper(file) {
  const child = fork(file, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`${path.basename(file)} exited with ${code}`)));
  });
  let asked = 0;
  return {
    port,
    pid: child.pid,
    send: (message) => child.send(message),
    ask(query = {}) {
      const id = (asked += 1);
      return new Promise((resolve) => {
        const listener = (message) => {
          if (message.report !== id) return;
          child.off('message', listener);
          resolve(message);
        };
        child.on('message', listener);
        child.send({ ...query, report: id });
      });
    },
    kill: () => child.kill(),
  };
}

/** `--name value` pairs from the command line, as strings. */
function parseArgs(argv = process.argv.slice(2)) {
  return Object.fromEntries(
    argv
      .join(' ')
      .split('--')
      .filter(Boolean)
      .map((pair) => pair.trim().split(/\s+/))
  );
}

/** The middle value (the upper one of two); medians keep one noisy round from deciding a figure. */
function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

function progress(message) {
  process.stderr.write(`[bench] ${message}\n`);
}

/**
 * Drive each target with autocannon in alternating rounds (a 2 s warm-up, then `duration` s), so
 * a slow spell of the machine falls on both; answers `{ name: { rps, p99_ms } }`, medians of the
 * rounds. Any non-2xx answer or error stops the bench.
 */
async function alternate(targets, { rounds, connections, duration }) {
  const autocannon = require('autocannon');
  const results = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
  for (let round = 1; round <= rounds; round += 1) {
    for (const [name, target] of Object.entries(targets)) {
      await autocannon({ ...target, connections, duration: 2 });
      const run = await autocannon({ ...target, connections, duration });
      if (run.non2xx > 0 || run.errors > 0) throw new Error(`${name}: ${run.non2xx} non-2xx, ${run.errors} errors`);
      results[name].push({ rps: run.requests.average, p99_ms: run.latency.p99 });
      progress(`round ${round} ${name}: ${Math.round(run.requests.average)} req/s, p99 ${run.latency.p99} ms`);
    }
  }
  return Object.fromEntries(
    Object.entries(results).map(([name, list]) => [
      name,
      { rps: median(list.map((r) => r.rps)), p99_ms: median(list.map((r) => r.p99_ms)) },
    ])
  );
}

let clockTicks;
/** CPU time (user + system) of a process so far, in ms, from /proc/<pid>/stat. */
function cpuMs(pid) {
  return statCpuMs(require('node:fs').readFileSync(`/proc/${pid}/stat`, 'utf8'), false);
}

/** The CPU time in a /proc/<pid>/stat text, in ms: utime and stime (fields 14, 15), with `children` also cutime and cstime (16, 17). */
function statCpuMs(stat, children) {
  clockTicks ??= Number(require('node:child_process').execSync('getconf CLK_TCK').toString().trim()) || 100;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]) + (children ? Number(fields[13]) + Number(fields[14]) : 0);
  return (ticks * 1000) / clockTicks;
}

/**
 * CPU time (ms) of every process whose command name is `name` (postgres: the server and all its
 * backends), with that of their children that have exited: a PostgreSQL backend whose connection
 * closes between two readings takes its time with it, but it reappears in its parent's count of
 * reaped children (cutime, cstime), so the sum only grows.
 */
function cpuOfCommand(name) {
  const fs = require('node:fs');
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) === name) total += statCpuMs(stat, true);
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}

/** The whole machine's CPU counters (all cores, in clock ticks): busy and total, from /proc/stat. */
function machineCpu() {
  const fields = require('node:fs').readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { busy: total - fields[3] - fields[4], total };
}

/** The bench's administrator (the users-permissions role that may publish), made in a booted app: its consumer id and a JWT. */
async function seedAdministrator(strapi) {
  const user = await strapi.db.query('plugin::users-permissions.user').create({
    data: { username: 'bench-admin', email: 'bench-admin@example.test', password: 'Bench-password-1', confirmed: true, provider: 'local' },
  });
  const role = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'administrator' } });
  await strapi.db.query('plugin::users-permissions.user').update({ where: { id: user.id }, data: { role: role.id } });
  const { consumer_id: consumerId } = await strapi.db.query('plugin::users-permissions.user').findOne({ where: { id: user.id } });
  const jwt = strapi.plugin('users-permissions').service('jwt').issue({ id: user.id });
  return { consumerId, jwt };
}

/** The benchmarks' one user, confirmed, of the given users-permissions role. */
function createBenchUser(strapi, roleId) {
  return strapi.db.query('plugin::users-permissions.user').create({
    data: {
      username: 'bench',
      email: 'bench@example.test',
      password: 'Bench-password-1',
      confirmed: true,
      provider: 'local',
      role: roleId,
    },
  });
}

/** A confirmed user of the authenticated role, made through a booted app; its JWT. */
async function seedUser(env) {
  return withStrapi(env, async (strapi) => {
    const role = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'authenticated' } });
    const user = await createBenchUser(strapi, role.id);
    // The private endpoints (scrapers, webhook subscriptions) are in the paid plans only: the bench's consumer is on enterprise.
    const enterprise = await strapi.db.query('plugin::api-suite.plan').findOne({ where: { name: 'enterprise' } });
    if (enterprise) await strapi.plugin('api-suite').service('consumer-plans').grant(user.id, enterprise.id);
    return strapi.plugin('users-permissions').service('jwt').issue({ id: user.id });
  });
}

/** `value` to `digits` decimals; null for a figure that could not be measured. */
function round(value, digits = 1) {
  if (value === null || value === undefined || Number.isNaN(value)) return null;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/**
 * The benches' client of the app's API, as a consumer's code calls it: a JWT as Bearer, JSON in
 * and out; `expected` makes any other status a failure naming the answer.
 */
function apiClient(url, jwt) {
  return {
    async call(method, route, body, expected) {
      const response = await fetch(url + route, {
        method,
        headers: { authorization: `Bearer ${jwt}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await response.text();
      if (expected !== undefined && response.status !== expected)
        throw new Error(`${method} ${route} answered ${response.status}, not ${expected}: ${text.slice(0, 500)}`);
      const json = response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : undefined;
      return { status: response.status, headers: response.headers, body: json ?? text };
    },
  };
}

/**
 * A scraper's run started and polled (every 100 ms) to its end: the run, its time, the app's CPU
 * per item over it, and the tail from the site's last answer (`lastAnswerAt`, performance time)
 * to the run's finished_at. Fails unless the run completed with `total` items.
 */
async function runScraperToEnd({ api, server, lastAnswerAt, scraperId, total, timeoutMs = 600_000 }) {
  const { performance } = require('node:perf_hooks');
  const cpuBefore = cpuMs(server.pid);
  const started = (await api.call('POST', `/api/v1/scrapers/${scraperId}/run`, undefined, 202)).body;
  let run;
  const deadline = Date.now() + timeoutMs;
  while (!run) {
    if (Date.now() > deadline) throw new Error(`run ${started.run_id} not finished after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const current = (await api.call('GET', `/api/v1/scrapers/${scraperId}/runs/${started.run_id}`, undefined, 200)).body;
    if (['completed', 'failed', 'stopped'].includes(current.status)) run = current;
  }
  const cpu = cpuMs(server.pid) - cpuBefore;
  if (run.status !== 'completed' || run.items_collected !== total)
    throw new Error(`run ${run.id}: ${JSON.stringify(run)}; expected completed with ${total} items`);
  return {
    run,
    cpu_us_per_item: Math.round((cpu * 10_000) / total) / 10,
    tail_ms: Math.round(Date.parse(run.finished_at) - (performance.timeOrigin + lastAnswerAt())),
    run_ms: Date.parse(run.finished_at) - Date.parse(run.started_at),
  };
}

module.exports = {
  APP_DIR,
  apiClient,
  runScraperToEnd,
  benchEnv,
  compile,
  withStrapi,
  seedUser,
  seedAdministrator,
  serve,
  forkHelper,
  progress,
  parseArgs,
  median,
  round,
  alternate,
  cpuMs,
  createBenchUser,
  cpuOfCommand,
  machineCpu,
};
