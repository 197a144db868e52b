// Builds the consumer portal (portal/src) into dist/portal: hashed files under assets/ and a
// manifest naming them, which the server's portal feature reads to write the page. Offline:
// esbuild and the installed React are all it needs. Run after `strapi-plugin build`, which
// empties dist/.
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
  assetNames: '[name]-[hash]',
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
const script = outputs.find(([, output]) => output.entryPoint)?.[0];
if (!script) throw new Error('portal build: no script was written');
const styles = outputs.filter(([file]) => file.endsWith('.css')).map(([file]) => path.basename(file));
const manifest = { script: path.basename(script), styles };
fs.writeFileSync(path.join(outdir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
const bytes = outputs.reduce((sum, [, output]) => sum + output.bytes, 0);
console.info(
  `portal: ${manifest.script}, ${styles.join(', ')} (${Math.round(bytes / 1024)} KiB) in ${path.relative(process.cwd(), outdir)}`
);
