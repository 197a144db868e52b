import type config from '../../src/plugins/api-suite/server/src/config';

export type Env = Parameters<typeof config.default>[0]['env'];

/** Strapi's `env` helper over a fixed set of variables, for building the plugin config in unit tests. */
export function envFrom(values: Record<string, string>): Env {
  const env = ((key: string, fallback?: string) => values[key] ?? fallback) as Env;
  env.bool = (key: string, fallback?: boolean) => (key in values ? values[key] === 'true' : fallback);
  env.int = (key: string, fallback?: number) => (key in values ? Number(values[key]) : fallback);
  return env;
}
