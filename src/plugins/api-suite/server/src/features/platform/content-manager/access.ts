import type { Core } from '@strapi/strapi';
import { apiSuiteOptions } from '../../plugin-options';

/**
 * The Content Manager's write actions (create, update, delete, publish) no longer apply to the
 * content types marked read-only (`pluginOptions['api-suite'].readOnly`): no role, the super
 * admin's included, holds them, so the admin panel offers no "Create", "Save" or "Delete" there
 * and the Content Manager's routes refuse such writes with 403. Reading is governed as on every
 * plugin type, by the feature's own read permission (see record-permissions).
 *
 * Runs in the plugin's bootstrap: after the Content Manager registered its actions and before
 * the admin's bootstrap gives the super admin role every action (and removes the permissions
 * whose subject an action no longer has).
 */
const WRITE_ACTIONS = ['create', 'update', 'delete', 'publish'].map((action) => `plugin::content-manager.explorer.${action}`);

interface ActionProvider {
  get(uid: string): { subjects?: string[] } | undefined;
}

export function readOnlyContentTypes(strapi: Core.Strapi): string[] {
  return Object.values(strapi.contentTypes)
    .filter((contentType) => apiSuiteOptions(contentType)?.readOnly === true)
    .map((contentType) => contentType.uid);
}

export function withholdContentManagerWrites(strapi: Core.Strapi): void {
  const readOnly = new Set<string>(readOnlyContentTypes(strapi));
  if (readOnly.size === 0) return;
  const actions = (strapi.service('admin::permission') as unknown as { actionProvider: ActionProvider }).actionProvider;
  for (const uid of WRITE_ACTIONS) {
    const action = actions.get(uid);
    if (!action?.subjects) throw new Error(`api-suite: the Content Manager action ${uid} is not registered yet`);
    action.subjects = action.subjects.filter((subject) => !readOnly.has(subject));
  }
}
