import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { errors } from '@strapi/utils';
import { ApiError } from '../../../http/errors';
import { getService } from '../../../utils';
import { watchedTypes } from '../../content/watched';
import type { Principal } from '../../../http/principal';
import { extractCredential } from '../services/access';
import { contentGateOf, guardContent, type ContentGate } from './guard';
import type { Ability } from './abilities';
import { ownersOf } from './owners';
import { InvalidApiKeyError, KeyRevokedError } from '../errors';

/**
 * The site's content API sold through plans (docs/access.md#the-sites-content-api): the plugin's
 * auth strategy for Strapi's content API (`strapi.get('auth')`, as users-permissions and API
 * tokens are). On the routes of the watched content types:
 *
 * - what the Public role may call answers everyone, uncounted, whatever credential is sent;
 * - otherwise a consumer's API key or OAuth token authenticates as its owner (a key never above
 *   its owner's users-permissions role, and its scope: `read` for GET and HEAD, `write` else),
 *   and a consumer's JWT is left to users-permissions; either is then held to the consumer's plan
 *   (403 `endpoint_not_in_plan`), counted in their pool with the rate headers and a usage record;
 * - without a credential, or with one of Strapi's own API tokens (the site's credential, held to
 *   no plan), Strapi answers as it always does.
 */
export type StrategyResult = { authenticated: false } | { authenticated: true; credentials: unknown; ability: Ability };

const PASS: StrategyResult = { authenticated: false };
const NAME = 'api-suite';

export function registerContentStrategy(strapi: Core.Strapi): void {
  const owners = ownersOf(strapi);
  let uids: Set<string> | undefined;
  const watches = (uid: string) => (uids ??= new Set(watchedTypes(strapi).map((type) => type.uid))).has(uid);

  const decide = async (ctx: Context, gate: ContentGate | undefined, scope: string): Promise<StrategyResult> => {
    const credential = extractCredential(ctx, undefined);
    if (!credential || credential.kind === 'shared') return PASS;
    const keyLike = credential.kind === 'key' || credential.kind === 'unknown-key' || isOAuth(strapi, credential);
    // Not ours: one of Strapi's API tokens (no JWT shape), left to Strapi's own strategy.
    if (!keyLike && !looksLikeJwt((credential as { token: string }).token)) return PASS;
    const publicAbility = await owners.publicAbility();
    if (publicAbility.can(scope)) {
      // The Public role's routes answer everyone as the Public role, uncounted: a key sent there changes nothing.
      return keyLike ? { authenticated: true, credentials: null, ability: publicAbility } : PASS;
    }
    const access = getService(strapi, 'access');
    if (gate) gate.decided = true;
    const refuse = (error: unknown): never => {
      if (gate && error instanceof ApiError) gate.refusal = error;
      throw error;
    };
    try {
      if (keyLike) {
        if (credential.kind === 'unknown-key') throw new InvalidApiKeyError();
        const { entry, principal } = await access.identifyKey(credential as Parameters<typeof access.identifyKey>[0]);
        if (gate) {
          gate.counted.keyId = entry.id;
          gate.counted.userId = principal.userId;
        }
        const owner = await owners.of(principal.userId as number);
        if (!owner) throw new KeyRevokedError();
        // Beyond its owner's role: Strapi's own 403 (the authorize step checks the scope).
        if (owner.ability.can(scope)) await govern(strapi, ctx, gate, principal, entry);
        (ctx.state as { user?: unknown }).user = owner.user;
        return { authenticated: true, credentials: owner.user, ability: owner.ability };
      }
      const principal = await access.userFromJwt((credential as { token: string }).token);
      const owner = await owners.of(principal.userId as number);
      // Beyond the role: users-permissions refuses it as it always has, uncounted.
      if (owner?.ability.can(scope)) await govern(strapi, ctx, gate, principal, null);
      return PASS;
    } catch (error) {
      // Refused before any plan was looked at (an unknown, expired or revoked key): metered here.
      if (error instanceof ApiError && gate?.counted.plan === undefined) getService(strapi, 'metrics').apiRequest('none', error.code);
      return refuse(error);
    }
  };

  const strategy = {
    name: NAME,
    async authenticate(ctx: Context): Promise<StrategyResult> {
      const gate = contentGateOf(ctx);
      // Decided already: by this strategy (Strapi asks its list after the plugin's first turn), or by
      // the key gate itself on the routes under its prefixes (/api/v1, /api/webhooks).
      if (gate?.decided || (ctx.state as { apiSuite?: unknown }).apiSuite) return PASS;
      const scope = scopeOf(ctx);
      if (!scope || !watches(scope.slice(0, scope.lastIndexOf('.')))) return PASS;
      return decide(ctx, gate, scope);
    },
    /** As users-permissions verifies: every scope of the route must be in the ability. */
    verify(auth: { credentials?: unknown; ability?: Ability | null }, config: { scope?: string | string[] }): void {
      const scopes = config.scope === undefined ? [] : Array.isArray(config.scope) ? config.scope : [config.scope];
      if (scopes.length === 0) {
        if (!auth.credentials) throw new errors.UnauthorizedError();
        return;
      }
      if (!auth.ability) throw new errors.UnauthorizedError();
      if (!scopes.every((scope) => auth.ability?.can(scope))) throw new errors.ForbiddenError();
    },
  };

  const auth = strapi.get('auth') as AuthService;
  auth.register('content-api', strategy);
  // Strapi asks the strategies in the order they were registered, and users-permissions
  // (registered before any plugin of a site) answers every request without a JWT as the Public
  // role: a request with only an X-API-Key header would never reach the plugin's strategy. So it
  // is asked first on content-API routes; when it passes, Strapi's own order follows unchanged.
  const authenticate = auth.authenticate.bind(auth);
  const ourTurnFirst = async (ctx: Context, next: () => Promise<unknown>): Promise<unknown> => {
    const result = await strategy.authenticate(ctx);
    if (result.authenticated) {
      Object.assign(ctx.state, { isAuthenticated: true, auth: { strategy, credentials: result.credentials, ability: result.ability } });
      return next();
    }
    return authenticate(ctx, next);
  };
  auth.authenticate = async (ctx, next) => {
    const route = (ctx.state as { route?: { info?: { type?: string }; config?: { auth?: unknown } } }).route;
    if (route?.info?.type !== 'content-api' || route.config?.auth === false) return authenticate(ctx, next);
    // The global access middleware sets up the gate that answers the strategy's refusals and writes
    // the usage record. On a site that left it out of config/middlewares, the gate is set up here,
    // around the rest of the route, so refusals keep their shape and rate headers and every
    // request decided here is recorded all the same.
    if (!contentGateOf(ctx) && !(ctx.state as { apiSuite?: unknown }).apiSuite && scopeOf(ctx))
      return guardContent(strapi, ctx, () => ourTurnFirst(ctx, next));
    return ourTurnFirst(ctx, next);
  };
}

interface AuthService {
  register(type: string, strategy: { name: string; authenticate(ctx: Context): unknown; verify?(...args: never[]): unknown }): unknown;
  authenticate(ctx: Context, next: () => Promise<unknown>): Promise<unknown>;
}

/** Plan reach, scope and quota (the key gate's own rules), counted in the consumer's pool. */
async function govern(
  strapi: Core.Strapi,
  ctx: Context,
  gate: ContentGate | undefined,
  principal: Principal,
  entry: Parameters<ReturnType<typeof getService<'access'>>['govern']>[3]
): Promise<void> {
  const counted = gate?.counted ?? { keyId: null, userId: null, overage: false };
  let decision = 'allowed';
  try {
    await getService(strapi, 'access').govern(ctx, principal, counted, entry);
    if (counted.overage) decision = 'overage';
  } catch (error) {
    decision = error instanceof ApiError ? error.code : 'error';
    throw error;
  } finally {
    getService(strapi, 'metrics').apiRequest(counted.plan ?? 'none', decision);
  }
}

/** The route's permission: `api::recipe.recipe.find`. */
function scopeOf(ctx: Context): string | undefined {
  const route = (ctx.state as { route?: { config?: { auth?: { scope?: unknown } } } }).route;
  const scope = route?.config?.auth && typeof route.config.auth === 'object' ? route.config.auth.scope : undefined;
  const first = Array.isArray(scope) ? scope[0] : scope;
  return typeof first === 'string' && first.startsWith('api::') ? first : undefined;
}

function isOAuth(strapi: Core.Strapi, credential: { kind: string; token?: string }): boolean {
  return credential.kind === 'bearer' && getService(strapi, 'oauth').isOAuthToken(credential.token as string);
}

/** users-permissions' JWTs (and ours) are three base64url parts; Strapi's API tokens are hex. */
function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);
}
