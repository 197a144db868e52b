#!/usr/bin/env node
/**
 * The registry mirror this project installs from carries only the Linux builds of packages that
 * ship one native binary per platform (@swc/core-*, @rollup/rollup-*, @unrs/resolver-binding-*).
 * npm then leaves the other platforms out of package-lock.json, and `npm ci` refuses the lock
 * ("Missing: @swc/core-darwin-arm64@ from lock file"). This adds those entries back as npm
 * itself writes them on a full registry: optional, with the version the parent asks for and the
 * os/cpu that make every other platform skip them. Run it after any `npm install`:
 *   node scripts/lockfile-platform-stubs.js
 */
const fs = require('node:fs');
const path = require('node:path');

const lockPath = path.resolve(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const OS = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openbsd', 'openharmony', 'sunos', 'aix'];
const CPU = {
  arm64: 'arm64',
  x64: 'x64',
  arm: 'arm',
  ia32: 'ia32',
  ppc64: 'ppc64',
  s390x: 's390x',
  riscv64: 'riscv64',
  loong64: 'loong64',
};

let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const parentDir = location === '' ? '' : `${location}/`;
    const candidates = [`${parentDir}node_modules/${name}`, `node_modules/${name}`];
    if (candidates.some((key) => packages[key])) continue;
    const platform = platformOf(name);
    if (!platform) continue; // not a per-platform binary: leave it to npm
    if (!/^\d+\.\d+\.\d+/.test(version)) continue; // only exact pins can be written without the registry
    packages[`node_modules/${name}`] = {
      version,
      optional: true,
      os: [platform.os],
      cpu: [platform.cpu],
      ...(platform.libc ? { libc: [platform.libc] } : {}),
    };
    added += 1;
  }
}

if (added > 0) {
  lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
  fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
}
console.log(`[lockfile] added ${added} platform entries`);

function platformOf(name) {
  const tail = name.split('/').pop();
  const os = OS.find((candidate) => tail.includes(`-${candidate}-`));
  if (!os) return undefined;
  const rest = tail.slice(tail.indexOf(`-${os}-`) + os.length + 2);
  const cpuName = Object.keys(CPU).find((candidate) => rest === candidate || rest.startsWith(`${candidate}-`));
  if (!cpuName) return undefined;
  const libc = /musl/.test(rest) ? 'musl' : /gnu/.test(rest) ? 'glibc' : undefined;
  return { os, cpu: CPU[cpuName], libc };
}
