import { z } from 'zod';

/**
 * Reading the plugin's settings from the environment: the strict parsers every feature's defaults
 * use (features/<feature>/config.ts), so `5x` or `yes please` stops the boot with the variable's
 * name rather than becoming 5 or false.
 */

export type Env = {
  (key: string, fallback?: string): string | undefined;
  bool(key: string, fallback?: boolean): boolean | undefined;
  int(key: string, fallback?: number): number | undefined;
};

/** A content-type UID (`api::recipe.recipe`, `plugin::users-permissions.user`). */
export const contentTypeUid = z
  .string()
  .regex(/^(api|plugin)::[a-z0-9-]+\.[a-z0-9-]+$/, 'must be a content-type UID such as api::article.article');

/** FRONTEND_ORIGIN may list several origins for CORS; return URLs use the first. */
export function frontendOriginOf(env: Env): string {
  return (parseList(env('FRONTEND_ORIGIN')) ?? ['http://localhost:3000'])[0].replace(/\/+$/, '');
}

/** A whole number of at least 0 from the environment, strictly ("5x" is refused, where `env.int` would read 5); unset or blank: `fallback`. */
export function parseCount(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value.trim() === '') return fallback;
  if (!/^\d{1,9}$/.test(value.trim())) throw new Error(`${name} must be a whole number such as ${fallback}, not "${value}"`);
  return Number(value.trim());
}

/**
 * A number of days (or seconds) from the environment, fractions allowed ("0.5", "1e-3"), strictly:
 * "5d" or "1,5" is refused where `Number.parseFloat` would read 5 or 1; unset or blank: `fallback`.
 * The range is the validator's to check, so its message is the same from the variable and from
 * config/plugins.ts.
 */
export function parseDays(value: string | undefined, fallback: number, name: string, unit = 'days'): number {
  if (value === undefined || value.trim() === '') return fallback;
  const text = value.trim();
  if (!/^\d+(\.\d+)?(e[-+]?\d+)?$|^\.\d+$/i.test(text)) {
    const note = unit === 'days' ? ' (fractions allowed, 0 keeps forever)' : '';
    throw new Error(`${name} must be a number of ${unit} such as ${fallback}${note}, not "${value}"`);
  }
  return Number(text);
}

/** "a, b" → ["a", "b"]; unset or blank → undefined (the default applies). */
export function parseList(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** A boolean from the environment, strictly; unset or blank: `fallback`. */
export function parseBoolean(value: string | undefined, fallback: boolean, name: string): boolean;
export function parseBoolean(value: string | undefined, fallback: undefined, name: string): boolean | undefined;
export function parseBoolean(value: string | undefined, fallback: boolean | undefined, name: string): boolean | undefined {
  const text = value?.trim() ?? '';
  if (text === '') return fallback;
  if (/^(true|1|yes|on)$/i.test(text)) return true;
  if (/^(false|0|no|off)$/i.test(text)) return false;
  throw new Error(`${name} must be true or false, not "${value}"`);
}
