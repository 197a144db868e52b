import { performance } from 'node:perf_hooks';
import type { Core } from '@strapi/strapi';
import type { Context, Next } from 'koa';
import { ApiError, ApiKeyRequiredError, bodyParserError, dependencyRefusal, faultStatus, nestedErrorBody } from '../../../http/errors';
import { routeFamilies } from '../../../http/api-routes';
import { apiPathOf, configuredApiPath, restPrefix } from '../../../http/site-paths';
import { getConfig, getService } from '../../../utils';
import { API_KEY_PATTERN, safeEqual } from '../credentials';
import { isAccountRoute, isOpenRoute } from '../route-kinds';
import { UNLIMITED, type QuotaDecision } from '../quota';
import { rateLimitHeaders } from '../quota/headers';
import { keyPool } from '../quota/pools';
import { recordRequest, type Counted } from '../request-record';
import { guardContent } from '../content-api/guard';
import { publicContentRoutes } from '../content-api/public-routes';
import { effectiveStatus, type KeyEntry } from './keys';
import type { QuotaTarget } from './consumer-plans';
import { startSpan, withSpan } from '../../observability/tracing/context';
import type { AccessState, Principal, Scope } from '../../../http/principal';
import {
  EndpointNotInPlanError,
  InsufficientScopeError,
  InvalidApiKeyError,
  InvalidTokenError,
  KeyExpiredError,
  KeyRevokedError,
  MethodNotAllowedError,
  QuotaExceededError,
  RateLimitedError,
} from '../errors';

export type { AccessState, Principal };

export type Credential = { kind: 'key'; secret: string } | { kind: 'bearer'; token: string } | { kind: 'shared' } | { kind: 'unknown-key' };
/** A credential that names a key: the key itself, or an OAuth access token issued for it. */
export type KeyCredential = { kind: 'key'; secret: string } | { kind: 'bearer'; token: string };

/** Verified JWTs remembered, so a busy client's token is checked once rather than on every request. */
const VERIFIED_JWTS_KEPT = 10_000;
const VERIFIED_JWT_TTL_MS = 10 * 60_000;

/**
 * The one gate in front of the API: it accepts API keys, OAuth tokens, users-permissions JWTs and
 * the shared key, and refuses in this order — 401 api_key_required, 401 invalid_api_key,
 * 403 key_expired, 403 key_revoked, 403 endpoint_not_in_plan, 403 insufficient_scope,
 * 429 rate_limited, 429 monthly_quota_exceeded.
 *
 * Plans hold consumers, whatever the credential (docs/access.md has the table): on the
 * plan-governed routes a consumer's key, OAuth token and JWT alike are held to the plan's reach
 * and counted in the consumer's one pool, answer with the rate-limit headers and leave a usage
 * record. Account routes are open to every plan and not counted; administrators and the shared
 * key are held to no plan.
 */
const accessService = ({ strapi }: { strapi: Core.Strapi }) => {
  const config = () => getConfig(strapi).access;
  const metrics = getService(strapi, 'metrics');
  const alerts = getService(strapi, 'quota-alerts');
  /** The error shape of the family of the route a request will reach (http/api-routes.ts). */
  const familyOf = routeFamilies(strapi);
  /** token → user id, until the token's own expiry (at most ten minutes); the user is still read on every request. */
  const verifiedJwts = new Map<string, { id: unknown; until: number }>();

  const verifyJwt = async (token: string): Promise<unknown> => {
    const known = verifiedJwts.get(token);
    if (known && known.until > Date.now()) return known.id;
    const payload = (await strapi.plugin('users-permissions').service('jwt').verify(token)) as { id?: unknown; exp?: unknown };
    const until = Math.min(Date.now() + VERIFIED_JWT_TTL_MS, typeof payload.exp === 'number' ? payload.exp * 1000 : Infinity);
    if (verifiedJwts.size >= VERIFIED_JWTS_KEPT) verifiedJwts.delete(verifiedJwts.keys().next().value as string);
    verifiedJwts.set(token, { id: payload.id, until });
    return payload.id;
  };

  /** The configured route prefixes as API paths (docs/access.md#a-sites-rest-prefix), read once. */
  let guarded: string[] | undefined;
  /** Whether the key gate itself guards an API path (a request's, from `apiPathOf`). */
  const covers = (path: string) =>
    (guarded ??= config().routePrefixes.map((prefix) => configuredApiPath(restPrefix(strapi), prefix).replace(/\/$/, ''))).some(
      (prefix) => path === prefix || path.startsWith(`${prefix}/`)
    );

  return {
    /** What anyone may call on the site's content API now, without a key (content-api/public-routes.ts). */
    publicContentRoutes: () => publicContentRoutes(strapi),

    covers,

    /** Routes anybody may call: the token endpoint, the price lists and the API's description. */
    isOpen: isOpenRoute,

    /** The consumer's own account (keys, usage, plans, billing, the catalogue): reachable on every plan and not counted. */
    isAccountRoute,

    async handle(ctx: Context, next: Next, options: { always?: boolean } = {}): Promise<void> {
      if (ctx.state.apiSuite) return next();
      // Decided by the request's API path: its case and the site's REST prefix change nothing.
      const apiPath = apiPathOf(strapi, ctx);
      // The site's own content API is decided by the plugin's auth strategy, once Strapi knows the route.
      if (!options.always && (apiPath === undefined || !covers(apiPath)))
        return apiPath?.startsWith('/api/') ? guardContent(strapi, ctx, next) : next();
      if (ctx.method === 'OPTIONS') return next();

      const started = performance.now();
      const counted: Counted = { keyId: null, userId: null, overage: false };
      let decision: string | undefined;
      /** The status of a fault passed on to Strapi's error middleware, which answers it after this. */
      let faulted: number | undefined;
      // The decision's own span (tracing on only): how long identifying and counting took, and what was decided.
      const span = startSpan('api_suite.access');
      try {
        try {
          await withSpan(span, () => this.admit(ctx, counted));
        } catch (refusal) {
          decision = refusal instanceof ApiError ? refusal.code : 'error';
          throw refusal;
        } finally {
          decision ??= counted.overage ? 'overage' : 'allowed';
          metrics.apiRequest(counted.plan ?? 'none', decision);
          span?.setAttributes({ 'api_suite.decision': decision, 'api_suite.plan': counted.plan ?? 'none' });
          span?.end();
        }
        await next();
        if (ctx.status === 405 && (ctx.body === undefined || ctx.body === null || typeof ctx.body === 'string')) {
          // The router's own 405 is plain text: answered here, as one of the guard's own refusals (below), in JSON.
          throw new MethodNotAllowedError(ctx.method, ctx.path);
        }
      } catch (caught) {
        // Our own refusals, the body parser's (strapi::body runs inside this middleware), and a
        // database or Redis that is away (503, never 500), wherever below it was met.
        const error = caught instanceof ApiError ? caught : (bodyParserError(caught) ?? dependencyRefusal(caught));
        if (!error) {
          // The usage record says what the client gets (500 for a crash), not Koa's default 404.
          faulted = faultStatus(caught);
          throw caught;
        }
        if (error.headers) ctx.set(error.headers);
        if (error.status === 401) ctx.set('WWW-Authenticate', 'Bearer realm="api"');
        ctx.status = error.status;
        // The route's family decides the body, never the URL (docs/api-reference.md#error-bodies): a body
        // that cannot be parsed, or a fault met on the way, is the route's business and gets its family's
        // body; the key middleware's own refusals (an ApiError: 401, 403, 429, 405) keep the /api/v1 body
        // unless the family takes them too (the token route's). Where no plugin route answers, /api/v1's.
        const family = familyOf(ctx.method, ctx.path);
        const ownRefusal = caught instanceof ApiError;
        ctx.body = family && (!ownRefusal || family.refusalsToo) ? family.body(error) : nestedErrorBody(error);
      } finally {
        recordRequest(strapi, ctx, counted, started, faulted ?? ctx.status);
      }
    },

    /**
     * Identify the caller and decide whether it may go on; sets ctx.state.apiSuite. `counted`
     * names who is recorded in usage as soon as that is known, so refusals after it are recorded too.
     */
    async admit(ctx: Context, counted: Counted): Promise<void> {
      if (this.isOpen(ctx.method, apiPathOf(strapi, ctx) ?? ctx.path)) {
        ctx.state.apiSuite = { principal: null } satisfies AccessState;
        return;
      }
      const credential = extractCredential(ctx, config().sharedKey);
      if (!credential)
        throw new ApiKeyRequiredError('An API key is required: send it as X-API-Key, as a Bearer token or as the api_key parameter');
      if (credential.kind === 'unknown-key') throw new InvalidApiKeyError();
      if (credential.kind === 'shared') {
        ctx.state.apiSuite = { principal: SHARED_PRINCIPAL } satisfies AccessState;
        return;
      }

      if (credential.kind === 'bearer' && !getService(strapi, 'oauth').isOAuthToken(credential.token)) {
        const principal = await this.userFromJwt(credential.token);
        await this.govern(ctx, principal, counted, null);
        ctx.state.apiSuite = { principal } satisfies AccessState;
        return;
      }
      const { entry, principal } = await this.identifyKey(credential);
      // Every request made with a valid key is recorded, refusals after this point included.
      counted.keyId = entry.id;
      counted.userId = principal.userId;
      await this.govern(ctx, principal, counted, entry);
      ctx.state.apiSuite = { principal } satisfies AccessState;
    },

    /**
     * The key behind an API key or an OAuth access token, refused in the documented order when it
     * is unknown (401), expired or revoked (403), or its owner is blocked.
     */
    async identifyKey(credential: KeyCredential): Promise<{ entry: KeyEntry; principal: Principal }> {
      let entry: KeyEntry | null;
      let tokenScopes: Scope[] | undefined;
      if (credential.kind === 'key') {
        entry = await getService(strapi, 'keys').findBySecret(credential.secret);
        if (!entry) throw new InvalidApiKeyError();
      } else {
        const token = getService(strapi, 'oauth').verify(credential.token);
        if (!token) throw new InvalidTokenError();
        entry = await getService(strapi, 'keys').findById(token.keyId);
        if (!entry) throw new InvalidApiKeyError('The API key behind this token no longer exists');
        tokenScopes = token.scopes;
      }

      const status = effectiveStatus(entry.status, entry.expiresAt);
      if (status === 'expired') throw new KeyExpiredError();
      if (status === 'revoked' || !entry.user || entry.user.blocked) throw new KeyRevokedError();

      const scopes = tokenScopes ? tokenScopes.filter((scope) => entry.scopes.includes(scope)) : entry.scopes;
      const principal: Principal = {
        kind: tokenScopes ? 'oauth' : 'key',
        userId: entry.user.id,
        consumerId: entry.user.consumerId,
        isAdmin: entry.user.isAdmin,
        scopes,
        keyId: entry.id,
      };
      return { entry, principal };
    },

    /**
     * Plan, scope and quota, in that order, for a consumer's key, token or JWT; sets the
     * rate-limit headers on the answer. Administrators are held to no plan.
     */
    async govern(ctx: Context, principal: Principal, counted: Counted, key: KeyEntry | null): Promise<void> {
      const needed: Scope = ctx.method === 'GET' || ctx.method === 'HEAD' ? 'read' : 'write';
      const scopeRefusal = () => new InsufficientScopeError(`This request needs the "${needed}" scope`);
      if (principal.isAdmin || principal.userId === null) {
        if (!principal.scopes.includes(needed)) throw scopeRefusal();
        return;
      }
      const target = await getService(strapi, 'consumer-plans').targetOf(principal.userId, key);
      counted.plan = target.plan.name;
      const quota = getService(strapi, 'usage').quota();
      const standing = async () => rateLimitHeaders(await quota.peek(target.pool, target.limits));
      const refuse = async (error: ApiError): Promise<never> => {
        throw error.with({ headers: await standing() });
      };

      const apiPath = apiPathOf(strapi, ctx) ?? ctx.path;
      // Account routes: every plan reaches them and they are not counted; the headers show the pool as it stands.
      if (this.isAccountRoute(ctx.method, apiPath)) {
        if (!principal.scopes.includes(needed)) await refuse(scopeRefusal());
        ctx.set(await standing());
        return;
      }
      // A JWT's requests are recorded from here: they are plan-governed, like a key's.
      counted.userId = principal.userId;
      if (!target.plan.allows(ctx.method, apiPath)) {
        await refuse(new EndpointNotInPlanError(ctx.method, ctx.path, target.plan.name));
      }
      if (!principal.scopes.includes(needed)) await refuse(scopeRefusal());
      ctx.set(await this.consume(target, counted, principal, key));
    },

    /**
     * Count one request in the target's pool: the headers to answer with, or a 429 carrying them.
     * The month as counted goes to the quota alerts, which act only when it reaches a threshold.
     */
    async consume(target: QuotaTarget, counted: Counted, principal: Principal, key: KeyEntry | null): Promise<Record<string, string>> {
      const { limits, plan, pool } = target;
      const quota = getService(strapi, 'usage').quota();
      // Overage: past the monthly quota the request is served and billed, so the month is counted
      // without a limit; the minute limit still holds.
      const billsOverage = plan.overage && limits.perMonth !== UNLIMITED && getService(strapi, 'stripe').configured();
      const consumed = await quota.consume(pool, billsOverage ? { perMinute: limits.perMinute, perMonth: UNLIMITED } : limits);
      const decision = billsOverage ? withMonthLimit(consumed, limits.perMonth) : consumed;
      const { userId, consumerId } = principal;
      if (userId !== null && consumerId) {
        alerts.observe(pool, decision.month, () => ({
          pool,
          userId,
          consumerId,
          plan: { id: plan.id, name: plan.name },
          keyId: key && pool === keyPool(key.poolKeyId) ? key.id : null,
          overage: billsOverage,
        }));
      }
      const headers = rateLimitHeaders(decision);
      if (billsOverage && decision.allowed && decision.month.used > limits.perMonth) {
        counted.overage = true;
        headers['X-Overage'] = 'true';
      }
      if (decision.refusedBy === 'minute') {
        throw new RateLimitedError(limits.perMinute, headers);
      }
      if (decision.refusedBy === 'month') {
        throw new QuotaExceededError(limits.perMonth, headers);
      }
      return headers;
    },

    async userFromJwt(token: string): Promise<Principal> {
      let id: unknown;
      try {
        id = await verifyJwt(token);
      } catch {
        throw new InvalidTokenError();
      }
      const user =
        typeof id === 'number' || (typeof id === 'string' && /^\d+$/.test(id))
          ? await getService(strapi, 'consumers').find(Number(id))
          : null;
      if (!user || user.blocked) throw new InvalidTokenError();
      return {
        kind: 'user',
        userId: user.id,
        consumerId: user.consumerId,
        isAdmin: user.isAdmin,
        scopes: ['read', 'write'],
        keyId: null,
      };
    },
  };
};

export type { Counted };

/** A decision counted without a monthly limit, shown against the plan's limit (remaining 0 once over it). */
function withMonthLimit(decision: QuotaDecision, perMonth: number): QuotaDecision {
  const used = decision.month.used;
  return { ...decision, month: { ...decision.month, limit: perMonth, remaining: Math.max(0, perMonth - used) } };
}

const SHARED_PRINCIPAL: Principal = {
  kind: 'shared',
  userId: null,
  consumerId: null,
  isAdmin: false,
  scopes: ['read', 'write'],
  keyId: null,
};

/** X-API-Key wins over Authorization, which wins over ?api_key. */
export function extractCredential(ctx: Context, sharedKey: string | undefined): Credential | null {
  const header = ctx.get('x-api-key');
  if (header) {
    if (sharedKey && safeEqual(header, sharedKey)) return { kind: 'shared' };
    return API_KEY_PATTERN.test(header) ? { kind: 'key', secret: header } : { kind: 'unknown-key' };
  }
  const authorization = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'));
  if (authorization) {
    const token = authorization[1];
    return token.startsWith('sk_')
      ? API_KEY_PATTERN.test(token)
        ? { kind: 'key', secret: token }
        : { kind: 'unknown-key' }
      : { kind: 'bearer', token };
  }
  const query = ctx.query.api_key;
  if (typeof query === 'string' && query !== '')
    return API_KEY_PATTERN.test(query) ? { kind: 'key', secret: query } : { kind: 'unknown-key' };
  return null;
}

export type AccessService = ReturnType<typeof accessService>;
export default accessService;
