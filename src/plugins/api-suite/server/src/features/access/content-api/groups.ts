import type { Core } from '@strapi/strapi';
import { getConfig } from '../../../utils';
import { watchedTypes } from '../../content/watched';
import type { EndpointGroups } from '../endpoints';

/**
 * The endpoint groups a plan may name: `@public` and `@private` from the plugin config, and
 * `@content`, every content-API route of the site's watched content types. Each type's routes
 * live under its base path (`/api/recipes` and below, `/api/about` for a single type), custom
 * routes of its API included.
 */
export function endpointGroupsOf(strapi: Core.Strapi): EndpointGroups {
  const { endpointGroups } = getConfig(strapi).access;
  return { ...endpointGroups, content: contentPatterns(strapi) };
}

const patterns = new WeakMap<Core.Strapi, string[]>();

/** Computed once per app: the content types do not change while it runs. */
function contentPatterns(strapi: Core.Strapi): string[] {
  let found = patterns.get(strapi);
  if (!found) {
    found = watchedTypes(strapi).flatMap((type) => [`* ${type.basePath}`, `* ${type.basePath}/*`]);
    patterns.set(strapi, found);
  }
  return found;
}
