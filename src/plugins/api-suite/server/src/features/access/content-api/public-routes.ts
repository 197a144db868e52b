import type { Core } from '@strapi/strapi';
import { contentRoutes } from '../../content/routes';
import { watchedTypes } from '../../content/watched';
import { ownersOf } from './owners';

/**
 * The watched types' content-API routes anyone may call now, without a key and uncounted: those
 * asking for no credential (`auth: false`) and those the Public role may call (Settings → Roles →
 * Public), read as the content API's auth reads them. As "METHOD /api/path-template"
 * (`GET /api/articles/{id}`).
 */
export async function publicContentRoutes(strapi: Core.Strapi): Promise<string[]> {
  const ability = await ownersOf(strapi).publicAbility();
  const watched = new Set(watchedTypes(strapi).map((type) => type.uid));
  const routes: string[] = [];
  for (const [uid, list] of contentRoutes(strapi)) {
    if (!watched.has(uid)) continue;
    for (const route of list)
      if (route.open || ability.can(`${uid}.${route.action}`)) routes.push(`${route.method.toUpperCase()} ${route.path}`);
  }
  return routes;
}
