import fs from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { startFreshSite, type FreshSite } from '../helpers/fresh-site';
import {
  administratorOf,
  bearer,
  createEntry,
  deleteEntry,
  grantPlan,
  issueKey,
  ownerToken,
  planIdOf,
  publishEntry,
  registerUser,
  type SiteUser,
} from '../helpers/fresh-site/client';
import { launchBrowser, screenshot } from '../helpers/browser';
import { newPortalUser, signUp } from '../helpers/portal';
import { startReceiver } from '../helpers/receiver';
import { eventOf, verify, waitForPosts } from '../helpers/webhooks';
import { eventually } from '../helpers/wait';

/**
 * The packed plugin in a fresh Strapi JavaScript site (5.54.0, 5.30.0 or on MariaDB: FRESH_SITE_STRAPI and
 * FRESH_SITE_DATABASE, tests/helpers/fresh-site) with content types it has never seen
 * (recipes with draft & publish, a private field and a chef; chefs without; tips localized with
 * i18n), installed as docs/installing.md says, then used as its section "Selling your own content
 * types" tells: the site's own events in the catalog and delivered signed, one per locale version,
 * its content API sold through plans with its drafts kept for staff, and described in the OpenAPI
 * document. The site is a process of its own (tests/helpers/fresh-site), reached over HTTP only.
 */
let site: FreshSite;

beforeAll(async () => {
  // A cold install (nothing cached yet) takes some minutes; a warm one well under one.
  site = await startFreshSite();
  await administratorOf(site);
}, 20 * 60_000);

afterAll(async () => {
  await site?.stop();
}, 30_000);

const RECIPE = 'api::recipe.recipe';
const CHEF = 'api::chef.chef';
const TIP = 'api::tip.tip';

/** A consumer on the enterprise plan subscribed to `events` at `url`: the subscription's secret. */
async function subscribedConsumer(url: string, events: string[]): Promise<string> {
  const consumer = await registerUser(site);
  await grantPlan(site, consumer, await planIdOf(site, 'enterprise'));
  const created = await site.request().post('/api/webhooks/subscriptions').set(bearer(consumer.jwt)).send({ endpoint_url: url, events });
  expect({ status: created.status, body: created.body }).toMatchObject({ status: 201, body: { secret: expect.any(String) } });
  return created.body.secret as string;
}

describe('a new site', () => {
  it('has Public, Authenticated and the administrator role after its first boot, with the plugin listed first in config/plugins', async () => {
    const roles = await site
      .request()
      .get('/users-permissions/roles')
      .set(bearer(await ownerToken(site)));
    expect(roles.status).toBe(200);
    const types = (roles.body.roles as Array<{ type: string }>).map((role) => role.type).sort();
    expect(types).toEqual(expect.arrayContaining(['administrator', 'authenticated', 'public']));
    // And sign-up works: it needs the Authenticated role.
    const user = await registerUser(site);
    expect(user.jwt).toEqual(expect.any(String));
  });
});

describe('the event catalog', () => {
  it("lists the site's own types' events, and publish events only for types with draft & publish", async () => {
    const consumer = await registerUser(site);
    const response = await site.request().get('/api/webhooks/event-types').set(bearer(consumer.jwt));
    expect(response.status).toBe(200);
    const names = (response.body.data as Array<{ name: string }>).map((entry) => entry.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'recipe.created',
        'recipe.updated',
        'recipe.published',
        'recipe.unpublished',
        'recipe.deleted',
        'chef.created',
        'chef.updated',
        'chef.deleted',
      ])
    );
    expect(names).not.toContain('chef.published');
  });

  it('describes recipe.published with a JSON Schema of its public attributes, which its example fits', async () => {
    const consumer = await registerUser(site);
    const response = await site.request().get('/api/webhooks/event-types').set(bearer(consumer.jwt));
    expect(response.status).toBe(200);
    const entry = (response.body.data as Array<{ name: string; schema?: { properties?: object }; example_payload?: unknown }>).find(
      (candidate) => candidate.name === 'recipe.published'
    );
    expect(entry).toBeDefined();
    const properties = Object.keys(entry?.schema?.properties ?? {});
    expect(properties).toEqual(
      expect.arrayContaining(['title', 'slug', 'servings', 'chef', 'id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'locale'])
    );
    expect(properties).not.toContain('secret_note');

    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(entry?.schema as object);
    const fits = validate(entry?.example_payload);
    expect({ fits, errors: fits ? null : ajv.errorsText(validate.errors) }).toEqual({ fits: true, errors: null });
  });
});

describe("webhooks for the site's content", () => {
  it('delivers a signed recipe.published with its chef filled in and no private field, then recipe.deleted with the document as it was', async () => {
    const receiver = await startReceiver();
    try {
      const secret = await subscribedConsumer(`${receiver.url}/recipes`, ['recipe.published', 'recipe.deleted']);

      const chef = await createEntry(site, CHEF, { name: 'Ada Palmer', bio: 'Pastry, mostly.' });
      const recipe = await createEntry(site, RECIPE, {
        title: 'Lemon tart',
        servings: 6,
        secret_note: 'twice the zest the card says',
        chef: { connect: [{ documentId: chef.documentId }] },
      });
      await publishEntry(site, RECIPE, recipe.documentId);

      const isEvent = (type: string) => (request: { headers: Record<string, unknown> }) => request.headers['x-webhook-event'] === type;
      const [published] = await waitForPosts(receiver, 1, isEvent('recipe.published'));
      expect(() => verify(secret, published)).not.toThrow();
      const publishedEvent = eventOf(published);
      expect(publishedEvent.type).toBe('recipe.published');
      expect(publishedEvent.data).toMatchObject({
        documentId: recipe.documentId,
        title: 'Lemon tart',
        servings: 6,
        chef: expect.objectContaining({ documentId: chef.documentId, name: 'Ada Palmer' }),
      });
      expect(publishedEvent.data).not.toHaveProperty('secret_note');

      await deleteEntry(site, RECIPE, recipe.documentId);
      const [deleted] = await waitForPosts(receiver, 1, isEvent('recipe.deleted'));
      expect(() => verify(secret, deleted)).not.toThrow();
      const deletedEvent = eventOf(deleted);
      expect(deletedEvent.type).toBe('recipe.deleted');
      expect(deletedEvent.data).toMatchObject({ documentId: recipe.documentId, title: 'Lemon tart' });
      expect(deletedEvent.data).not.toHaveProperty('secret_note');
    } finally {
      await receiver.close();
    }
  });
});

describe('drafts stay private', () => {
  const DRAFT_TEXT = 'Embargoed soufflé';

  it("sends a consumer subscribed to recipe.* and chef.* nothing that holds a draft, and recipe.published once it is out; the administrator's subscription gets the editorial events", async () => {
    const receiver = await startReceiver();
    try {
      await subscribedConsumer(`${receiver.url}/consumer`, ['recipe.*', 'chef.*']);
      // By name, the events about drafts are the staff's.
      const consumer = await registerUser(site);
      await grantPlan(site, consumer, await planIdOf(site, 'enterprise'));
      const refused = await site
        .request()
        .post('/api/webhooks/subscriptions')
        .set(bearer(consumer.jwt))
        .send({ endpoint_url: `${receiver.url}/x`, events: ['recipe.created'] });
      expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 422, code: 'invalid_events' });
      const administrator = await administratorOf(site);
      const staff = await site
        .request()
        .post('/api/webhooks/subscriptions')
        .set(bearer(administrator.jwt))
        .send({ endpoint_url: `${receiver.url}/staff`, events: ['recipe.created', 'recipe.updated'] });
      expect(staff.status).toBe(201);

      const chef = await createEntry(site, CHEF, { name: 'Julia Draftless' });
      const recipe = await createEntry(site, RECIPE, {
        title: DRAFT_TEXT,
        servings: 2,
        chef: { connect: [{ documentId: chef.documentId }] },
      });
      const owner = bearer(await ownerToken(site));
      for (const servings of [3, 4]) {
        const saved = await site
          .request()
          .put(`/content-manager/collection-types/${RECIPE}/${recipe.documentId}`)
          .set(owner)
          .send({ servings });
        expect(saved.status).toBe(200);
      }
      // The chef changed while its recipe is a draft: chef.updated must not carry the recipe.
      const renamed = await site
        .request()
        .put(`/content-manager/collection-types/${CHEF}/${chef.documentId}`)
        .set(owner)
        .send({ name: 'Julia Draftless, renamed' });
      expect(renamed.status).toBe(200);
      const toConsumer = (request: { path: string }) => request.path === '/consumer';
      const chefUpdated = await waitForPosts(receiver, 1, (request) => toConsumer(request) && eventOf(request).type === 'chef.updated');
      expect(eventOf(chefUpdated[0]).data.recipes).toEqual([]);
      await publishEntry(site, RECIPE, recipe.documentId);

      const [published] = await waitForPosts(receiver, 1, (request) => toConsumer(request) && eventOf(request).type === 'recipe.published');
      expect(eventOf(published).data).toMatchObject({ documentId: recipe.documentId, title: DRAFT_TEXT, servings: 4 });
      const staffEvents = await waitForPosts(receiver, 3, (request) => request.path === '/staff');
      expect(staffEvents.map((request) => eventOf(request).type)).toEqual(expect.arrayContaining(['recipe.created', 'recipe.updated']));

      // Everything the consumer received before the publish: no draft in it.
      const consumerEvents = receiver.requests.filter((request) => request.method === 'POST' && toConsumer(request));
      const types = consumerEvents.map((request) => eventOf(request).type);
      expect(types).not.toContain('recipe.created');
      expect(types).not.toContain('recipe.updated');
      for (const request of consumerEvents.filter((item) => eventOf(item).type !== 'recipe.published')) {
        expect(request.body).not.toContain(DRAFT_TEXT);
      }
    } finally {
      await receiver.close();
    }
  });

  it('shows no draft through the content API to a key, a JWT or nobody, in four shapes', async () => {
    const chef = await createEntry(site, CHEF, { name: 'Draft keeper' });
    // Not DRAFT_TEXT itself: the test above publishes a recipe of that title, which a JWT may read through its chef.
    const draftTitle = `${DRAFT_TEXT} two`;
    const recipe = await createEntry(site, RECIPE, { title: draftTitle, chef: { connect: [{ documentId: chef.documentId }] } });
    const consumer = await registerUser(site);
    await grantPlan(site, consumer, await planIdOf(site, 'enterprise'));
    const key = await issueKey(site, consumer);
    const shapes = [
      '/api/recipes?status=draft',
      `/api/recipes/${recipe.documentId}?status=draft`,
      '/api/chefs?status=draft&populate=recipes',
      '/api/recipes?status=anything',
    ];
    for (const [who, headers] of [
      ['key', { 'X-API-Key': key }],
      ['JWT', bearer(consumer.jwt)],
      ['nobody', {}],
    ] as const) {
      for (const path of shapes) {
        const response = await site.request().get(path).set(headers);
        expect({ who, path, draft: JSON.stringify(response.body).includes(draftTitle) }).toEqual({ who, path, draft: false });
        if (path.startsWith('/api/chefs')) expect({ who, path, status: response.status }).toEqual({ who, path, status: 200 });
        else expect({ who, path, status: response.status }).toEqual({ who, path, status: 403 });
        if (who !== 'nobody' && !path.startsWith('/api/chefs')) expect(response.body.error.code).toBe('drafts_not_allowed');
      }
    }
    // The site's own API token still reads drafts.
    const token = await site
      .request()
      .post('/admin/api-tokens')
      .set(bearer(await ownerToken(site)))
      .send({ name: `drafts-${Date.now()}`, type: 'full-access', lifespan: null });
    expect(token.status).toBe(201);
    const staff = await site
      .request()
      .get('/api/recipes?status=draft')
      .set(bearer(token.body.data.accessKey as string));
    expect(staff.status).toBe(200);
    expect(JSON.stringify(staff.body)).toContain(draftTitle);
  });

  it("brings a chef's recipes in their published version whatever status a consumer asks, and both versions to staff", async () => {
    const chef = await createEntry(site, CHEF, { name: 'Bruno Marchetti' });
    const connect = { chef: { connect: [{ documentId: chef.documentId }] } };
    const served = await createEntry(site, RECIPE, { title: 'Risotto', servings: 2, ...connect });
    await publishEntry(site, RECIPE, served.documentId);
    await createEntry(site, RECIPE, { title: 'Unreleased tiramisu', servings: 8, ...connect });
    const titles = (data: Array<{ title: string }> | undefined) => (data ?? []).map((recipe) => recipe.title).sort();
    const chefsRecipes = (status: string) => site.request().get(`/api/chefs/${chef.documentId}?status=${status}&populate=recipes`);

    // Chefs have no draft & publish, and Strapi links a chef to both versions of each recipe; the
    // status decides which are populated. The JWT's role may read recipes (the Public role, which
    // a key on this route is answered as, may not: Strapi populates none for it).
    const consumer = await registerUser(site);
    for (const status of ['draft', 'anything', 'published']) {
      const response = await chefsRecipes(status).set(bearer(consumer.jwt));
      expect({ status, answer: response.status, recipes: titles(response.body.data?.recipes) }).toEqual({
        status,
        answer: 200,
        recipes: ['Risotto'],
      });
    }
    const token = await site
      .request()
      .post('/admin/api-tokens')
      .set(bearer(await ownerToken(site)))
      .send({ name: `preview-${Date.now()}`, type: 'read-only', lifespan: null, description: 'A preview frontend' });
    expect(token.status).toBe(201);
    const staff = await chefsRecipes('draft').set(bearer(token.body.data.accessKey as string));
    expect({ status: staff.status, recipes: titles(staff.body.data?.recipes) }).toEqual({
      status: 200,
      recipes: ['Risotto', 'Unreleased tiramisu'],
    });
  });
});

describe('drafts cannot be probed through relations', () => {
  it("finds no chef by a draft recipe's text for anyone but staff, and by a published recipe's for a consumer who may read recipes", async () => {
    const chef = await createEntry(site, CHEF, { name: 'Chiara Conti' });
    const connect = { chef: { connect: [{ documentId: chef.documentId }] } };
    const out = await createEntry(site, RECIPE, { title: 'Saffron buns', servings: 6, ...connect });
    await publishEntry(site, RECIPE, out.documentId);
    await createEntry(site, RECIPE, { title: 'Secret sauce of autumn', servings: 4, ...connect });
    const chefsWith = (query: string) => site.request().get(`/api/chefs?${query}`);
    const names = (body: { data?: Array<{ name: string }> }) => (body.data ?? []).map((found) => found.name);

    // Whoever may not read recipes (the Public role, and a key on a route it may call, answered as
    // Public) is refused a filter on them by Strapi's own query validation; a signed-in consumer,
    // whose role reads recipes, is the one who could probe.
    const consumer = await registerUser(site);
    const key = await issueKey(site, consumer);
    for (const [who, headers] of [
      ['no credential', {}],
      ['an API key', { 'X-API-Key': key }],
    ] as const) {
      const response = await chefsWith('filters[recipes][title][$eq]=Secret sauce of autumn').set(headers);
      expect({ who, status: response.status, chefs: names(response.body) }).toEqual({ who, status: 400, chefs: [] });
    }
    for (const query of [
      'filters[recipes][title][$eq]=Secret sauce of autumn',
      'filters[recipes][title][$startsWith]=Secret',
      'filters[$or][0][recipes][title][$endsWith]=of autumn',
      'filters[recipes][chef][recipes][title][$contains]=autumn',
    ]) {
      const response = await chefsWith(query).set(bearer(consumer.jwt));
      expect({ query, status: response.status, chefs: names(response.body) }).toEqual({ query, status: 200, chefs: [] });
    }
    const published = await chefsWith('filters[recipes][title][$eq]=Saffron buns').set(bearer(consumer.jwt));
    expect(names(published.body)).toEqual(['Chiara Conti']);
    const token = await site
      .request()
      .post('/admin/api-tokens')
      .set(bearer(await ownerToken(site)))
      .send({ name: `probe-${Date.now()}`, type: 'read-only', lifespan: null, description: 'Staff' });
    const staff = await chefsWith('filters[recipes][title][$eq]=Secret sauce of autumn').set(bearer(token.body.data.accessKey as string));
    expect(names(staff.body)).toEqual(['Chiara Conti']);
  });
});

describe('i18n', () => {
  it('announces one event per locale version, each with its locale, and a bulk publish of two locales as two events', async () => {
    const owner = bearer(await ownerToken(site));
    const locale = await site.request().post('/i18n/locales').set(owner).send({ name: 'French (fr)', code: 'fr', isDefault: false });
    expect({ status: locale.status, body: locale.body }).toMatchObject({ status: 200, body: { code: 'fr' } });

    const receiver = await startReceiver();
    try {
      // tip.created and tip.updated are about drafts: an administrator's subscription receives them.
      const administrator = await administratorOf(site);
      const subscribed = await site
        .request()
        .post('/api/webhooks/subscriptions')
        .set(bearer(administrator.jwt))
        .send({ endpoint_url: `${receiver.url}/tips`, events: ['tip.created', 'tip.updated', 'tip.published'] });
      expect(subscribed.status).toBe(201);

      const tip = await createEntry(site, TIP, { title: 'Salt early' });
      const french = await site
        .request()
        .put(`/content-manager/collection-types/${TIP}/${tip.documentId}?locale=fr`)
        .set(owner)
        .send({ title: 'Saler tôt' });
      expect(french.status).toBe(200);
      const bulk = await site
        .request()
        .post(`/content-manager/collection-types/${TIP}/actions/bulkPublish`)
        .set(owner)
        .send({ documentIds: [tip.documentId], locale: ['en', 'fr'] });
      expect({ status: bulk.status, body: bulk.body }).toEqual({ status: 200, body: { count: 2 } });

      const isEvent = (type: string) => (request: { headers: Record<string, unknown> }) => request.headers['x-webhook-event'] === type;
      const published = await waitForPosts(receiver, 2, isEvent('tip.published'));
      const versions = published.map((request) => eventOf(request).data).sort((a, b) => String(a.locale).localeCompare(String(b.locale)));
      expect(versions).toEqual([
        expect.objectContaining({ documentId: tip.documentId, locale: 'en', title: 'Salt early', publishedAt: expect.any(String) }),
        expect.objectContaining({ documentId: tip.documentId, locale: 'fr', title: 'Saler tôt', publishedAt: expect.any(String) }),
      ]);
      // The French version was made by saving a locale the document did not have yet.
      const [made] = await waitForPosts(receiver, 1, (request) => isEvent('tip.created')(request) && eventOf(request).data.locale === 'en');
      expect(eventOf(made).data).toMatchObject({ title: 'Salt early', publishedAt: null });
    } finally {
      await receiver.close();
    }
  });
});

describe('the content API, sold through plans', () => {
  /** This month's requests in the consumer's pool (an account route: open to every plan, not counted). */
  const monthUsed = async (consumer: SiteUser): Promise<number> => {
    const response = await site.request().get('/api/v1/usage').set(bearer(consumer.jwt));
    if (response.status !== 200) throw new Error(`usage: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.data.month.used as number;
  };

  it("leaves anonymous callers to Strapi: the Public role's routes answer, the others refuse", async () => {
    const chefs = await site.request().get('/api/chefs');
    expect(chefs.status).toBe(200);
    const recipes = await site.request().get('/api/recipes');
    expect(recipes.status).toBe(403);
    expect(recipes.body.error).toMatchObject({ status: 403, name: 'ForbiddenError' });
  });

  it("gives the default plans the site's own content, not the demo's: free reads it, a write is refused with endpoint_not_in_plan", async () => {
    const plans = (await site.request().get('/api/v1/plans')).body.data as Array<{ name: string; endpoints: string[] }>;
    const free = plans.find((plan) => plan.name === 'free')?.endpoints ?? [];
    expect(free).toEqual(expect.arrayContaining(['GET /api/recipes', 'GET /api/recipes/*', 'GET /api/chefs']));
    expect(plans.flatMap((plan) => plan.endpoints).filter((pattern) => pattern.includes('/api/v1/articles'))).toEqual([]);
    // Nothing about the demo's types at boot (its search collections were the plugin's defaults once).
    expect(fs.readFileSync(site.logFile, 'utf8')).not.toMatch(/which this site does not have/);

    const consumer = await registerUser(site);
    const key = await issueKey(site, consumer);
    const read = await site.request().get('/api/recipes').set('X-API-Key', key);
    expect({ status: read.status, remaining: read.headers['x-ratelimit-remaining'] }).toEqual({
      status: 200,
      remaining: expect.any(String),
    });
    // The Authenticated role may create recipes: the plan alone refuses it.
    const response = await site
      .request()
      .post('/api/recipes')
      .set('X-API-Key', key)
      .send({ data: { title: 'Free lunch', slug: 'free-lunch' } });
    expect({ status: response.status, body: response.body }).toMatchObject({
      status: 403,
      body: { error: { code: 'endpoint_not_in_plan' } },
    });
  });

  it("answers the key, as X-API-Key or Bearer, and the JWT of a consumer whose plan reaches the route, counted in their pool; the Public role's routes uncounted", async () => {
    const consumer = await registerUser(site);
    const key = await issueKey(site, consumer);
    await grantPlan(site, consumer, await planIdOf(site, 'enterprise'));
    const before = await monthUsed(consumer);

    // Public: answers the key, uncounted (asked first, so that its count would have landed by the last one's).
    const chefs = await site.request().get('/api/chefs').set('X-API-Key', key);
    expect(chefs.status).toBe(200);

    for (const [credential, headers] of [
      ['X-API-Key', { 'X-API-Key': key }],
      ['Bearer key', bearer(key)],
      ['Bearer JWT', bearer(consumer.jwt)],
    ] as const) {
      const response = await site.request().get('/api/recipes').set(headers);
      expect({ credential, status: response.status, remaining: response.headers['x-ratelimit-remaining'] }).toEqual({
        credential,
        status: 200,
        remaining: expect.any(String),
      });
      expect(Array.isArray(response.body.data)).toBe(true);
    }

    const used = await eventually(
      async () => {
        const now = await monthUsed(consumer);
        return now >= before + 3 ? now : undefined;
      },
      15_000,
      'three counted requests in the pool'
    );
    expect(used - before).toBe(3);
  });

  it('reaches the content API with a plan whose endpoints are the @content group', async () => {
    const plan = await site
      .request()
      .post('/api-suite/access/plans')
      .set(bearer(await ownerToken(site)))
      .send({ name: 'recipes-only', requests_per_month: 1000, requests_per_minute: 60, endpoints: ['@content'], price_monthly: 0 });
    expect({ status: plan.status, body: plan.body }).toMatchObject({ status: 201, body: { data: { endpoints: ['@content'] } } });

    const consumer = await registerUser(site);
    await grantPlan(site, consumer, plan.body.data.id as number);
    const key = await issueKey(site, consumer);
    const response = await site.request().get('/api/recipes').set('X-API-Key', key);
    expect({ status: response.status, body: response.body }).toMatchObject({ status: 200, body: { data: expect.any(Array) } });
    expect(response.headers['x-ratelimit-remaining']).toBeDefined();
  });
});

describe('the OpenAPI document', () => {
  it("describes the site's own content API", async () => {
    const response = await site.request().get('/api/v1/openapi.json');
    expect(response.status).toBe(200);
    const paths = Object.keys(response.body.paths ?? {});
    expect(paths).toEqual(expect.arrayContaining(['/api/recipes', '/api/chefs']));
    expect(paths.filter((p) => p === '/api/recipes/{documentId}' || p === '/api/recipes/{id}')).toHaveLength(1);
  });
});

describe('the consumer portal', () => {
  it("names the site's own types on its plan card and shows their event types in its event catalog, each with its schema", async () => {
    const browser = await launchBrowser(site.url);
    try {
      const { page } = browser;
      await signUp(page, site.url, newPortalUser('catalog'));
      // The free plan's card names this site's own types, not the demo's articles.
      await page
        .getByTestId('plan-includes')
        .getByText(/Includes: Reading chefs, recipes, tips/)
        .waitFor();
      await page.goto(`${site.url}/portal/webhooks/event-types`);
      await page.getByRole('heading', { name: 'Event catalog', level: 1 }).waitFor();
      const published = page.getByTestId('event-type').filter({ hasText: 'recipe.published' });
      await published.locator('summary').first().click();
      // The fields of the site's own type in words, the JSON Schema one click away.
      await published.getByRole('table', { name: 'recipe.published fields' }).getByRole('row').filter({ hasText: 'servings' }).waitFor();
      await published.getByText('JSON Schema', { exact: true }).click();
      await published.getByLabel('recipe.published schema').getByText('"servings"').waitFor();
      await page.getByTestId('event-type').filter({ hasText: 'chef.deleted' }).waitFor();
      // docs/images/fresh-site-event-catalog.png is this picture.
      await screenshot(page, 'fresh-site-event-catalog');
      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 90_000);
});
