import type { Context } from 'koa';
import { openApiDocument } from '../document';

/** The document is static: serialised once, answered as JSON. */
const body = JSON.stringify(openApiDocument);

export default () => ({
  async document(ctx: Context) {
    ctx.type = 'application/json';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = body;
  },
});
