import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { createMysqlDatabase } from '../mysql';
import { APP_DIR } from '../paths';

/**
 * A fresh Strapi JavaScript site with content types of its own (recipes and chefs, in `./site`),
 * into which the packed plugin is installed exactly as docs/installing.md says, booted with
 * `strapi start` as a separate process. See `startFreshSite`.
 *
 * Which Strapi and which database: `FRESH_SITE_STRAPI` (default 5.54.0, the newest the plugin is
 * built against; CI also runs 5.30.0, the oldest it supports) and `FRESH_SITE_DATABASE` (`sqlite`
 * by default, or `mysql`: a database of its own on the server of `DATABASE_URL`, which must then
 * be a mysql:// URL, made and dropped by the test).
 */
export const FRESH_SITE_STRAPI = process.env.FRESH_SITE_STRAPI || '5.54.0';
export const FRESH_SITE_DATABASE: 'sqlite' | 'mysql' = process.env.FRESH_SITE_DATABASE === 'mysql' ? 'mysql' : 'sqlite';

export const FRESH_SITE_DIR = path.join(APP_DIR, '.tmp', 'fresh-site');
const TEMPLATE_DIR = path.join(__dirname, 'site');
const GUARD = path.join(__dirname, 'resolve-guard.js');
const PLUGIN_DIR = path.join(APP_DIR, 'src', 'plugins', 'api-suite');
/** Installs kept in the cache (each is a Strapi node_modules of about half a gigabyte): both ends of the range, each with and without mysql2. */
const CACHE_ENTRIES_KEPT = 4;

export interface FreshSite {
  dir: string;
  /** http://127.0.0.1:<port> */
  url: string;
  request: () => ReturnType<typeof supertest>;
  /** The site's stdout and stderr. */
  logFile: string;
  logTail(lines?: number): string;
  /** Seconds each step took: pack, install (with whether the cache was hit), boot. */
  timings: Record<string, number | boolean>;
  stop(): Promise<void>;
}

const progress = (message: string) => console.info(`[fresh-site] ${message}`);
const seconds = (since: number) => Math.round((Date.now() - since) / 100) / 10;

/**
 * Pack the built plugin, generate the site in .tmp/fresh-site (recreated each time), install its
 * dependencies (from a cache outside the clone when it holds them) and the tarball on top, and
 * boot it on an ephemeral port of 127.0.0.1 until `GET /api/api-suite/health` answers 200.
 */
export async function startFreshSite(): Promise<FreshSite> {
  // The last run's site (700 MB of node_modules) goes while this one installs.
  const cleared = clearPreviousSites();
  try {
    return await installAndBoot(cleared);
  } catch (error) {
    await cleared.catch(() => {});
    await dropSiteDatabase().catch(() => {});
    throw error;
  }
}

async function installAndBoot(cleared: Promise<unknown>): Promise<FreshSite> {
  const timings: Record<string, number | boolean> = {};
  let started = Date.now();
  fs.mkdirSync(FRESH_SITE_DIR, { recursive: true });
  const tarball = await packPlugin(path.join(FRESH_SITE_DIR, 'vendor'));
  timings.packSeconds = seconds(started);
  progress(`packed the plugin: ${path.relative(APP_DIR, tarball)} (${timings.packSeconds} s)`);

  const manifest = siteManifest();
  generateSite(manifest);

  started = Date.now();
  const installLog = path.join(FRESH_SITE_DIR, 'install.log');
  const cached = await cachedDependencies(manifest, installLog);
  timings.cacheHit = cached.hit;
  timings.dependenciesSeconds = seconds(started);
  let step = Date.now();
  const how = await copyDependencies(cached.dir, FRESH_SITE_DIR, installLog);
  timings.copySeconds = seconds(step);
  progress(`${how} the site's dependencies from ${cached.dir} (${timings.copySeconds} s)`);
  step = Date.now();
  // As docs/installing.md says: `npm install /path/to/strapi-plugin-api-suite-<version>.tgz`.
  await run('npm', ['install', `./${path.relative(FRESH_SITE_DIR, tarball)}`, ...NPM_FLAGS], FRESH_SITE_DIR, installLog);
  timings.pluginInstallSeconds = seconds(step);
  timings.installSeconds = seconds(started);
  progress(
    `installed the plugin tarball with its dependencies (${timings.pluginInstallSeconds} s; install in all ${timings.installSeconds} s)`
  );

  await cleared;
  started = Date.now();
  // The port is free when chosen; should another process take it before Strapi binds it, once more.
  const site = await boot().catch((error: Error) => (/EADDRINUSE/.test(error.message) ? boot() : Promise.reject(error)));
  site.timings = timings;
  timings.bootSeconds = seconds(started);
  progress(`the site answers at ${site.url} (boot ${timings.bootSeconds} s; log ${path.relative(APP_DIR, site.logFile)})`);
  return site;
}

/** Move the previous sites aside at once and delete them in the background (`rm -rf` is faster than Node's). */
function clearPreviousSites(): Promise<unknown> {
  const parent = path.dirname(FRESH_SITE_DIR);
  const trash = `${FRESH_SITE_DIR}.trash-${Date.now()}`;
  if (fs.existsSync(FRESH_SITE_DIR)) fs.renameSync(FRESH_SITE_DIR, trash);
  const leftovers = fs
    .readdirSync(parent)
    .filter((name) => name.startsWith(`${path.basename(FRESH_SITE_DIR)}.trash-`))
    .map((name) => path.join(parent, name));
  return leftovers.length === 0 ? Promise.resolve() : run('rm', ['-rf', ...leftovers], parent);
}

const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=warn'];

/**
 * `npm pack` of the plugin as built by `npm run build:plugin` (the pretest step), or the tarball
 * FRESH_SITE_PLUGIN_TARBALL names (a release candidate, or one packed while no build was running).
 */
async function packPlugin(destination: string): Promise<string> {
  fs.mkdirSync(destination, { recursive: true });
  const given = process.env.FRESH_SITE_PLUGIN_TARBALL;
  if (given) {
    const tarball = path.join(destination, path.basename(given));
    fs.copyFileSync(path.resolve(given), tarball);
    return tarball;
  }
  if (!fs.existsSync(path.join(PLUGIN_DIR, 'dist', 'server', 'index.js'))) {
    throw new Error('The api-suite plugin is not built: run `npm run build:plugin` (npm test does) first');
  }
  const output = await run('npm', ['pack', '--json', '--pack-destination', destination], PLUGIN_DIR).catch((error: Error) => {
    throw new Error(`${error.message}\n(was the plugin being built at the same time? its dist/ changed while npm packed it)`);
  });
  const [packed] = JSON.parse(output.slice(output.indexOf('['))) as Array<{ filename: string }>;
  const tarball = path.join(destination, path.basename(packed.filename));
  if (!fs.existsSync(tarball)) throw new Error(`npm pack did not write ${tarball}`);
  return tarball;
}

interface SiteManifest {
  name: string;
  dependencies: Record<string, string>;
  allowScripts: Record<string, boolean>;
  [key: string]: unknown;
}

/**
 * The site's package.json without the plugin, as create-strapi-app writes it for a JavaScript site,
 * with exact versions: Strapi's (`FRESH_SITE_STRAPI`), and the ones this repository runs for the
 * rest; with `mysql2` for a site on MySQL, as create-strapi-app adds it.
 */
function siteManifest(): SiteManifest {
  const root = JSON.parse(fs.readFileSync(path.join(APP_DIR, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    allowScripts: Record<string, boolean>;
  };
  const same = (name: string) => {
    const version = root.dependencies[name];
    if (!version) throw new Error(`the repository's package.json has no ${name}`);
    return version;
  };
  return {
    name: 'fresh-site',
    private: true,
    version: '0.1.0',
    description: `A fresh Strapi ${FRESH_SITE_STRAPI} site with content types of its own, for the api-suite plugin (tests/site)`,
    scripts: { build: 'strapi build', develop: 'strapi develop', start: 'strapi start', strapi: 'strapi' },
    dependencies: {
      '@strapi/plugin-users-permissions': FRESH_SITE_STRAPI,
      '@strapi/strapi': FRESH_SITE_STRAPI,
      'better-sqlite3': same('better-sqlite3'),
      ...(FRESH_SITE_DATABASE === 'mysql' ? { mysql2: same('mysql2') } : {}),
      react: same('react'),
      'react-dom': same('react-dom'),
      'react-router-dom': same('react-router-dom'),
      'styled-components': same('styled-components'),
    },
    engines: { node: '>=20.0.0 <=26.x.x', npm: '>=6.0.0' },
    strapi: { telemetryDisabled: true },
    // npm 11 runs the install scripts of these only (better-sqlite3's native build among them).
    allowScripts: root.allowScripts,
  };
}

function generateSite(manifest: SiteManifest): void {
  fs.cpSync(TEMPLATE_DIR, FRESH_SITE_DIR, { recursive: true });
  for (const dir of ['public/uploads', 'database/migrations', '.tmp']) fs.mkdirSync(path.join(FRESH_SITE_DIR, dir), { recursive: true });
  fs.writeFileSync(path.join(FRESH_SITE_DIR, 'public', 'robots.txt'), 'User-Agent: *\nDisallow: /\n');
  fs.writeFileSync(path.join(FRESH_SITE_DIR, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * Install the site's dependencies into the cache now, unless they are there: CI does it beside
 * the type check and lint (`scripts/warm-fresh-site.js`), so that the fresh-site test, minutes
 * later, finds them (a cold install is about five minutes, mostly waiting on the registry).
 */
export async function warmFreshSiteDependencies(): Promise<{ dir: string; hit: boolean; seconds: number }> {
  const started = Date.now();
  const root = cacheRoot();
  fs.mkdirSync(root, { recursive: true });
  const cached = await cachedDependencies(siteManifest(), path.join(root, 'warm.log'));
  return { ...cached, seconds: seconds(started) };
}

/** Where installed dependencies are kept between runs: outside the clone, which CI makes afresh. */
export function cacheRoot(): string {
  return (
    process.env.FRESH_SITE_CACHE_DIR || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'api-suite-fresh-site')
  );
}

/**
 * The site's dependencies (everything but the plugin) installed with npm once per set of versions,
 * Node ABI, platform and npm major version, in `<cache>/<key>/` with its package-lock.json. A
 * miss installs into a staging directory renamed into place when complete, so an interrupted
 * install is never mistaken for a finished one and two runs at once cannot mix their files.
 */
async function cachedDependencies(manifest: SiteManifest, log: string): Promise<{ dir: string; hit: boolean }> {
  const npmVersion = (await run('npm', ['--version'], os.tmpdir())).trim();
  const key = crypto
    .createHash('sha256')
    .update(
      JSON.stringify({
        dependencies: manifest.dependencies,
        allowScripts: manifest.allowScripts,
        abi: process.versions.modules,
        platform: process.platform,
        arch: process.arch,
        npm: npmVersion.split('.')[0],
      })
    )
    .digest('hex')
    .slice(0, 16);
  const root = cacheRoot();
  const dir = path.join(root, key);
  const ready = path.join(dir, 'ready');
  // Another process installing the same key (CI's warm-up, started beside the tests): wait for its
  // install rather than make a second one beside it.
  await installedElsewhere(root, key, ready);
  if (fs.existsSync(ready)) {
    const now = new Date();
    fs.utimesSync(ready, now, now);
    progress(`dependencies cached in ${dir}`);
    return { dir, hit: true };
  }

  progress(`no cached install in ${dir}: installing Strapi ${FRESH_SITE_STRAPI} with npm (some minutes; better-sqlite3 may compile)`);
  fs.mkdirSync(root, { recursive: true });
  const staging = `${dir}.staging-${process.pid}-${Date.now()}`;
  fs.mkdirSync(staging);
  try {
    fs.writeFileSync(path.join(staging, 'package.json'), `${JSON.stringify({ ...manifest, name: 'fresh-site-dependencies' }, null, 2)}\n`);
    await run('npm', ['install', ...NPM_FLAGS], staging, log);
    // Strapi loads better-sqlite3's native module at boot: a failed build must not be cached.
    await run(process.execPath, ['-e', "new (require('better-sqlite3'))(':memory:').close()"], staging, log);
    fs.writeFileSync(path.join(staging, 'ready'), `${new Date().toISOString()}\n`);
    try {
      fs.renameSync(staging, dir);
    } catch (error) {
      // Another run finished the same install first: use theirs.
      if (!fs.existsSync(ready)) throw error;
      fs.rmSync(staging, { recursive: true, force: true });
    }
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  pruneCache(root, key);
  return { dir, hit: false };
}

/** How long to wait at most for another process's install of the same dependencies. */
const OTHER_INSTALL_WAIT_MS = 20 * 60_000;

/**
 * Wait while a live process has a staging directory for this key (`<key>.staging-<pid>-<time>`),
 * until its install is ready or it is gone (finished, failed or killed): then the caller looks
 * again, and installs itself only if nothing is ready.
 */
async function installedElsewhere(root: string, key: string, ready: string): Promise<void> {
  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const installer = (): number | undefined => {
    if (!fs.existsSync(root)) return undefined;
    for (const name of fs.readdirSync(root)) {
      const match = name.startsWith(`${key}.staging-`) ? /\.staging-(\d+)-/.exec(name) : null;
      const pid = match ? Number(match[1]) : NaN;
      if (pid !== process.pid && alive(pid)) return pid;
    }
    return undefined;
  };
  const until = Date.now() + OTHER_INSTALL_WAIT_MS;
  let pid = installer();
  if (pid === undefined) return;
  progress(`process ${pid} is installing these dependencies: waiting for it`);
  while (pid !== undefined && !fs.existsSync(ready) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    pid = installer();
  }
}

/**
 * Put the cached install into the site. Files are hard-linked (a second, against some seconds to
 * a minute for a copy of 66,000 files on a busy disk), which is safe because npm never writes into
 * an installed package's files: it extracts new packages into new directories, moves replaced
 * ones aside and deletes them. The files it does rewrite in place, its lockfiles, get copies of
 * their own. Where linking is impossible (the cache on another file system) the tree is copied.
 */
async function copyDependencies(cacheDir: string, siteDir: string, log: string): Promise<'linked' | 'copied'> {
  const from = path.join(cacheDir, 'node_modules');
  const to = path.join(siteDir, 'node_modules');
  let how: 'linked' | 'copied' = 'linked';
  try {
    await run('cp', ['-al', from, to], siteDir, log);
  } catch {
    fs.rmSync(to, { recursive: true, force: true });
    await run('cp', ['-a', from, to], siteDir, log);
    how = 'copied';
  }
  const hiddenLockfile = path.join(to, '.package-lock.json');
  fs.rmSync(hiddenLockfile, { force: true });
  fs.copyFileSync(path.join(from, '.package-lock.json'), hiddenLockfile);
  fs.copyFileSync(path.join(cacheDir, 'package-lock.json'), path.join(siteDir, 'package-lock.json'));
  return how;
}

/** Keep the most recently used installs only, and drop staging directories a killed run left. */
function pruneCache(root: string, current: string): void {
  const entries = fs.readdirSync(root).map((name) => {
    const ready = path.join(root, name, 'ready');
    const stat = fs.statSync(fs.existsSync(ready) ? ready : path.join(root, name));
    return { name, complete: fs.existsSync(ready), usedAt: stat.mtimeMs };
  });
  const stale = entries.filter((entry) => !entry.complete && entry.name.includes('.staging-') && Date.now() - entry.usedAt > 3_600_000);
  const complete = entries.filter((entry) => entry.complete && entry.name !== current).sort((a, b) => b.usedAt - a.usedAt);
  for (const entry of [...stale, ...complete.slice(CACHE_ENTRIES_KEPT - 1)]) {
    fs.rmSync(path.join(root, entry.name), { recursive: true, force: true });
  }
}

/** Secrets and settings a site owner would keep in .env, fresh for each run; `database` its URL when on MySQL. */
function siteEnvironment(port: number, database: string | undefined): Record<string, string> {
  const secret = () => crypto.randomBytes(16).toString('base64');
  return {
    ...inherited(['PATH', 'HOME', 'TMPDIR', 'LANG', 'LC_ALL', 'TZ']),
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(port),
    APP_KEYS: [secret(), secret()].join(','),
    API_TOKEN_SALT: secret(),
    ADMIN_JWT_SECRET: secret(),
    TRANSFER_TOKEN_SALT: secret(),
    JWT_SECRET: secret(),
    ENCRYPTION_KEY: secret(),
    // Webhook receivers are local.
    OUTBOUND_ALLOW_PRIVATE: 'true',
    ...(database ? { DATABASE_CLIENT: 'mysql', DATABASE_URL: database } : {}),
    STRAPI_TELEMETRY_DISABLED: 'true',
    // Modules resolved into the repository outside the site are refused (resolve-guard.js).
    FRESH_SITE_DIR,
    FRESH_SITE_REPOSITORY: APP_DIR,
    NODE_OPTIONS: `--require "${GUARD}"`,
  };
}

function inherited(names: string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name] as string]])));
}

/** The site's MySQL database (FRESH_SITE_DATABASE=mysql), made on first boot, dropped when the site stops. */
let mysqlDatabase: { url: string; drop: () => Promise<void> } | undefined;

async function siteDatabase(): Promise<string | undefined> {
  if (FRESH_SITE_DATABASE !== 'mysql') return undefined;
  const server = process.env.DATABASE_URL;
  if (!server?.startsWith('mysql:'))
    throw new Error('FRESH_SITE_DATABASE=mysql needs DATABASE_URL=mysql://… (the server to make its database on)');
  mysqlDatabase ??= await createMysqlDatabase(server, `fresh_site_${process.pid}_${Date.now()}`);
  return mysqlDatabase.url;
}

async function dropSiteDatabase(): Promise<void> {
  const dropped = mysqlDatabase;
  mysqlDatabase = undefined;
  await dropped?.drop();
}

async function boot(): Promise<FreshSite> {
  const port = await freePort();
  const database = await siteDatabase();
  const url = `http://127.0.0.1:${port}`;
  const logFile = path.join(FRESH_SITE_DIR, 'site.log');
  const out = fs.openSync(logFile, 'w');
  const child = spawn(path.join(FRESH_SITE_DIR, 'node_modules', '.bin', 'strapi'), ['start'], {
    cwd: FRESH_SITE_DIR,
    env: siteEnvironment(port, database),
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  let exitCode: number | null | undefined;
  // A test process that ends without its afterAll (interrupted) takes the site with it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  void exited.then((code) => {
    exitCode = code;
    process.removeListener('exit', killOnExit);
  });

  const logTail = (lines = 60) => fs.readFileSync(logFile, 'utf8').split('\n').slice(-lines).join('\n');
  const stop = async () => {
    if (exitCode === undefined) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    await dropSiteDatabase();
  };

  const deadline = Date.now() + 180_000;
  for (;;) {
    if (exitCode !== undefined)
      throw new Error(`the site exited (code ${exitCode}) before answering; the end of ${logFile}:\n${logTail()}`);
    const status = await fetch(`${url}/api/api-suite/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.status,
      () => 0
    );
    if (status === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`GET /api/api-suite/health did not answer 200 within 180 s (last: ${status}); the end of ${logFile}:\n${logTail()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { dir: FRESH_SITE_DIR, url, request: () => supertest(url), logFile, logTail, timings: {}, stop };
}

/** A port free on 127.0.0.1 now (the site binds it a moment later). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Run a command; resolve with its stdout, or reject with the end of its output. Output is appended to `log` when given. */
function run(command: string, args: string[], cwd: string, log?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: commandEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let output = '';
    const record = (chunk: Buffer, isStdout: boolean) => {
      const text = chunk.toString('utf8');
      if (isStdout) stdout += text;
      output = (output + text).slice(-20_000);
      if (log) fs.appendFileSync(log, text);
    };
    if (log) fs.appendFileSync(log, `\n$ (cd ${cwd} && ${command} ${args.join(' ')})\n`);
    child.stdout.on('data', (chunk: Buffer) => record(chunk, true));
    child.stderr.on('data', (chunk: Buffer) => record(chunk, false));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve(stdout);
      else
        reject(new Error(`\`${command} ${args.join(' ')}\` in ${cwd} failed (exit ${code}):\n${output.split('\n').slice(-40).join('\n')}`));
    });
  });
}

/**
 * The environment of npm and cp: this process's, without what `npm test` set for this repository
 * (its package, its lifecycle, its prefix and workspaces), which would point a nested npm here.
 */
function commandEnvironment(): NodeJS.ProcessEnv {
  const keep = new Set(['npm_config_registry', 'npm_config_cache', 'npm_config_userconfig', 'npm_config_cafile']);
  return Object.fromEntries(
    Object.entries(process.env)
      .filter(([name]) => !/^npm_/i.test(name) || keep.has(name.toLowerCase()))
      .filter(([name]) => name !== 'INIT_CWD')
  );
}
