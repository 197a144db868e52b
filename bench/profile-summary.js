#!/usr/bin/env node
/**
 * Where a server's CPU went during a benchmark's busy stretches, from the profile `--profile`
 * writes (`node --cpu-prof`): `node bench/profile-summary.js <file.cpuprofile> [--after planRound]
 * [--busy 0.6] [--top 30]`.
 *
 * Only samples after the first one whose stack holds `--after` count (so a Strapi boot is left
 * out), and of those only the 250 ms windows where the process was busier than `--busy` (the
 * bursts, not the idle time between phases). Prints one JSON line: the share of the kept samples
 * by self time per function (`name file:line`), per package or plugin folder, and the kept
 * duration.
 */
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('./lib/app');

const file = process.argv[2];
const args = parseArgs(process.argv.slice(3));
if (!file || file.startsWith('--')) {
  console.error('usage: node bench/profile-summary.js <file.cpuprofile> [--after planRound] [--busy 0.6] [--top 30]');
  process.exit(2);
}
const after = args.after ?? 'planRound';
const busy = Number(args.busy ?? 0.6);
const top = Number(args.top ?? 30);
const WINDOW_US = 250_000;

const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const IDLE = new Set(['(idle)', '(program)']);
const stackHas = (id, name) => {
  for (let at = id; at !== undefined; at = parent.get(at)) if (nodes.get(at).callFrame.functionName === name) return true;
  return false;
};

// Each sample's time, from the deltas.
const times = [];
let now = profile.startTime;
for (const delta of profile.timeDeltas) times.push((now += delta));

let start = times.length;
for (let index = 0; index < profile.samples.length; index += 1) {
  if (stackHas(profile.samples[index], after)) {
    start = index;
    break;
  }
}

// The busy windows after it.
const windows = new Map();
for (let index = start; index < profile.samples.length; index += 1) {
  const window = Math.floor((times[index] - times[start]) / WINDOW_US);
  const counts = windows.get(window) ?? { busy: 0, all: 0 };
  counts.all += 1;
  if (!IDLE.has(nodes.get(profile.samples[index]).callFrame.functionName)) counts.busy += 1;
  windows.set(window, counts);
}
const kept = new Set([...windows].filter(([, counts]) => counts.busy / counts.all > busy).map(([window]) => window));

const byFunction = new Map();
const byPlace = new Map();
let total = 0;
for (let index = start; index < profile.samples.length; index += 1) {
  if (!kept.has(Math.floor((times[index] - times[start]) / WINDOW_US))) continue;
  const { callFrame } = nodes.get(profile.samples[index]);
  if (callFrame.functionName === '(idle)') continue;
  total += 1;
  const where = callFrame.url ? `${path.basename(callFrame.url)}:${callFrame.lineNumber + 1}` : '';
  const name = `${callFrame.functionName || '(anonymous)'} ${where}`.trim();
  byFunction.set(name, (byFunction.get(name) ?? 0) + 1);
  byPlace.set(placeOf(callFrame.url, callFrame.functionName), (byPlace.get(placeOf(callFrame.url, callFrame.functionName)) ?? 0) + 1);
}

/** A package (`undici`, `bullmq`, `pg`…), the plugin's own code by folder, node's internals, or V8's own entries (GC…). */
function placeOf(url, name) {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return 'node';
  const plugin = url.indexOf('api-suite/dist/server/');
  if (plugin >= 0) return 'plugin';
  return path.basename(url);
}

const share = (map) =>
  Object.fromEntries(
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, count]) => [name, Number(((100 * count) / Math.max(1, total)).toFixed(1))])
  );

console.log(
  JSON.stringify({
    samples: total,
    kept_ms: kept.size * (WINDOW_US / 1000),
    busy_windows: kept.size,
    by_place_percent: share(byPlace),
    by_function_percent: share(byFunction),
  })
);
