import type { Core } from '@strapi/strapi';
import config from './config';
import { PLUGIN_ID } from './constants';
import { lockTables, registerDatabaseModels } from './db';
import access from './features/access';
import accounts from './features/accounts';
import billing from './features/billing';
import commerce from './features/commerce';
import content from './features/content';
import observability from './features/observability';
import platform from './features/platform';
import portal from './features/portal';
import retention from './features/retention';
import scrapers from './features/scrapers';
import search from './features/search';
import webhooks from './features/webhooks';
import { enforceRecordPermissions } from './features/platform/record-permissions/enforce';
import type { AdminAction, FeatureModule, FeatureRoute } from './features/types';
import { logAppErrors } from './http/app-errors';
import { getService } from './utils';

/**
 * The plugin's server: the merge of its feature modules. Each feature owns its content types,
 * routes, controllers and services; a name claimed twice is a programming error and fails at
 * load rather than one feature silently replacing another's piece.
 */
// The site's content types register their events last: a type named like one of the plugin's own events leaves its clash out.
// Retention starts purging once every feature has bootstrapped, and stops first.
const features: FeatureModule[] = [
  observability,
  platform,
  access,
  webhooks,
  scrapers,
  commerce,
  billing,
  accounts,
  search,
  portal,
  content,
  retention,
];

type NamedKind = 'contentTypes' | 'controllers' | 'services' | 'policies' | 'middlewares';
const NAMED_KINDS: NamedKind[] = ['contentTypes', 'controllers', 'services', 'policies', 'middlewares'];

export default mergeFeatures(features);

export function mergeFeatures(modules: FeatureModule[]) {
  const named = Object.fromEntries(NAMED_KINDS.map((kind) => [kind, mergeNamed(modules, kind)])) as {
    [K in NamedKind]: NonNullable<FeatureModule[K]>;
  };
  const routesOf = (type: 'content-api' | 'admin'): FeatureRoute[] => modules.flatMap((module) => module.routes?.[type] ?? []);
  const adminActions = mergeAdminActions(modules);

  return {
    config,
    ...named,
    routes: {
      'content-api': { type: 'content-api' as const, routes: routesOf('content-api') },
      admin: { type: 'admin' as const, routes: routesOf('admin') },
    },
    async register(context: { strapi: Core.Strapi }) {
      // Before Koa builds its request handler, or it would print its own errors past the logger.
      logAppErrors(context.strapi);
      const openapi = getService(context.strapi, 'openapi');
      const views = getService(context.strapi, 'content-manager-views');
      for (const module of modules) {
        if (module.api) openapi.add(module.api);
        for (const [name, view] of Object.entries(module.contentManager ?? {})) views.add(`plugin::${PLUGIN_ID}.${name}`, view);
      }
      for (const module of modules) await module.register?.(context);
      // The rows MySQL's per-key locks are taken on (db/locks.ts), for any feature's transactions.
      registerDatabaseModels(context.strapi, lockTables);
    },
    async bootstrap(context: { strapi: Core.Strapi }) {
      // Before the admin's own bootstrap, which gives the super admin role every registered action,
      // creates the Author and Editor roles on a new database and cleans the stored permissions.
      await registerAdminActions(context.strapi, adminActions);
      enforceRecordPermissions(context.strapi);
      for (const module of modules) await module.bootstrap?.(context);
      await getService(context.strapi, 'content-manager-views').apply();
    },
    async destroy(context: { strapi: Core.Strapi }) {
      // Reverse order: features built on the platform stop before the platform closes the jobs port.
      for (const module of [...modules].reverse()) await module.destroy?.(context);
    },
  };
}

function mergeNamed<K extends NamedKind>(modules: FeatureModule[], kind: K): NonNullable<FeatureModule[K]> {
  const merged: Record<string, unknown> = {};
  const owner: Record<string, string> = {};
  for (const module of modules) {
    for (const [name, value] of Object.entries(module[kind] ?? {})) {
      if (name in merged) {
        throw new Error(`api-suite: ${kind} "${name}" is declared by both the ${owner[name]} and the ${module.name} features`);
      }
      merged[name] = value;
      owner[name] = module.name;
    }
  }
  return merged as NonNullable<FeatureModule[K]>;
}

function mergeAdminActions(modules: FeatureModule[]): AdminAction[] {
  const seen = new Map<string, string>();
  return modules.flatMap((module) =>
    (module.adminActions ?? []).map((action) => {
      const owner = seen.get(action.uid);
      if (owner)
        throw new Error(`api-suite: admin action "${action.uid}" is declared by both the ${owner} and the ${module.name} features`);
      seen.set(action.uid, module.name);
      return action;
    })
  );
}

interface AdminActionProvider {
  registerMany(actions: Array<AdminAction & { section: 'plugins'; pluginName: string }>): Promise<unknown>;
}

async function registerAdminActions(strapi: Core.Strapi, actions: AdminAction[]): Promise<void> {
  if (actions.length === 0) return;
  const permissions = strapi.service('admin::permission') as { actionProvider: AdminActionProvider } | undefined;
  if (!permissions) return;
  await permissions.actionProvider.registerMany(
    actions.map((action) => ({ ...action, section: 'plugins' as const, pluginName: PLUGIN_ID }))
  );
}
