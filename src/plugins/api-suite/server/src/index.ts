import type { Core } from '@strapi/strapi';
import config from './config';
import access from './features/access';
import commerce from './features/commerce';
import platform from './features/platform';
import scrapers from './features/scrapers';
import search from './features/search';
import webhooks from './features/webhooks';
import type { FeatureModule, FeatureRoute } from './features/types';

/**
 * The plugin's server: the merge of its feature modules. Each feature owns its content types,
 * routes, controllers and services; a name claimed twice is a programming error and fails at
 * load rather than one feature silently replacing another's piece.
 */
const features: FeatureModule[] = [platform, access, webhooks, scrapers, commerce, search];

type NamedKind = 'contentTypes' | 'controllers' | 'services' | 'policies' | 'middlewares';
const NAMED_KINDS: NamedKind[] = ['contentTypes', 'controllers', 'services', 'policies', 'middlewares'];

export default mergeFeatures(features);

export function mergeFeatures(modules: FeatureModule[]) {
  const named = Object.fromEntries(NAMED_KINDS.map((kind) => [kind, mergeNamed(modules, kind)])) as {
    [K in NamedKind]: NonNullable<FeatureModule[K]>;
  };
  const routesOf = (type: 'content-api' | 'admin'): FeatureRoute[] => modules.flatMap((module) => module.routes?.[type] ?? []);

  return {
    config,
    ...named,
    routes: {
      'content-api': { type: 'content-api' as const, routes: routesOf('content-api') },
      admin: { type: 'admin' as const, routes: routesOf('admin') },
    },
    async register(context: { strapi: Core.Strapi }) {
      for (const module of modules) await module.register?.(context);
    },
    async bootstrap(context: { strapi: Core.Strapi }) {
      for (const module of modules) await module.bootstrap?.(context);
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
