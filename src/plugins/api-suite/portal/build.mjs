// Builds the consumer portal (portal/src) into dist/portal: hashed files under assets/ and a
// manifest naming them, which the server's portal feature reads to write the page. Offline:
// esbuild and the installed React are all it needs. Run after `strapi-plugin build`, which
// empties dist/. Code splitting is on: a page imported with `import()` (the API reference) is a
// file of its own, loaded when it is first opened, and what pages share is one more file; all of
// them flat under assets/, where the page's script imports them relatively.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const outdir = path.resolve(here, '..', 'dist', 'portal');
fs.rmSync(outdir, { recursive: true, force: true });

const result = await build({
  entryPoints: { portal: path.join(here, 'src', 'main.tsx') },
  outdir: path.join(outdir, 'assets'),
  entryNames: '[name]-[hash]',
  chunkNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  splitting: true,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
  jsx: 'automatic',
  minify: true,
  legalComments: 'eof',
  define: { 'process.env.NODE_ENV': '"production"' },
  metafile: true,
  logLevel: 'warning',
});

const outputs = Object.entries(result.metafile.outputs);
// Lazily loaded pages are entry points of the metafile too: the page's script is main.tsx's.
const script = outputs.find(([, output]) => output.entryPoint?.endsWith('src/main.tsx'))?.[0];
if (!script) throw new Error('portal build: no script was written');
const styles = outputs.filter(([file]) => file.endsWith('.css')).map(([file]) => path.basename(file));
// What every page loads: the script, the files it imports statically (code shared with the pages
// loaded later, named in the page as modulepreload so that the browser fetches them beside the
// script rather than after it), and the styles.
const initial = new Set([script]);
for (const file of initial)
  for (const imported of result.metafile.outputs[file].imports) if (imported.kind === 'import-statement') initial.add(imported.path);
const preload = [...initial].filter((file) => file !== script).map((file) => path.basename(file));
const manifest = { script: path.basename(script), styles, preload };
fs.writeFileSync(path.join(outdir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
const bytes = outputs.reduce((sum, [, output]) => sum + output.bytes, 0);
const initialBytes = [...initial, ...outputs.filter(([file]) => file.endsWith('.css')).map(([file]) => file)].reduce(
  (sum, file) => sum + result.metafile.outputs[file].bytes,
  0
);
const lazy = outputs.filter(([file]) => file.endsWith('.js') && !initial.has(file));
console.info(
  `portal: ${manifest.script}, ${styles.join(', ')} (${Math.round(initialBytes / 1024)} KiB on every page` +
    `${lazy.length ? `, ${Math.round((bytes - initialBytes) / 1024)} KiB loaded when needed in ${lazy.map(([file]) => path.basename(file)).join(', ')}` : ''}` +
    `) in ${path.relative(process.cwd(), outdir)}`
);
