import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../../utils';

/** The page and its files. Both set the portal's own CSP, replacing the one Strapi's security middleware set for the API. */
export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async page(ctx: Context) {
    const portal = getService(strapi, 'portal');
    ctx.set(portal.headers());
    // Under assets/ only built files exist (the asset route): anything else there is a missing file, not a client route.
    const rest = String(ctx.params.path ?? '');
    if (rest === 'assets' || rest.startsWith('assets/')) return notFound(ctx);
    const page = await portal.page();
    if (!page) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = "The portal is not built: run the plugin's build (npm run build in strapi-plugin-api-suite).";
      return;
    }
    // The page names the current asset files, so it is never cached; the files themselves are.
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page;
  },

  async asset(ctx: Context) {
    const portal = getService(strapi, 'portal');
    const asset = portal.asset(String(ctx.params.file ?? ''));
    ctx.set(portal.headers());
    if (!asset) return notFound(ctx);
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.type = asset.contentType;
    ctx.body = asset.body;
  },
});

function notFound(ctx: Context): void {
  ctx.status = 404;
  ctx.type = 'text/plain';
  ctx.body = 'Not found';
}
