import { startApp, type TestApp } from '../../helpers/app';
import { issueKey, type IssuedKey } from '../../helpers/keys';
import { registerUser, type TestUser } from '../../helpers/users';

/** OAuth 2.0 client credentials (RFC 6749 section 4.4) at /api/v1/oauth/token. */
let app: TestApp;
let alice: TestUser;
let key: IssuedKey;

beforeAll(async () => {
  app = await startApp();
  alice = await registerUser(app);
  key = await issueKey(app, alice, { scopes: ['read', 'write'] });
});

afterAll(async () => {
  await app?.close();
});

const token = () => app.request().post('/api/v1/oauth/token');

describe('POST /api/v1/oauth/token', () => {
  it('issues a bearer token from a JSON body, not cacheable', async () => {
    const response = await token().send({ grant_type: 'client_credentials', client_id: key.client_id, client_secret: key.key });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      access_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'read write',
    });
    expect(response.headers['cache-control']).toBe('no-store');
    const [header, payload] = response.body.access_token
      .split('.')
      .slice(0, 2)
      .map((part: string) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    expect(header.alg).toBe('HS256');
    expect(payload.exp - payload.iat).toBe(3600);
  });

  it('issues a token from a form body and from HTTP Basic client authentication', async () => {
    const form = await token()
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: key.client_id, client_secret: key.key, scope: 'read' });
    expect(form.status).toBe(200);
    expect(form.body.scope).toBe('read');
    const basic = await token()
      .type('form')
      .set('Authorization', `Basic ${Buffer.from(`${key.client_id}:${key.key}`).toString('base64')}`)
      .send({ grant_type: 'client_credentials' });
    expect(basic.status).toBe(200);
  });

  it('answers the RFC 6749 errors', async () => {
    const cases: Array<[Record<string, string>, number, string]> = [
      [{}, 400, 'invalid_request'],
      [{ grant_type: 'password', client_id: key.client_id, client_secret: key.key }, 400, 'unsupported_grant_type'],
      [{ grant_type: 'client_credentials' }, 400, 'invalid_request'],
      [{ grant_type: 'client_credentials', client_id: key.client_id, client_secret: `sk_${'x'.repeat(48)}` }, 401, 'invalid_client'],
      [{ grant_type: 'client_credentials', client_id: 'ci_nobody', client_secret: key.key }, 401, 'invalid_client'],
      [{ grant_type: 'client_credentials', client_id: key.client_id, client_secret: key.key, scope: 'read admin' }, 400, 'invalid_scope'],
    ];
    for (const [body, status, error] of cases) {
      const response = await token().send(body);
      expect({ status: response.status, error: response.body.error }).toEqual({ status, error });
      expect(response.body.error_description).toEqual(expect.any(String));
      expect(Object.keys(response.body).sort()).toEqual(['error', 'error_description']);
    }
  });

  it('narrows scope to what the key has', async () => {
    const reader = await issueKey(app, alice, { scopes: ['read'] });
    const response = await token().send({
      grant_type: 'client_credentials',
      client_id: reader.client_id,
      client_secret: reader.key,
      scope: 'read write',
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_scope');
  });
});

describe('using the token', () => {
  const issue = async (scope?: string) =>
    (
      await token().send({
        grant_type: 'client_credentials',
        client_id: key.client_id,
        client_secret: key.key,
        ...(scope ? { scope } : {}),
      })
    ).body.access_token as string;

  it('is accepted by the access middleware and counted in the same pool as its key', async () => {
    const first = await app.request().get('/api/v1/articles').set('X-API-Key', key.key);
    const remaining = Number(first.headers['x-ratelimit-remaining']);
    const withToken = await app
      .request()
      .get('/api/v1/articles')
      .set('Authorization', `Bearer ${await issue()}`);
    expect(withToken.status).toBe(200);
    expect(Number(withToken.headers['x-ratelimit-remaining'])).toBe(remaining - 1);
  });

  it('carries only the scopes it was issued with', async () => {
    const readOnly = await issue('read');
    const write = await app.request().post('/api/v1/keys').set('Authorization', `Bearer ${readOnly}`).send({});
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe('insufficient_scope');
  });

  it('stops working when its key is revoked', async () => {
    const victim = await issueKey(app, alice, { scopes: ['read'] });
    const victimToken = (await token().send({ grant_type: 'client_credentials', client_id: victim.client_id, client_secret: victim.key }))
      .body.access_token;
    expect((await app.request().get('/api/v1/keys').set('Authorization', `Bearer ${victimToken}`)).status).toBe(200);
    await app.request().delete(`/api/v1/keys/${victim.id}`).set('Authorization', `Bearer ${alice.jwt}`).expect(204);
    const refused = await app.request().get('/api/v1/keys').set('Authorization', `Bearer ${victimToken}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('key_revoked');
    const noNewToken = await token().send({ grant_type: 'client_credentials', client_id: victim.client_id, client_secret: victim.key });
    expect(noNewToken.status).toBe(401);
    expect(noNewToken.body.error).toBe('invalid_client');
  });

  it('refuses a tampered token', async () => {
    const good = await issue();
    const [header, , signature] = good.split('.');
    const payload = Buffer.from(
      JSON.stringify({ token_use: 'oauth_client_credentials', scope: 'read write', sub: '1', iss: 'strapi-plugin-api-suite' })
    ).toString('base64url');
    const response = await app.request().get('/api/v1/keys').set('Authorization', `Bearer ${header}.${payload}.${signature}`);
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('invalid_token');
  });
});
