import type { FeatureRoute } from '../features/types';
import { PLUGIN_ID } from '../constants';
import { validate, type RouteInput } from './input';

type Method = FeatureRoute['method'];

/**
 * The error middlewares a route family names (`plugin::api-suite.<name>`): the generic ones by
 * their body (http/errors.ts), and the features' own where a family answers a fault in its shape.
 */
export type ErrorMiddleware = `plugin::${typeof PLUGIN_ID}.${string}`;

export const errorsIn = (name: string): ErrorMiddleware => `plugin::${PLUGIN_ID}.${name}`;

/**
 * The routes of one family under /api (prefix ''), with Strapi's own auth off. `guarded`: the
 * access guard authenticates them (even on a site that did not enable the global middleware)
 * and answers its own refusals; the family's `errors` middleware comes after it, so it answers
 * what the handler and `validate` throw, never the guard's refusals.
 */
export function apiRoutes(options: { errors: ErrorMiddleware; guarded: boolean }) {
  const head = options.guarded ? [`plugin::${PLUGIN_ID}.access-guard`, options.errors] : [options.errors];
  return (method: Method, path: string, handler: string, input?: RouteInput): FeatureRoute => ({
    method,
    path,
    handler,
    config: { auth: false, prefix: '', middlewares: [...head, ...(input ? [validate(input)] : [])] },
  });
}
