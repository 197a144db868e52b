'use strict';
/**
 * Loaded with `node --require` into the fresh site's process. The site lives in .tmp/fresh-site,
 * inside this repository, so Node would reach the repository's own node_modules by walking up
 * from it: a dependency the plugin forgot to declare, or one npm failed to install, would still
 * load. Here a module that resolves into the repository but outside the site is refused as if it
 * were not installed, and said so on stderr (the site's log): the site runs on what it installed,
 * as it would anywhere else.
 */
const Module = require('node:module');
const path = require('node:path');

const site = path.resolve(process.env.FRESH_SITE_DIR || process.cwd()) + path.sep;
const repository = path.resolve(process.env.FRESH_SITE_REPOSITORY || path.join(site, '..', '..')) + path.sep;
const resolveFilename = Module._resolveFilename;
const reported = new Set();

Module._resolveFilename = function guardedResolveFilename(request, parent, ...rest) {
  const resolved = resolveFilename.call(this, request, parent, ...rest);
  if (path.isAbsolute(resolved) && resolved.startsWith(repository) && !resolved.startsWith(site)) {
    if (!reported.has(resolved)) {
      reported.add(resolved);
      process.stderr.write(
        `[fresh-site guard] require('${request}') from ${parent && parent.filename} resolves into the repository outside the site, to ${resolved}: refused\n`
      );
    }
    const error = new Error(`Cannot find module '${request}' in the site (it exists only outside it, at ${resolved})`);
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  }
  return resolved;
};
