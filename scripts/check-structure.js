#!/usr/bin/env node
/**
 * Part of `npm run lint`, three rules of the codebase's shape (docs/architecture.md#layout):
 *
 * - No server file of the plugin grows past 400 lines. A file that long has taken on a second
 *   concern; split it by concern before adding more.
 * - No refusal is thrown as a bare kind (`new InvalidError(…)`, `new ConflictError(…)`, …): each is
 *   a small class named by what went wrong (`ScraperAlreadyRunningError`), in its feature's
 *   `errors.ts`, extending the kind that gives its status.
 * - The browsers' clients (`admin/src/api.ts`, `portal/src/api.ts`) declare no answer type of their
 *   own: every answer is typed from the server's zod schemas through `shared/api-types.ts`. An
 *   object type written there (`interface`, `type X = { … }`, or `request<{ … }>` with a field other
 *   than the `data` envelope) would drift from what the server answers. Strapi's own answers, which
 *   the plugin has no schema of, are named in ALLOWED with why.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const PLUGIN = path.join(ROOT, 'src', 'plugins', 'api-suite');
const LIMIT = 400;
const CLIENTS = ['admin/src/api.ts', 'portal/src/api.ts'];
/** Types a client may declare: answers of Strapi's own routes, not the plugin's. */
const ALLOWED = new Set([
  // users-permissions' /api/auth/local and /api/auth/local/register answer.
  'SignedIn',
]);

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (/\.tsx?$/.test(entry.name)) yield full;
  }
}

/** Plugin paths a client may name outside a contract call: the OpenAPI document's, read as a document rather than an answer. */
const OWN_PATHS = new Set(['/api/v1/openapi.json', '/api/v1/openapi.d.ts']);

/** The kinds of refusal in server/src/errors.ts: bases of the named refusals, never thrown themselves. */
const KIND = /\bnew (InvalidError|UnauthenticatedError|ForbiddenError|ConflictError|UnprocessableError|FailedError|UnavailableError)\(/g;

const problems = [];
for (const file of files(path.join(PLUGIN, 'server', 'src'))) {
  const text = fs.readFileSync(file, 'utf8');
  const lines = text.split('\n').length - 1;
  if (lines > LIMIT) problems.push(`${path.relative(ROOT, file)}: ${lines} lines, over ${LIMIT} (split it by concern)`);
  for (const match of text.matchAll(KIND)) {
    const line = text.slice(0, match.index).split('\n').length;
    problems.push(
      `${path.relative(ROOT, file)}:${line}: new ${match[1]}: name the refusal by what went wrong (a class in the feature's errors.ts that extends ${match[1]})`
    );
  }
}

for (const client of CLIENTS) {
  const file = path.join(PLUGIN, client);
  if (!fs.existsSync(file)) continue;
  const text = fs.readFileSync(file, 'utf8');
  const where = (index) => `${path.relative(ROOT, file)}:${text.slice(0, index).split('\n').length}`;
  for (const match of text.matchAll(/^export\s+(?:interface\s+(\w+)|type\s+(\w+)\s*=\s*\{)/gm)) {
    const name = match[1] ?? match[2];
    if (!ALLOWED.has(name))
      problems.push(`${where(match.index)}: ${name} is an answer type written by hand (type it from shared/api-types.ts)`);
  }
  // A contract's key starts with its method, so only a bare path matches; comments are blanked out first.
  const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (comment) => comment.replace(/[^\n]/g, ' '));
  for (const match of code.matchAll(/(['"`])((?:\/api\/v1|\/api\/webhooks|\/api-suite)[^'"`]*)\1/g)) {
    if (!OWN_PATHS.has(match[2]))
      problems.push(`${where(match.index)}: ${match[2]} is a route's path written by hand: call it by its contract (shared/client.ts)`);
  }
  for (const match of text.matchAll(/request<\{([^}]*)\}/g)) {
    const keys = [...match[1].matchAll(/(\w+)\??\s*:/g)].map((key) => key[1]);
    const own = keys.filter((key) => key !== 'data');
    if (own.length > 0)
      problems.push(`${where(match.index)}: an answer typed by hand (${own.join(', ')}): type it from shared/api-types.ts`);
  }
}

if (problems.length > 0) {
  console.error("The codebase's shape (docs/architecture.md#layout):");
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(
  `structure: every server file is within ${LIMIT} lines and names its refusals; the browsers' clients call every route by its contract and type every answer from the server's schemas`
);
