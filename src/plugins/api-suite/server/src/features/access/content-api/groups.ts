import type { Core } from '@strapi/strapi';
import { getConfig } from '../../../utils';
import { watchedTypes } from '../../content/watched';
import type { EndpointGroups } from '../endpoints';

/** The plugin's own routes a paying plan reaches by default: scrapers and webhook subscriptions. */
const OWN_PRIVATE_ROUTES = ['* /api/v1/scrapers*', 'POST /api/v1/webhooks', '* /api/webhooks/*'];

/**
 * The endpoint groups a plan may name: `@content`, every content-API route of the site's watched
 * content types (each type's routes live under its base path, `/api/recipes` and below,
 * `/api/about` for a single type, custom routes of its API included), and `@public` and
 * `@private` as the plugin config names them. Where it does not, they are the site's own:
 * `@public` reads its content API (GET), `@private` reaches all of it, the scrapers and the
 * webhook subscriptions.
 */
export function endpointGroupsOf(strapi: Core.Strapi): EndpointGroups {
  const { endpointGroups } = getConfig(strapi).access;
  const content = contentPatterns(strapi);
  return {
    public: endpointGroups.public ?? content.map((pattern) => pattern.replace(/^\* /, 'GET ')),
    private: endpointGroups.private ?? [...content, ...OWN_PRIVATE_ROUTES],
    content,
  };
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
