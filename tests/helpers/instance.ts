import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import supertest from 'supertest';
import type { TestApp } from './app';
import { APP_DIR, DIST_DIR } from './paths';

export interface Instance {
  url: string;
  request: () => ReturnType<typeof supertest>;
  process: ChildProcess;
  /** SIGTERM and wait for a clean exit. */
  stop: () => Promise<void>;
  /** SIGKILL: the process dies at once, mid-work. */
  kill: () => Promise<void>;
  /** What the process wrote so far, stdout and stderr (its log lines, the boot's among them). */
  output: () => string;
}

/**
 * Start another process of the app beside `app`, sharing its database, Redis and queue names,
 * as a second server behind a load balancer would.
 */
export async function startInstance(app: TestApp, extraEnv: Record<string, string> = {}): Promise<Instance> {
  const env = { ...process.env, ...definedOnly(app.env), ...extraEnv };
  const child = spawn(process.execPath, [path.join(__dirname, 'instance-main.js'), APP_DIR, DIST_DIR], {
    cwd: APP_DIR,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    output += chunk.toString();
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const port = await new Promise<number>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`second instance did not start within 60 s:\n${stderr}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /\{"port":(\d+)\}/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`second instance exited with ${code}:\n${stderr}`));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    request: () => supertest(url),
    process: child,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
    output: () => output,
  };
}

function definedOnly(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
