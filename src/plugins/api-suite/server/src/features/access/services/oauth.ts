import crypto from 'node:crypto';
import type { Core } from '@strapi/strapi';
import jwt from 'jsonwebtoken';
import { getService } from '../../../utils';
import { safeEqual, hashApiKey } from '../credentials';
import { effectiveStatus, type Scope } from './keys';

export const TOKEN_LIFETIME_SECONDS = 3600;
const ISSUER = 'strapi-plugin-api-suite';
const TOKEN_USE = 'oauth_client_credentials';

/** RFC 6749 section 5.2 errors, with the status each one answers with. */
export class OAuthError extends Error {
  constructor(
    readonly error: 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type' | 'invalid_scope',
    readonly description: string
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  get status(): number {
    return this.error === 'invalid_client' ? 401 : 400;
  }
}

export interface TokenRequest {
  grant_type?: unknown;
  client_id?: unknown;
  client_secret?: unknown;
  scope?: unknown;
}

export interface AccessToken {
  keyId: number;
  scopes: Scope[];
}

/**
 * OAuth 2.0 client credentials (RFC 6749 section 4.4): a key's client_id and the key itself as
 * the client secret buy a short-lived HS256 token with the same or fewer scopes. The signing
 * secret is derived from the app keys, so it needs no configuration and differs from the
 * users-permissions JWT secret: neither kind of token passes for the other.
 */
const oauthService = ({ strapi }: { strapi: Core.Strapi }) => {
  let secret: Buffer | undefined;
  const signingSecret = (): Buffer => {
    if (!secret) {
      const appKeys = strapi.config.get('server.app.keys') as string[] | undefined;
      if (!appKeys || appKeys.length === 0) throw new Error('server.app.keys must be set to sign OAuth tokens');
      secret = crypto.createHmac('sha256', appKeys.join(',')).update('api-suite:oauth-access-token').digest();
    }
    return secret;
  };

  return {
    async issueToken(request: TokenRequest, basic?: { clientId: string; clientSecret: string }) {
      const grantType = request.grant_type;
      if (grantType === undefined || grantType === '') throw new OAuthError('invalid_request', 'grant_type is required');
      if (typeof grantType !== 'string') throw new OAuthError('invalid_request', 'grant_type must be a string');
      if (grantType !== 'client_credentials')
        throw new OAuthError('unsupported_grant_type', `grant_type "${grantType}" is not supported; use client_credentials`);

      const inBody = request.client_id !== undefined || request.client_secret !== undefined;
      if (basic && inBody)
        throw new OAuthError('invalid_request', 'send client credentials either in the Authorization header or in the body, not both');
      const clientId = basic?.clientId ?? request.client_id;
      const clientSecret = basic?.clientSecret ?? request.client_secret;
      if (typeof clientId !== 'string' || clientId === '' || typeof clientSecret !== 'string' || clientSecret === '') {
        throw new OAuthError('invalid_request', 'client_id and client_secret are required');
      }
      if (request.scope !== undefined && typeof request.scope !== 'string')
        throw new OAuthError('invalid_request', 'scope must be a space-separated string');

      const key = await getService(strapi, 'keys').findByClientId(clientId);
      // One answer for an unknown client and a wrong secret, compared in constant time.
      const secretMatches = safeEqual(hashApiKey(clientSecret), key?.keyHash ?? hashApiKey(`no such client ${clientId}`));
      if (!key || !secretMatches) throw new OAuthError('invalid_client', 'client authentication failed');
      const status = effectiveStatus(key.status, key.expiresAt);
      if (status !== 'active') throw new OAuthError('invalid_client', `the key is ${status}`);
      // A token for a key its owner can no longer use would only be refused on its first request.
      if (!key.user || key.user.blocked) throw new OAuthError('invalid_client', "the key's owner is blocked");

      const requested = typeof request.scope === 'string' && request.scope.trim() !== '' ? request.scope.trim().split(/\s+/) : key.scopes;
      const unknown = requested.filter((scope) => !key.scopes.includes(scope as Scope));
      if (unknown.length > 0) throw new OAuthError('invalid_scope', `the key does not have the scope ${unknown.join(', ')}`);
      const scopes = [...new Set(requested)] as Scope[];

      const accessToken = jwt.sign({ token_use: TOKEN_USE, scope: scopes.join(' '), client_id: key.clientId }, signingSecret(), {
        algorithm: 'HS256',
        expiresIn: TOKEN_LIFETIME_SECONDS,
        subject: String(key.id),
        issuer: ISSUER,
        jwtid: crypto.randomUUID(),
      });
      return { access_token: accessToken, token_type: 'Bearer' as const, expires_in: TOKEN_LIFETIME_SECONDS, scope: scopes.join(' ') };
    },

    /** True when the token claims to be one of ours (whether or not it verifies). */
    isOAuthToken(token: string): boolean {
      const decoded = jwt.decode(token);
      return typeof decoded === 'object' && decoded !== null && decoded.token_use === TOKEN_USE;
    },

    /** The key and scopes of a valid token, or null when it is forged, expired or malformed. */
    verify(token: string): AccessToken | null {
      try {
        const payload = jwt.verify(token, signingSecret(), { algorithms: ['HS256'], issuer: ISSUER });
        if (typeof payload !== 'object' || payload.token_use !== TOKEN_USE) return null;
        const keyId = Number(payload.sub);
        if (!Number.isInteger(keyId)) return null;
        const scopes = String(payload.scope ?? '')
          .split(' ')
          .filter((scope): scope is Scope => scope === 'read' || scope === 'write');
        return { keyId, scopes };
      } catch {
        return null;
      }
    },
  };
};

export type OAuthService = ReturnType<typeof oauthService>;
export default oauthService;
