import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';

/**
 * The Content Manager's relation pickers (`GET /content-manager/relations/:model/:targetField`
 * and `…/:model/:id/:targetField`) answer 403 to a role that may not read the field, as the
 * Content Manager's other routes do, instead of 500.
 *
 * Their controller checks the permission itself: it answers `ctx.forbidden()` and returns
 * nothing from `extractAndValidateRequestInfo`, and both handlers then destructure that nothing,
 * a TypeError and so a 500 with the 403 thrown away. It shows on the plugin's types, which the
 * record permissions (../record-permissions) keep from Strapi's Author and Editor roles while
 * their other routes answer 403 through their policies: `…/relations/plugin::api-suite.api-key/plan`
 * was a 500 for those roles. The refusal is made a ForbiddenError here, which Strapi's error
 * middleware answers 403 in its own error body, for every type.
 *
 * Registered in the plugin's register: routes bind their controllers before any bootstrap runs.
 */
const RELATIONS_CONTROLLER = 'plugin::content-manager.relations';

type RequestInfo = (this: unknown, ctx: unknown, id?: unknown) => Promise<unknown>;

interface ControllersRegistry {
  extend(uid: string, extend: (controller: { extractAndValidateRequestInfo?: RequestInfo }) => object): unknown;
}

export function refuseUnreadableRelations(strapi: Core.Strapi): void {
  if (!strapi.plugin('content-manager')) return;
  (strapi.get('controllers') as unknown as ControllersRegistry).extend(RELATIONS_CONTROLLER, (controller) => {
    const extract = controller.extractAndValidateRequestInfo;
    if (!extract) throw new Error(`api-suite: ${RELATIONS_CONTROLLER} has no extractAndValidateRequestInfo to guard`);
    return {
      ...controller,
      // The handlers call it as `this.extractAndValidateRequestInfo`, with `this` the controller Strapi binds them to: this one.
      async extractAndValidateRequestInfo(this: unknown, ctx: unknown, id?: unknown) {
        const info = await extract.call(this, ctx, id);
        // Its one bare return is after ctx.forbidden(): the caller may not read the field.
        if (info === undefined) throw new errors.ForbiddenError();
        return info;
      },
    };
  });
}
