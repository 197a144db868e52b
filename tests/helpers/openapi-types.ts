import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { APP_DIR, TEST_TMP_DIR } from './paths';

/**
 * Compiles a small program against the API's TypeScript types (`GET /api/v1/openapi.d.ts`) with
 * the project's `tsc`, strict, as a consumer's own code would use them with `openapi-fetch`. The
 * files are written under the app's .tmp/, so `openapi-fetch` resolves from the app's
 * node_modules. Answers tsc's exit code and what it printed.
 */
export async function compileWithTypes(types: string, program: string): Promise<{ code: number; output: string }> {
  fs.mkdirSync(TEST_TMP_DIR, { recursive: true });
  const dir = fs.mkdtempSync(path.join(TEST_TMP_DIR, 'openapi-types-'));
  try {
    // An ES module, as openapi-fetch is.
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
    fs.writeFileSync(path.join(dir, 'api.d.ts'), types);
    fs.writeFileSync(path.join(dir, 'client.ts'), program);
    return await new Promise((resolve, reject) => {
      execFile(
        process.execPath,
        [
          path.join(APP_DIR, 'node_modules', 'typescript', 'bin', 'tsc'),
          '--noEmit',
          '--strict',
          '--target',
          'es2022',
          '--module',
          'nodenext',
          '--moduleResolution',
          'nodenext',
          '--lib',
          'es2022,dom',
          '--types',
          'node',
          '--typeRoots',
          path.join(APP_DIR, 'node_modules', '@types'),
          path.join(dir, 'client.ts'),
        ],
        { cwd: dir, timeout: 120_000 },
        (error, stdout, stderr) => {
          const failure = error as (NodeJS.ErrnoException & { killed?: boolean; code?: number | string }) | null;
          if (failure && (failure.killed || typeof failure.code !== 'number')) reject(new Error(`tsc did not run: ${failure.message}`));
          else resolve({ code: failure ? Number(failure.code) : 0, output: `${stdout}${stderr}` });
        }
      );
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A consumer's call of `GET /api/v1/articles?limit=1` through openapi-fetch, typed by the downloaded types; `path` swaps the route. */
export function openapiFetchProgram(route = '/api/v1/articles'): string {
  return [
    `import createClient from 'openapi-fetch';`,
    `import type { paths } from './api.js';`,
    ``,
    `const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:1337', headers: { 'X-API-Key': 'sk_test' } });`,
    `export async function firstTitle(): Promise<string | undefined> {`,
    `  const { data, error } = await client.GET('${route}', { params: { query: { limit: 1 } } });`,
    `  if (error) throw new Error(error.error.message);`,
    `  return data?.data[0]?.title;`,
    `}`,
    ``,
  ].join('\n');
}
