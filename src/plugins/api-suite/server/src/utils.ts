import type { Core } from '@strapi/strapi';
import type { PluginConfig } from './config';
import { PLUGIN_ID } from './constants';

/**
 * Typed access to the plugin's services, so callers never spell a service name as a bare string.
 * Empty here on purpose: each feature adds the services it registers by declaration merging, from
 * the very object it registers (`features/<name>/index.ts`), so this bottom module imports no
 * feature and a service's type cannot drift from what is registered.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Services {}

/**
 * The services a feature's `services` object registers: each factory's name mapped to what it
 * builds. A feature's index.ts ends with
 * `declare module '../../utils' { interface Services extends ServicesOf<typeof services> {} }`;
 * inside that block this module's own names, `ServicesOf` among them, are in scope.
 */
export type ServicesOf<T extends Record<string, (context: { strapi: Core.Strapi }) => unknown>> = {
  [K in keyof T]: ReturnType<T[K]>;
};

export function getService<K extends keyof Services>(strapi: Core.Strapi, name: K): Services[K] {
  return strapi.plugin(PLUGIN_ID).service(name) as Services[K];
}

export function getConfig(strapi: Core.Strapi): PluginConfig {
  return strapi.config.get(`plugin::${PLUGIN_ID}`) as PluginConfig;
}
