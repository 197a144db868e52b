'use strict';
const fs = require('node:fs');
const path = require('node:path');

/**
 * Compile the app as `strapi develop` does: first empty `dist/` but for the admin build and the
 * TypeScript cache, since compiled code of a source that no longer exists would still be loaded
 * (a removed route would keep answering). Used by the tests' global setup and the benchmarks.
 */
async function compileApp(appDir) {
  const distDir = path.join(appDir, 'dist');
  if (fs.existsSync(distDir)) {
    for (const name of fs.readdirSync(distDir)) {
      if (name === 'build' || name.endsWith('.tsbuildinfo')) continue;
      fs.rmSync(path.join(distDir, name), { recursive: true, force: true });
    }
  }
  const { compileStrapi } = require('@strapi/strapi');
  await compileStrapi({ appDir });
}

module.exports = { compileApp };
