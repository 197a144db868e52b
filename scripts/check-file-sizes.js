#!/usr/bin/env node
/**
 * Part of `npm run lint`: no server file of the plugin grows past 400 lines. A file that long has
 * taken on a second concern; split it by concern (docs/architecture.md#layout) before adding more.
 */
const fs = require('node:fs');
const path = require('node:path');

const LIMIT = 400;
const root = path.join(__dirname, '..', 'src', 'plugins', 'api-suite', 'server', 'src');

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (/\.tsx?$/.test(entry.name)) yield full;
  }
}

const over = [];
for (const file of files(root)) {
  const lines = fs.readFileSync(file, 'utf8').split('\n').length - 1;
  if (lines > LIMIT) over.push({ file: path.relative(path.join(__dirname, '..'), file), lines });
}
if (over.length > 0) {
  over.sort((a, b) => b.lines - a.lines);
  console.error(`Server files over ${LIMIT} lines (split each by concern, docs/architecture.md#layout):`);
  for (const { file, lines } of over) console.error(`  ${file}: ${lines}`);
  process.exit(1);
}
console.log(`file sizes: every server file is within ${LIMIT} lines`);
