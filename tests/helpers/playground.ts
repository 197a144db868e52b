import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { APP_DIR } from './paths';
import { eventually } from './wait';

/** `npm run playground` (scripts/playground.js) running, with what it printed so far. */
export interface Playground {
  url: string;
  lines: string[];
  stop(): Promise<void>;
}

/** `npm run playground`'s script on a port of its own (or `port`), its printed lines kept. */
export async function startPlayground(
  port = 20_000 + Math.floor(Math.random() * 20_000),
  env: Record<string, string> = {}
): Promise<Playground> {
  const child: ChildProcess = spawn(process.execPath, [path.join(APP_DIR, 'scripts', 'playground.js')], {
    env: { ...process.env, ...env, PLAYGROUND_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let pending = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    lines.push(...parts);
  });
  child.stderr?.on('data', (chunk: Buffer) => lines.push(`stderr: ${chunk.toString('utf8')}`));
  await eventually(() => (lines.some((line) => line.includes('listening on')) ? true : undefined), 10_000, 'the playground listening');
  return {
    url: `http://127.0.0.1:${port}`,
    lines,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The playground's printed deliveries (`[time] delivery <type>, signature …`). */
export const deliveriesPrinted = (playground: Playground | undefined): string[] =>
  (playground?.lines ?? []).filter((line) => line.includes('] delivery '));
