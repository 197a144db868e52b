import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { buildOpenApiDocument, type OpenApiDocument } from '../../../src/plugins/api-suite/server/src/contract/openapi';
import { scraper } from '../../../src/plugins/api-suite/server/src/features/scrapers/validation/responses';
import { scrapersApi } from '../../../src/plugins/api-suite/server/src/features/scrapers/validation/contracts';
import { startApp, type TestApp } from '../../helpers/app';
import { awayFromMinuteEdge, createPlan, issueKey, planId, type IssuedKey } from '../../helpers/keys';
import {
  compileAllResponseSchemas,
  documentedOperations,
  expectResponseToMatchSpec,
  expectToMatchSchema,
  useOpenApiDocument,
  type SpecResponse,
} from '../../helpers/openapi';
import { APP_DIR } from '../../helpers/paths';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { orderData } from '../../helpers/webhooks';
import { startSite, type TestSite } from '../../helpers/site';
import { allowArticleWrites, makeAdministrator, registerUser, type TestUser } from '../../helpers/users';
import { eventually } from '../../helpers/wait';

/**
 * The OpenAPI document of /api/v1: served, valid (Redocly's recommended ruleset, offline), and
 * true: real answers of every documented route, successes and refusals, match it.
 */
let app: TestApp;
let alice: TestUser;
let admin: TestUser;
let readKey: IssuedKey;
let writeKey: IssuedKey;
let freeKey: IssuedKey;
let openApiDocument: OpenApiDocument;

beforeAll(async () => {
  app = await startApp();
  openApiDocument = (await app.request().get('/api/v1/openapi.json')).body as OpenApiDocument;
  useOpenApiDocument(openApiDocument);
  alice = await registerUser(app);
  await allowArticleWrites(app, alice);
  admin = await makeAdministrator(app, await registerUser(app));
  // The pro plan (100 requests a minute, public and private endpoints) keeps this file clear of
  // the free plan's 10 a minute; a free key is used where the plan itself is the point.
  const pro = await planId(app, 'pro');
  readKey = await issueKey(app, admin, { scopes: ['read'], plan_id: pro, user_id: alice.id });
  writeKey = await issueKey(app, admin, { scopes: ['read', 'write'], plan_id: pro, user_id: alice.id });
  freeKey = await issueKey(app, alice, { scopes: ['read', 'write'] });
});

afterAll(async () => {
  await app?.close();
});

/** supertest's response as the helper takes it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- supertest types every body as any; each test reads what it checks
type Answer = SpecResponse & { body: any };
const check = (response: Answer, method: string, template: string): Answer => {
  expectResponseToMatchSpec(response, method, template);
  return response;
};

describe('the document', () => {
  it('is served at GET /api/v1/openapi.json without credentials', async () => {
    const response = await app.request().get('/api/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual(JSON.parse(JSON.stringify(app.strapi.plugin('api-suite').service('openapi').document())));
    expect(response.body.openapi).toBe('3.1.0');
    expect(response.body.info).toMatchObject({ title: 'API business', version: '1.0.0' });
    check(response, 'GET', '/api/v1/openapi.json');
  });

  it('has an operationId, a summary, tags and responses on every operation, and compiles with Ajv', () => {
    const ids = new Set<string>();
    for (const { method, path: template } of documentedOperations()) {
      const operation = openApiDocument.paths[template][method.toLowerCase() as 'get'] as { operationId: string };
      expect(operation).toMatchObject({ operationId: expect.any(String), summary: expect.any(String), tags: expect.any(Array) });
      expect(ids.has(operation!.operationId)).toBe(false);
      ids.add(operation!.operationId);
    }
    expect(compileAllResponseSchemas()).toBeGreaterThan(30);
  });

  it('is generated from the zod schemas the routes answer in: a field of a schema is a field of the document', () => {
    // The served component is the zod schema's own JSON Schema: every field, and nothing else.
    expect(Object.keys(openApiDocument.components.schemas.Scraper.properties as object).sort()).toEqual(Object.keys(scraper.shape).sort());
    // Change one schema and the document changes with it, through the same builder the app uses.
    const changed = {
      ...scrapersApi,
      components: { ...scrapersApi.components, Scraper: scraper.extend({ colour: z.string().meta({ description: 'A new field.' }) }) },
    };
    const document = buildOpenApiDocument({ title: 't', version: '1' }, [changed]);
    expect((document.components.schemas.Scraper.properties as Record<string, unknown>).colour).toEqual({
      type: 'string',
      description: 'A new field.',
    });
    expect(document.components.schemas.Scraper.required).toContain('colour');
  });

  it('documents every /api/v1 and /api/webhooks route the app serves, and nothing it does not', () => {
    // The site's own content API (/api/authors, …) is checked in content-api.test.ts.
    const ours = (template: string) => template.startsWith('/api/v1/') || template.startsWith('/api/webhooks/');
    const served = new Set<string>();
    for (const layer of app.strapi.server.listRoutes() as Array<{ path: string; methods: string[] }>) {
      if (!ours(layer.path)) continue;
      const template = layer.path.replace(/:(\w+)/g, '{$1}');
      for (const method of layer.methods) if (method !== 'HEAD') served.add(`${method} ${template}`);
    }
    const documented = new Set(
      documentedOperations()
        .filter(({ path: template }) => ours(template))
        .map(({ method, path: template }) => `${method} ${template}`)
    );
    expect([...served].sort()).toEqual([...documented].sort());
  });

  it('passes `redocly lint` (recommended ruleset) with no errors', async () => {
    const response = await app.request().get('/api/v1/openapi.json');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-'));
    const file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, JSON.stringify(response.body, null, 2));
    try {
      const { code, output } = await new Promise<{ code: number; output: string }>((resolve, reject) => {
        execFile(
          path.join(APP_DIR, 'node_modules', '.bin', 'redocly'),
          ['lint', '--format=stylish', '--config', path.join(APP_DIR, 'redocly.yaml'), file],
          {
            cwd: dir,
            timeout: 120_000,
            // No network here: no telemetry, no update check.
            env: {
              ...process.env,
              REDOCLY_TELEMETRY: 'off',
              REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
              REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
              NO_COLOR: '1',
            },
          },
          (error, stdout, stderr) => {
            const failure = error as (NodeJS.ErrnoException & { killed?: boolean; code?: number | string }) | null;
            if (failure && (failure.killed || typeof failure.code !== 'number'))
              reject(new Error(`redocly did not run: ${failure.message}\n${stdout}\n${stderr}`));
            else resolve({ code: failure ? Number(failure.code) : 0, output: `${stdout}\n${stderr}` });
          }
        );
      });
      const errors = output.split('\n').filter((line) => /^\s*\d+:\d+\s+error\s/.test(line));
      expect({ code, errors }).toEqual({ code: 0, errors: [] });
      expect(output).toMatch(/Your API description is valid/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);
});

describe('plans', () => {
  it('GET /api/v1/plans', async () => {
    const response = check(await app.request().get('/api/v1/plans'), 'GET', '/api/v1/plans');
    expect(response.status).toBe(200);
    expect(response.body.data.map((plan: { name: string }) => plan.name)).toEqual(expect.arrayContaining(['free', 'pro', 'enterprise']));
  });
});

describe('keys', () => {
  it('POST /api/v1/keys: 201, 400, 403 and 422', async () => {
    const created = check(
      await app
        .request()
        .post('/api/v1/keys')
        .set('Authorization', `Bearer ${alice.jwt}`)
        .send({ name: 'ci', scopes: ['read', 'write'], expires_at: new Date(Date.now() + 86_400_000).toISOString() }),
      'POST',
      '/api/v1/keys'
    );
    expect(created.status).toBe(201);
    const bare = check(await app.request().post('/api/v1/keys').set('Authorization', `Bearer ${alice.jwt}`), 'POST', '/api/v1/keys');
    expect(bare.status).toBe(201);
    expect(bare.body.data).toMatchObject({ name: null, scopes: ['read'], expires_at: null });

    const invalid = check(
      await app
        .request()
        .post('/api/v1/keys')
        .set('Authorization', `Bearer ${alice.jwt}`)
        .send({ scopes: ['admin'], colour: 'red' }),
      'POST',
      '/api/v1/keys'
    );
    expect(invalid.status).toBe(400);
    const notAdmin = check(
      await app.request().post('/api/v1/keys').set('Authorization', `Bearer ${alice.jwt}`).send({ plan_id: 1 }),
      'POST',
      '/api/v1/keys'
    );
    expect(notAdmin).toMatchObject({ status: 403, body: { error: { code: 'forbidden' } } });
    const stronger = check(
      await app
        .request()
        .post('/api/v1/keys')
        .set('X-API-Key', readKey.key)
        .send({ scopes: ['write'] }),
      'POST',
      '/api/v1/keys'
    );
    expect(stronger.status).toBe(403); // the read key lacks write to call POST at all
    const unknownPlan = check(
      await app.request().post('/api/v1/keys').set('Authorization', `Bearer ${admin.jwt}`).send({ plan_id: 999_999 }),
      'POST',
      '/api/v1/keys'
    );
    expect(unknownPlan).toMatchObject({ status: 422, body: { error: { code: 'unknown_plan' } } });
  });

  it('GET /api/v1/keys: 200 with the rate-limit headers, and 400', async () => {
    const listed = check(await app.request().get('/api/v1/keys?page=1&limit=5').set('X-API-Key', readKey.key), 'GET', '/api/v1/keys');
    expect(listed.status).toBe(200);
    expect(listed.headers['x-ratelimit-limit']).toBeDefined();
    const byQuery = check(await app.request().get(`/api/v1/keys?api_key=${readKey.key}`), 'GET', '/api/v1/keys');
    expect(byQuery.status).toBe(200);
    const asAdmin = check(
      await app.request().get(`/api/v1/keys?user_id=${alice.id}`).set('Authorization', `Bearer ${admin.jwt}`),
      'GET',
      '/api/v1/keys'
    );
    expect(asAdmin.status).toBe(200);
    const invalid = check(await app.request().get('/api/v1/keys?limit=0').set('X-API-Key', readKey.key), 'GET', '/api/v1/keys');
    expect(invalid.status).toBe(400);
  });

  it('DELETE /api/v1/keys/{id}: 204, 404, and the revoked key refused with 403', async () => {
    const doomed = await issueKey(app, alice);
    const revoked = check(
      await app.request().delete(`/api/v1/keys/${doomed.id}`).set('Authorization', `Bearer ${alice.jwt}`),
      'DELETE',
      '/api/v1/keys/{id}'
    );
    expect(revoked.status).toBe(204);
    const missing = check(
      await app.request().delete('/api/v1/keys/999999').set('Authorization', `Bearer ${alice.jwt}`),
      'DELETE',
      '/api/v1/keys/{id}'
    );
    expect(missing.status).toBe(404);
    const refused = check(await app.request().get('/api/v1/keys').set('X-API-Key', doomed.key), 'GET', '/api/v1/keys');
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'key_revoked' } } });
  });

  it('refusals: 401 without or with a bad credential, 429 over the minute', async () => {
    const none = check(await app.request().get('/api/v1/keys'), 'GET', '/api/v1/keys');
    expect(none).toMatchObject({ status: 401, body: { error: { code: 'api_key_required' } } });
    const bad = check(
      await app
        .request()
        .get('/api/v1/usage')
        .set('X-API-Key', `sk_${'0'.repeat(48)}`),
      'GET',
      '/api/v1/usage'
    );
    expect(bad).toMatchObject({ status: 401, body: { error: { code: 'invalid_api_key' } } });
    const badJwt = check(
      await app.request().delete('/api/v1/keys/1').set('Authorization', 'Bearer not.a.jwt'),
      'DELETE',
      '/api/v1/keys/{id}'
    );
    expect(badJwt).toMatchObject({ status: 401, body: { error: { code: 'invalid_token' } } });

    const tight = await createPlan(app, {
      name: 'openapi-one-a-minute',
      requests_per_month: 1000,
      requests_per_minute: 1,
      endpoints: ['* *'],
    });
    const key = await issueKey(app, admin, { plan_id: tight, user_id: alice.id });
    await awayFromMinuteEdge();
    const first = check(await app.request().get('/api/v1/scrapers').set('X-API-Key', key.key), 'GET', '/api/v1/scrapers');
    expect(first.status).toBe(200);
    const second = check(await app.request().get('/api/v1/scrapers').set('X-API-Key', key.key), 'GET', '/api/v1/scrapers');
    expect(second).toMatchObject({ status: 429, body: { error: { code: 'rate_limited' } } });
    expect(second.headers['retry-after']).toBeDefined();
  });

  it('rejects an undocumented status and a drifted body', () => {
    expect(() => expectResponseToMatchSpec({ status: 418, body: {}, headers: {} }, 'GET', '/api/v1/plans')).toThrow(/not documented/);
    expect(() => expectResponseToMatchSpec({ status: 200, body: {}, headers: {} }, 'GET', '/api/v1/nowhere')).toThrow(/not documented/);
    expect(() =>
      expectResponseToMatchSpec(
        { status: 200, body: { data: [{ id: 1, name: 'free', extra: true }] }, headers: { 'content-type': 'application/json' } },
        'GET',
        '/api/v1/plans'
      )
    ).toThrow(/does not match/);
    expect(() => expectResponseToMatchSpec({ status: 204, body: {}, text: '{"a":1}', headers: {} }, 'DELETE', '/api/v1/keys/{id}')).toThrow(
      /body was sent/
    );
    expect(() =>
      expectResponseToMatchSpec(
        { status: 429, body: { error: { code: 'rate_limited', message: 'x' } }, headers: { 'content-type': 'application/json' } },
        'GET',
        '/api/v1/scrapers'
      )
    ).toThrow(/Retry-After is missing/);
  });
});

describe('usage', () => {
  it('GET /api/v1/usage: 200, 400 and 404', async () => {
    const report = check(await app.request().get('/api/v1/usage?granularity=hour').set('X-API-Key', readKey.key), 'GET', '/api/v1/usage');
    expect(report.status).toBe(200);
    const one = check(
      await app
        .request()
        .get(
          `/api/v1/usage?key_id=${readKey.id}&granularity=minute&from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`
        )
        .set('Authorization', `Bearer ${alice.jwt}`),
      'GET',
      '/api/v1/usage'
    );
    expect(one.status).toBe(200);
    const invalid = check(await app.request().get('/api/v1/usage?granularity=week').set('X-API-Key', readKey.key), 'GET', '/api/v1/usage');
    expect(invalid.status).toBe(400);
    const tooFine = check(
      await app.request().get(`/api/v1/usage?granularity=minute&from=2020-01-01T00:00:00Z`).set('X-API-Key', readKey.key),
      'GET',
      '/api/v1/usage'
    );
    expect(tooFine.status).toBe(400);
    const other = check(
      await app.request().get(`/api/v1/usage?key_id=${readKey.id}`).set('Authorization', `Bearer ${admin.jwt}`),
      'GET',
      '/api/v1/usage'
    );
    expect(other.status).toBe(200); // administrators see any key
    const notYours = await issueKey(app, admin);
    const hidden = check(
      await app.request().get(`/api/v1/usage?key_id=${notYours.id}`).set('X-API-Key', readKey.key),
      'GET',
      '/api/v1/usage'
    );
    expect(hidden.status).toBe(404);
  });

  it('GET /api/v1/usage/stream: 400 as JSON, 200 as an event stream of UsageReport', async () => {
    const invalid = check(
      await app.request().get('/api/v1/usage/stream?interval=9').set('X-API-Key', readKey.key),
      'GET',
      '/api/v1/usage/stream'
    );
    expect(invalid.status).toBe(400);

    const { status, headers, text } = await firstEvent(`${app.url}/api/v1/usage/stream?interval=1`, { 'X-API-Key': readKey.key });
    check({ status, headers, body: text, text }, 'GET', '/api/v1/usage/stream');
    expect(text).toMatch(/^retry: 1000\n\n/);
    const event = /event: usage\ndata: (.*)\n\n/.exec(text);
    expect(event).not.toBeNull();
    expectToMatchSchema(JSON.parse(event![1]), 'UsageReport');
  });
});

describe('oauth', () => {
  const token = () => app.request().post('/api/v1/oauth/token');

  it('POST /api/v1/oauth/token: 200 from JSON and from a form, 400 and 401', async () => {
    const granted = check(
      await token().send({ grant_type: 'client_credentials', client_id: readKey.client_id, client_secret: readKey.key }),
      'POST',
      '/api/v1/oauth/token'
    );
    expect(granted.status).toBe(200);
    const form = check(
      await token()
        .type('form')
        .send({ grant_type: 'client_credentials', client_id: readKey.client_id, client_secret: readKey.key, scope: 'read' }),
      'POST',
      '/api/v1/oauth/token'
    );
    expect(form.status).toBe(200);
    const unsupported = check(await token().send({ grant_type: 'password' }), 'POST', '/api/v1/oauth/token');
    expect(unsupported).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
    const badScope = check(
      await token().send({ grant_type: 'client_credentials', client_id: readKey.client_id, client_secret: readKey.key, scope: 'write' }),
      'POST',
      '/api/v1/oauth/token'
    );
    expect(badScope).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    const wrong = check(
      await token().send({ grant_type: 'client_credentials', client_id: readKey.client_id, client_secret: `sk_${'x'.repeat(48)}` }),
      'POST',
      '/api/v1/oauth/token'
    );
    expect(wrong).toMatchObject({ status: 401, body: { error: 'invalid_client' } });

    // The token works where the document says bearer credentials do.
    const listed = check(
      await app.request().get('/api/v1/keys').set('Authorization', `Bearer ${granted.body.access_token}`),
      'GET',
      '/api/v1/keys'
    );
    expect(listed.status).toBe(200);
    const forged = check(
      await app
        .request()
        .get('/api/v1/keys')
        .set('Authorization', `Bearer ${granted.body.access_token.slice(0, -4)}AAAA`),
      'GET',
      '/api/v1/keys'
    );
    expect(forged.status).toBe(401);
  });
});

describe('scrapers', () => {
  let site: TestSite;

  beforeAll(async () => {
    site = await startSite();
  });

  afterAll(async () => {
    await site?.close();
  });

  const waitForRun = (id: number, runId: number) =>
    eventually(
      async () => {
        const run = await app.request().get(`/api/v1/scrapers/${id}/runs/${runId}`).set('X-API-Key', readKey.key);
        return ['completed', 'failed', 'stopped'].includes(run.body.status) ? run : undefined;
      },
      30_000,
      'the run to end'
    );

  it('creates, reads, runs, stops, lists and deletes, as documented', async () => {
    const key = writeKey.key;
    expect(
      check(await app.request().post('/api/v1/scrapers').set('X-API-Key', key).send({ name: '' }), 'POST', '/api/v1/scrapers').status
    ).toBe(400);
    const created = check(
      await app
        .request()
        .post('/api/v1/scrapers')
        .set('X-API-Key', key)
        .send({
          name: 'doc',
          url: `${site.url}/`,
          selectors: { item: '.product', fields: { name: '.name' } },
          schedule: '0 3 * * *',
          change_detection: { key: 'name' },
        }),
      'POST',
      '/api/v1/scrapers'
    );
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    expect(check(await app.request().get('/api/v1/scrapers').set('X-API-Key', key), 'GET', '/api/v1/scrapers').status).toBe(200);
    expect(check(await app.request().get(`/api/v1/scrapers/${id}`).set('X-API-Key', key), 'GET', '/api/v1/scrapers/{id}').status).toBe(200);
    expect(check(await app.request().get('/api/v1/scrapers/999999').set('X-API-Key', key), 'GET', '/api/v1/scrapers/{id}').status).toBe(
      404
    );
    expect(
      check(
        await app.request().patch(`/api/v1/scrapers/${id}`).set('X-API-Key', key).send({ schedule: null }),
        'PATCH',
        '/api/v1/scrapers/{id}'
      ).status
    ).toBe(200);
    expect(
      check(await app.request().get(`/api/v1/scrapers/${id}/status`).set('X-API-Key', key), 'GET', '/api/v1/scrapers/{id}/status').status
    ).toBe(200);
    expect(
      check(await app.request().post(`/api/v1/scrapers/${id}/stop`).set('X-API-Key', key), 'POST', '/api/v1/scrapers/{id}/stop').status
    ).toBe(409);

    const started = check(
      await app.request().post(`/api/v1/scrapers/${id}/run`).set('X-API-Key', key),
      'POST',
      '/api/v1/scrapers/{id}/run'
    );
    expect(started.status).toBe(202);
    check(await waitForRun(id, started.body.run_id), 'GET', '/api/v1/scrapers/{id}/runs/{runId}');
    expect(
      check(await app.request().get(`/api/v1/scrapers/${id}/runs`).set('X-API-Key', key), 'GET', '/api/v1/scrapers/{id}/runs').status
    ).toBe(200);
    expect(
      check(await app.request().get(`/api/v1/scrapers/${id}/status`).set('X-API-Key', key), 'GET', '/api/v1/scrapers/{id}/status').body
        .items_count
    ).toBe(3);
    expect(
      check(await app.request().get(`/api/v1/scrapers/${id}/results`).set('X-API-Key', key), 'GET', '/api/v1/scrapers/{id}/results').body
        .meta.total
    ).toBe(3);
    expect(
      check(
        await app.request().get(`/api/v1/scrapers/${id}/results?change=new,changed`).set('X-API-Key', key),
        'GET',
        '/api/v1/scrapers/{id}/results'
      ).body.meta.total
    ).toBe(3);
    expect(
      check(
        await app.request().get(`/api/v1/scrapers/${id}/results?change=gone`).set('X-API-Key', key),
        'GET',
        '/api/v1/scrapers/{id}/results'
      ).status
    ).toBe(400);
    for (const format of ['ndjson', 'csv']) {
      const exported = await app
        .request()
        .get(`/api/v1/scrapers/${id}/results?format=${format}`)
        .set('X-API-Key', key)
        .buffer(true)
        .parse((res, done) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => done(null, text));
        });
      expect(check(exported, 'GET', '/api/v1/scrapers/{id}/results').status).toBe(200);
    }

    const hanging = check(
      await app
        .request()
        .post('/api/v1/scrapers')
        .set('X-API-Key', key)
        .send({ name: 'hang', url: `${site.url}/hang` }),
      'POST',
      '/api/v1/scrapers'
    );
    check(await app.request().post(`/api/v1/scrapers/${hanging.body.id}/run`).set('X-API-Key', key), 'POST', '/api/v1/scrapers/{id}/run');
    expect(
      check(await app.request().post(`/api/v1/scrapers/${hanging.body.id}/run`).set('X-API-Key', key), 'POST', '/api/v1/scrapers/{id}/run')
        .status
    ).toBe(409);
    expect(
      check(
        await app.request().post(`/api/v1/scrapers/${hanging.body.id}/stop`).set('X-API-Key', key),
        'POST',
        '/api/v1/scrapers/{id}/stop'
      ).status
    ).toBe(200);

    expect(
      check(await app.request().delete(`/api/v1/scrapers/${id}`).set('X-API-Key', key), 'DELETE', '/api/v1/scrapers/{id}').status
    ).toBe(204);
    expect(
      check(await app.request().delete(`/api/v1/scrapers/${hanging.body.id}`).set('X-API-Key', key), 'DELETE', '/api/v1/scrapers/{id}')
        .status
    ).toBe(204);
  });

  it('POST /api/v1/webhooks: 201 and 400', async () => {
    const created = check(
      await app
        .request()
        .post('/api/v1/webhooks')
        .set('X-API-Key', writeKey.key)
        .send({ url: `${site.url}/hooks`, events: ['run.failed'] }),
      'POST',
      '/api/v1/webhooks'
    );
    expect(created.status).toBe(201);
    expect(
      check(await app.request().post('/api/v1/webhooks').set('X-API-Key', writeKey.key).send({ url: 'nope' }), 'POST', '/api/v1/webhooks')
        .status
    ).toBe(400);
  });
});

describe('articles', () => {
  const as = (key: IssuedKey) => ({ 'X-API-Key': key.key });
  let authorId: number;

  beforeAll(async () => {
    const author = await app.strapi.db.query('api::author.author').create({ data: { name: 'Ada', email: 'ada@example.test' } });
    authorId = author.id;
  });

  it('creates, reads, lists, changes and deletes, as documented', async () => {
    const created = check(
      await app
        .request()
        .post('/api/v1/articles')
        .set(as(writeKey))
        .send({ title: 'OpenAPI first', excerpt: 'x', author_id: authorId, status: 'published' }),
      'POST',
      '/api/v1/articles'
    );
    expect(created.status).toBe(201);
    const id: string = created.body.data.id;
    const minimal = check(
      await app.request().post('/api/v1/articles').set(as(writeKey)).send({ title: 'OpenAPI second' }),
      'POST',
      '/api/v1/articles'
    );
    expect(minimal.status).toBe(201);
    await app.strapi.db.query('api::comment.comment').create({
      data: {
        body: 'Nice',
        author_name: null,
        article: (await app.strapi.db.query('api::article.article').findOne({ where: { uuid: id } })).id,
      },
    });

    expect(
      check(
        await app.request().post('/api/v1/articles').set(as(writeKey)).send({ title: 'Dup', slug: created.body.data.slug }),
        'POST',
        '/api/v1/articles'
      ).status
    ).toBe(409);
    expect(
      check(
        await app.request().post('/api/v1/articles').set(as(writeKey)).send({ title: 'Who', author_id: 999_999 }),
        'POST',
        '/api/v1/articles'
      ).status
    ).toBe(422);
    expect(
      check(await app.request().post('/api/v1/articles').set(as(writeKey)).send({ title: '', colour: 'red' }), 'POST', '/api/v1/articles')
        .status
    ).toBe(400);
    // The free plan holds GET /api/v1/articles* only.
    const notInPlan = check(
      await app.request().post('/api/v1/articles').set(as(freeKey)).send({ title: 'No' }),
      'POST',
      '/api/v1/articles'
    );
    expect(notInPlan).toMatchObject({ status: 403, body: { error: { code: 'endpoint_not_in_plan' } } });

    const one = check(
      await app.request().get(`/api/v1/articles/${id}?include=author,comments`).set(as(readKey)),
      'GET',
      '/api/v1/articles/{id}'
    );
    expect(one.status).toBe(200);
    expect(one.body.data.author).toEqual({ id: authorId, name: 'Ada' });
    expect(one.body.data.comments).toHaveLength(1);
    const noAuthor = check(
      await app.request().get(`/api/v1/articles/${minimal.body.data.id}?include=author`).set(as(readKey)),
      'GET',
      '/api/v1/articles/{id}'
    );
    expect(noAuthor.body.data.author).toBeNull();
    expect(
      check(await app.request().get(`/api/v1/articles/${id}?include=tags`).set(as(readKey)), 'GET', '/api/v1/articles/{id}').status
    ).toBe(400);
    expect(check(await app.request().get('/api/v1/articles/nope').set(as(readKey)), 'GET', '/api/v1/articles/{id}').status).toBe(404);

    const page = check(
      await app.request().get('/api/v1/articles?limit=1&sort=title&order=asc&include=author').set(as(readKey)),
      'GET',
      '/api/v1/articles'
    );
    expect(page.body.meta).toMatchObject({ page: 1, limit: 1, total: 2, pages: 2 });
    const keyset = check(
      await app.request().get(`/api/v1/articles?limit=1&sort=title&order=asc&after_id=${page.body.data[0].id}`).set(as(readKey)),
      'GET',
      '/api/v1/articles'
    );
    expect(keyset.body.meta).toEqual({ limit: 1, next_after_id: null, has_more: false });
    const filtered = check(
      await app
        .request()
        .get(`/api/v1/articles?status=published&author_id=${authorId}&created_after=2020-01-01&per_page=10`)
        .set(as(readKey)),
      'GET',
      '/api/v1/articles'
    );
    expect(filtered.body.data).toHaveLength(1);
    expect(check(await app.request().get('/api/v1/articles?limit=500').set(as(readKey)), 'GET', '/api/v1/articles').status).toBe(400);

    const comments = check(
      await app.request().get(`/api/v1/articles/${id}/comments?page=1&limit=10`).set(as(readKey)),
      'GET',
      '/api/v1/articles/{id}/comments'
    );
    expect(comments.body.meta).toEqual({ page: 1, limit: 10, total: 1, pages: 1 });
    expect(
      check(await app.request().get(`/api/v1/articles/${id}/comments?limit=0`).set(as(readKey)), 'GET', '/api/v1/articles/{id}/comments')
        .status
    ).toBe(400);
    expect(
      check(await app.request().get('/api/v1/articles/999999/comments').set(as(readKey)), 'GET', '/api/v1/articles/{id}/comments').status
    ).toBe(404);

    const replaced = check(
      await app.request().put(`/api/v1/articles/${id}`).set(as(writeKey)).send({ title: 'OpenAPI first, again', status: 'archived' }),
      'PUT',
      '/api/v1/articles/{id}'
    );
    expect(replaced.body.data).toMatchObject({ status: 'archived', excerpt: null, author_id: null });
    expect(
      check(
        await app.request().put(`/api/v1/articles/${id}`).set(as(writeKey)).send({ title: 'No status' }),
        'PUT',
        '/api/v1/articles/{id}'
      ).status
    ).toBe(400);
    expect(
      check(
        await app
          .request()
          .put(`/api/v1/articles/${id}`)
          .set(as(writeKey))
          .send({ title: 'T', status: 'draft', slug: minimal.body.data.slug }),
        'PUT',
        '/api/v1/articles/{id}'
      ).status
    ).toBe(409);
    const patched = check(
      await app.request().patch(`/api/v1/articles/${id}`).set(as(writeKey)).send({ excerpt: 'Short', author_id: authorId }),
      'PATCH',
      '/api/v1/articles/{id}'
    );
    expect(patched.body.data).toMatchObject({ excerpt: 'Short', author_id: authorId, status: 'archived' });
    expect(
      check(await app.request().patch(`/api/v1/articles/${id}`).set(as(writeKey)).send({}), 'PATCH', '/api/v1/articles/{id}').status
    ).toBe(400);
    expect(
      check(
        await app.request().patch(`/api/v1/articles/${id}`).set(as(writeKey)).send({ author_id: 999_999 }),
        'PATCH',
        '/api/v1/articles/{id}'
      ).status
    ).toBe(422);
    expect(
      check(
        await app.request().patch('/api/v1/articles/999999').set(as(writeKey)).send({ title: 'Gone' }),
        'PATCH',
        '/api/v1/articles/{id}'
      ).status
    ).toBe(404);

    expect(check(await app.request().delete(`/api/v1/articles/${id}`).set(as(writeKey)), 'DELETE', '/api/v1/articles/{id}').status).toBe(
      204
    );
    expect(check(await app.request().delete(`/api/v1/articles/${id}`).set(as(writeKey)), 'DELETE', '/api/v1/articles/{id}').status).toBe(
      404
    );
    expect(check(await app.request().get('/api/v1/articles'), 'GET', '/api/v1/articles').status).toBe(401);
  });
});

/** Open an SSE stream, keep what arrives until the first `usage` event, and hang up. */
function firstEvent(
  url: string,
  headers: Record<string, string>
): Promise<{ status: number; headers: Record<string, string>; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { Accept: 'text/event-stream', ...headers } }, (response) => {
      let text = '';
      const timer = setTimeout(() => {
        request.destroy();
        reject(new Error(`no usage event within 10 s; received: ${text}`));
      }, 10_000);
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
        if (/event: usage\ndata: .*\n\n/.test(text)) {
          clearTimeout(timer);
          request.destroy();
          const flat = Object.fromEntries(
            Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)])
          );
          resolve({ status: response.statusCode ?? 0, headers: flat, text });
        }
      });
    });
    request.on('error', (error) => {
      if (!request.destroyed) reject(error);
    });
  });
}

describe('webhooks', () => {
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
  });

  afterAll(async () => {
    await receiver?.close();
  });

  it('every /api/webhooks route answers as documented, refusals in the flat shape included', async () => {
    const key = writeKey.key;
    const post = (path: string, body?: object) => app.request().post(path).set('X-API-Key', key).send(body);
    expect(
      check(await post('/api/webhooks/subscriptions', { endpoint_url: 'nope', events: [] }), 'POST', '/api/webhooks/subscriptions').status
    ).toBe(400);
    expect(
      check(
        await post('/api/webhooks/subscriptions', { endpoint_url: `${receiver.url}/x`, events: ['no.such'] }),
        'POST',
        '/api/webhooks/subscriptions'
      ).status
    ).toBe(422);
    const created = check(
      await post('/api/webhooks/subscriptions', { endpoint_url: `${receiver.url}/doc`, events: ['*'] }),
      'POST',
      '/api/webhooks/subscriptions'
    );
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const get = (path: string) => app.request().get(path).set('X-API-Key', key);
    expect(check(await get('/api/webhooks/subscriptions'), 'GET', '/api/webhooks/subscriptions').status).toBe(200);
    expect(check(await get(`/api/webhooks/subscriptions/${id}`), 'GET', '/api/webhooks/subscriptions/{id}').status).toBe(200);
    expect(
      check(await get('/api/webhooks/subscriptions/00000000-0000-4000-8000-000000000000'), 'GET', '/api/webhooks/subscriptions/{id}').status
    ).toBe(404);
    const patched = await app
      .request()
      .patch(`/api/webhooks/subscriptions/${id}`)
      .set('X-API-Key', key)
      .send({ description: 'documented' });
    expect(check(patched, 'PATCH', '/api/webhooks/subscriptions/{id}').status).toBe(200);
    expect(check(await post(`/api/webhooks/subscriptions/${id}/test`), 'POST', '/api/webhooks/subscriptions/{id}/test').status).toBe(200);
    expect(
      check(await post(`/api/webhooks/subscriptions/${id}/rotate-secret`), 'POST', '/api/webhooks/subscriptions/{id}/rotate-secret').status
    ).toBe(200);
    const deliveries = check(
      await get(`/api/webhooks/subscriptions/${id}/deliveries`),
      'GET',
      '/api/webhooks/subscriptions/{id}/deliveries'
    );
    expect(deliveries.body.data.length).toBeGreaterThan(0);
    const deliveryId = deliveries.body.data[0].id as string;
    expect(
      check(await get(`/api/webhooks/deliveries/${deliveryId}`), 'GET', '/api/webhooks/deliveries/{id}').body.attempts.length
    ).toBeGreaterThan(0);
    expect(check(await post(`/api/webhooks/deliveries/${deliveryId}/retry`), 'POST', '/api/webhooks/deliveries/{id}/retry').status).toBe(
      202
    );
    expect(check(await get('/api/webhooks/event-types'), 'GET', '/api/webhooks/event-types').status).toBe(200);
    // Publishing: a consumer is refused in the flat shape, an administrator publishes one event and a batch.
    const refused = check(await post('/api/webhooks/events', { type: 'order.paid', payload: {} }), 'POST', '/api/webhooks/events');
    expect(refused.status).toBe(403);
    const asAdmin = (body: object) => app.request().post('/api/webhooks/events').set('Authorization', `Bearer ${admin.jwt}`).send(body);
    expect(
      check(await asAdmin({ type: 'order.paid', payload: orderData('x', { status: 'paid' }) }), 'POST', '/api/webhooks/events').status
    ).toBe(202);
    expect(
      check(
        await asAdmin({ events: [{ type: 'order.paid', payload: orderData('y', { status: 'paid' }) }] }),
        'POST',
        '/api/webhooks/events'
      ).status
    ).toBe(202);
    expect(check(await asAdmin({ type: 'no.such', payload: {} }), 'POST', '/api/webhooks/events').status).toBe(422);
    expect(check(await asAdmin({ nope: true }), 'POST', '/api/webhooks/events').status).toBe(400);
    expect(
      check(
        await app.request().delete(`/api/webhooks/subscriptions/${id}`).set('X-API-Key', key),
        'DELETE',
        '/api/webhooks/subscriptions/{id}'
      ).status
    ).toBe(204);
  });
});
