import { z } from 'zod';

/**
 * What the portal's page tells its client app about the site, in a meta tag (the CSP allows no
 * inline script): read once by the portal at start (`portal/src/settings.ts`).
 */
export const portalSettings = z.object({
  title: z.string(),
  accentColor: z.string(),
  basePath: z.string(),
  /** Whether users-permissions takes sign-ups (Settings → Advanced settings → "Enable sign-ups"). */
  allowRegister: z.boolean(),
  /** The shop's currency (lowercase ISO code), for prices the public plan list gives without one. */
  currency: z.string(),
  /** Whether Stripe is configured: without it the portal does not ask the billing routes, which would only answer 503. */
  billing: z.boolean(),
  /** The site's REST prefix (`/api` unless config/api sets `rest.prefix`): every API path the portal calls starts with it. */
  restPrefix: z.string(),
  /**
   * The site's content a plan may sell, for the plan cards: each watched type by its plural name
   * at its API path (`/api/recipes`), with the method that writes it; and the versioned articles
   * (`/api/v1/articles`) where the site has the article type.
   */
  sold: z.array(z.object({ label: z.string(), path: z.string(), write: z.enum(['POST', 'PUT']) })),
  /**
   * The site's content routes the Public role may call now (Settings → Roles → Public), as
   * "METHOD /api/path-template" (`GET /api/articles/{id}`): anyone may call them without a key,
   * uncounted, whatever their plan says.
   */
  publicRoutes: z.array(z.string()),
});
export type PortalSettings = z.infer<typeof portalSettings>;
