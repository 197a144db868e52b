#!/usr/bin/env node
'use strict';
/**
 * `npm run build:plugin`: builds the api-suite plugin (its server, admin and portal bundles) unless
 * its last build was made from the same inputs. `npm test`, `npm run develop` and `npm run build`
 * all build it first; a build takes about 30 s of CPU, so an unchanged plugin is not built again.
 * The inputs are every file of the plugin but its output (dist) and dependencies, and the lockfile;
 * their digest is kept in dist/.inputs. `--force` builds whatever the digest says.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const plugin = path.join(root, 'src', 'plugins', 'api-suite');
const stamp = path.join(plugin, 'dist', '.inputs');
const SKIP = new Set(['dist', 'node_modules', '.turbo']);

function files(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !(dir === plugin && SKIP.has(entry.name)))
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return files(full);
      return entry.isFile() ? [full] : [];
    });
}

function digest() {
  const hash = crypto.createHash('sha256');
  for (const file of [...files(plugin), path.join(root, 'package-lock.json')]) {
    hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

const before = digest();
if (!process.argv.includes('--force') && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === before) {
  console.log('[build:plugin] the api-suite plugin is up to date (its inputs are those of its last build)');
  process.exit(0);
}
const built = spawnSync('npm', ['run', 'build', '--workspace', 'strapi-plugin-api-suite'], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);
// Inputs edited while the build ran are not what it built: leave no stamp, so the next run builds.
if (digest() === before) fs.writeFileSync(stamp, before);
