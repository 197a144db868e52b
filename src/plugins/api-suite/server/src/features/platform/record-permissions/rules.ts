import { PLUGIN_ID } from '../../../constants';
import { apiSuiteOptions, type GoverningFeature } from '../../plugin-options';

/**
 * Which admin permissions may stand on the plugin's records, as pure functions over permission
 * lists (a role's, a user's across their roles, or an admin token's).
 *
 * The plugin's records (keys, plans, subscriptions, event types, scrapers, orders, ...) are not
 * content: a Content Manager permission on one of their types counts only beside the plugin's own
 * permission for the feature, the one its admin pages check. Reading (`explorer.read`) needs the
 * feature's `read`; every other action on such a type (create, update, delete, publish and
 * whatever a later Strapi adds) needs its `manage`.
 */

export interface Grant {
  action: string;
  subject?: string | null;
}

/** The governing feature of each of the plugin's content types, by uid. */
export type GovernedTypes = ReadonlyMap<string, GoverningFeature>;

const EXPLORER_READ = 'plugin::content-manager.explorer.read';

/**
 * Every content type of the plugin with its governing feature. A plugin type that names none
 * stops the boot: a new type must not slip past the rule by being forgotten.
 */
export function governedTypes(contentTypes: Iterable<{ uid: string; pluginOptions?: object }>): GovernedTypes {
  const governed = new Map<string, GoverningFeature>();
  for (const contentType of contentTypes) {
    if (!contentType.uid.startsWith(`plugin::${PLUGIN_ID}.`)) continue;
    const feature = apiSuiteOptions(contentType)?.permission;
    if (!feature)
      throw new Error(
        `api-suite: the content type ${contentType.uid} names no governing permission (pluginOptions['${PLUGIN_ID}'].permission)`
      );
    governed.set(contentType.uid, feature);
  }
  return governed;
}

/** The plugin action a grant needs beside it, or undefined when the grant is not on a plugin record. */
export function requiredAction(grant: Grant, governed: GovernedTypes): string | undefined {
  const feature = grant.subject ? governed.get(grant.subject) : undefined;
  if (!feature) return undefined;
  return `plugin::${PLUGIN_ID}.${feature}.${grant.action === EXPLORER_READ ? 'read' : 'manage'}`;
}

/** The grants of one holder (a role, a user, a token) that stand: those on plugin records need the feature's action in the same list. */
export function standingGrants<T extends Grant>(grants: T[], governed: GovernedTypes): T[] {
  const held = new Set(grants.map((grant) => grant.action));
  return grants.filter((grant) => {
    const needed = requiredAction(grant, governed);
    return needed === undefined || held.has(needed);
  });
}
