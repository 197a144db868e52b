import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { assertRedisReachable } from './services';
import { eventually } from './wait';

/**
 * Services a fault test starts for itself, to stop them as an operator would without touching the
 * ones the other test files use: a Redis with no persistence (`redis-server`), and a PostgreSQL
 * cluster (`initdb`, `pg_ctl`). Both must be installed; a test that cannot start one fails and
 * says which program it needs.
 */

export interface OwnRedis {
  url: string;
  /** Kill it without saving (SIGKILL): everything it held is gone. */
  kill(): Promise<void>;
  /** Start it again on the same port: empty, as Redis without persistence comes back. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** `redis-server` on a free port of 127.0.0.1, with `--save ""` and `--appendonly no`. */
export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'own-redis-'));
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  const start = async (): Promise<void> => {
    const started = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', dir],
      { stdio: 'ignore' }
    );
    child = started;
    const failed = new Promise<never>((_resolve, reject) => {
      started.once('error', (error) => reject(new Error(`redis-server could not be started (is it installed?): ${error.message}`)));
      started.once('exit', (code) => reject(new Error(`redis-server exited at once with code ${code}`)));
    });
    failed.catch(() => undefined);
    await Promise.race([
      failed,
      eventually(
        () =>
          assertRedisReachable(url).then(
            () => true,
            () => undefined
          ),
        10_000,
        `redis-server on port ${port} to answer`
      ),
    ]);
  };

  const kill = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGKILL');
    await exited;
  };

  await start();
  return {
    url,
    kill,
    start,
    async close() {
      await kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface OwnPostgres {
  /** The server's URL (database `postgres`), for `startApp({ postgres })`. */
  url: string;
  /** `pg_ctl stop -m fast`: open connections are cut and new ones refused until `start`. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A throwaway PostgreSQL cluster on a free port of 127.0.0.1 (trust authentication, fsync off).
 * PostgreSQL refuses to run as root: as root, its programs run as the `postgres` user.
 */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bin = postgresBinDir();
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'own-postgres-'));
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gids = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (ids.status !== 0) throw new Error('running as root, the PostgreSQL cluster needs a `postgres` user to run as');
    fs.chownSync(dir, Number(ids.stdout.trim()), Number(gids.stdout.trim()));
  }
  // Run without blocking: the app under test shares this process and goes on serving meanwhile.
  const run = (program: string, args: string[]): Promise<void> =>
    new Promise((resolve, reject) => {
      const command = asRoot ? 'runuser' : path.join(bin, program);
      const argv = asRoot ? ['-u', 'postgres', '--', path.join(bin, program), ...args] : args;
      const child = spawn(command, argv, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('error', (error) => reject(new Error(`${program} could not be run: ${error.message}`)));
      child.once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`${program} ${args.join(' ')} failed (${code}): ${output}`))
      );
    });
  await run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const start = (): Promise<void> => run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '30', 'start']);
  const stop = (): Promise<void> => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']);
  await start();
  let running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await stop();
      running = false;
    },
    async start() {
      await start();
      running = true;
    },
    async close() {
      if (running) await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `PG_BIN`, else the newest `/usr/lib/postgresql/<version>/bin` (Debian's layout), else `pg_config --bindir`. */
function postgresBinDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((name) => fs.existsSync(path.join(root, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length > 0) return path.join(root, versions[0], 'bin');
  const config = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (config.status === 0 && fs.existsSync(path.join(config.stdout.trim(), 'initdb'))) return config.stdout.trim();
  throw new Error('initdb and pg_ctl were not found: install PostgreSQL or set PG_BIN to the directory holding them');
}

/** A port of 127.0.0.1 that was free a moment ago. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
