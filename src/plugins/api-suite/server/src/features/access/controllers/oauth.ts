import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../../utils';
import type { TokenRequest } from '../services/oauth';

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  /** RFC 6749 section 4.4; errors in the section 5.2 shape (middlewares/oauth-errors.ts), never cached. */
  async token(ctx: Context) {
    ctx.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    const body = (typeof ctx.request.body === 'object' && ctx.request.body !== null ? ctx.request.body : {}) as TokenRequest;
    ctx.body = await getService(strapi, 'oauth').issueToken(body, parseBasic(ctx.get('authorization')));
  },
});

/** client_secret_basic (RFC 6749 section 2.3.1): form-encoded id and secret in a Basic header. */
function parseBasic(header: string): { clientId: string; clientSecret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { clientId: decodeURIComponent(decoded.slice(0, colon)), clientSecret: decodeURIComponent(decoded.slice(colon + 1)) };
}
