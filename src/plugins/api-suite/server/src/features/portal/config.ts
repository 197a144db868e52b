import { z } from 'zod';
import { type Env, parseBoolean } from '../../config-env';

/** The consumer portal's settings (`portal` in config/plugins.ts). */

/** The consumer portal: a client-side app served at `path` (its assets under `<path>/assets/`). */
export const portalConfigSchema = z
  .object({
    /** false: `path` answers 404 like any unknown page. */
    enabled: z.boolean(),
    path: z
      .string()
      .regex(/^(\/[A-Za-z0-9._~-]+)+$/, 'must be a path such as /portal: segments of letters, digits, . _ ~ - and no trailing slash')
      .refine((value) => !value.split('/').some((segment) => segment === '.' || segment === '..'), 'must not hold . or .. segments')
      .refine(
        (value) => !/^\/(api|admin|uploads)(\/|$)/.test(value),
        'must not be under /api, /admin or /uploads, which Strapi answers itself'
      ),
    /** The page title and the name in the portal's header. */
    title: z.string().trim().min(1).max(80),
    /** A CSS hex colour for buttons, links and the chart. */
    accentColor: z.string().regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hex colour such as #4945ff'),
  })
  .strict();

export type PortalConfig = z.infer<typeof portalConfigSchema>;

export function portalConfigDefaults(env: Env): PortalConfig {
  return {
    enabled: parseBoolean(env('PORTAL_ENABLED'), true, 'PORTAL_ENABLED'),
    // `/portal/` is `/portal`; unset or blank, the default.
    path: (env('PORTAL_PATH')?.trim() || '/portal').replace(/(.)\/+$/, '$1'),
    title: env('PORTAL_TITLE') || 'API portal',
    accentColor: env('PORTAL_ACCENT_COLOR') || '#4945ff',
  };
}
