import crypto from 'node:crypto';
import { dropKeptDatabase, startApp, type TestApp } from '../../helpers/app';
import { adminLogin, API_SUITE_ACTIONS, createAdminEditor, createAdminUser, type AdminEditor } from '../../helpers/admin-users';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { adminSession, documentIdOf, OWNER, registerUser, type TestUser } from '../../helpers/users';
import { subscribe } from '../../helpers/webhooks';

/**
 * The plugin's records in the Content Manager. Strapi gives its default Author and Editor roles
 * every Content Manager action on every content type at first boot; the plugin's records are not
 * content, so those roles (and any role without the plugin's own permission for the feature) may
 * neither see nor create, change or delete them there, and nobody, the super admin included,
 * writes API keys there (a type the Content Manager does not show). It also holds on a database whose roles were granted such permissions
 * before: refused at once, and the stored grants gone after the next boot.
 */
let app: TestApp;
let receiver: Receiver;
let owner: string;
let alice: TestUser;
let author: AdminEditor;
let editor: AdminEditor;
let planManager: AdminEditor;
/** Whether `app` is the first boot, whose database is kept for the restart below. */
let firstBoot = true;

const CM = '/content-manager/collection-types';
const as = (token: string) => ({ Authorization: `Bearer ${token}` });

interface PluginType {
  uid: string;
  /** A body the Content Manager accepts for a new entry. */
  create: () => Record<string, unknown>;
  /** A change to an entry, and the stored field it would change. */
  update: Record<string, unknown>;
}

/** API keys: not shown in the Content Manager, and written there by nobody. */
const KEY: PluginType = {
  uid: 'plugin::api-suite.api-key',
  // What the security review did: a key with a hash of its choosing, owned by an API administrator.
  create: () => ({
    name: 'forged',
    key_prefix: 'sk_forge',
    key_hash: crypto.randomBytes(32).toString('hex'),
    client_id: `forged-${crypto.randomUUID()}`,
    scopes: ['read', 'write'],
    status: 'active',
  }),
  update: { name: 'changed' },
};

const PLAN: PluginType = {
  uid: 'plugin::api-suite.plan',
  create: () => ({
    name: `everything-${Date.now()}`,
    requests_per_month: -1,
    requests_per_minute: 1000,
    endpoints: ['* *'],
    price_monthly: 0,
  }),
  update: { requests_per_minute: 999 },
};

/**
 * Every plugin type with an entry made by its owner below, for the Author and Editor users to try:
 * the ones the Content Manager offers for editing, and API keys.
 */
const WITH_ENTRIES: PluginType[] = [
  KEY,
  PLAN,
  {
    uid: 'plugin::api-suite.webhook-subscription',
    create: () => ({
      consumer_id: alice.consumer_id,
      endpoint_url: `${receiver.url}/forged`,
      events: ['*'],
      is_active: true,
      timeout_seconds: 10,
    }),
    update: { endpoint_url: 'http://127.0.0.1:9/changed' },
  },
  {
    uid: 'plugin::api-suite.webhook-event-type',
    create: () => ({ name: `forged.event${Date.now()}`, description: 'forged', is_active: true }),
    update: { description: 'changed' },
  },
  {
    uid: 'plugin::api-suite.scraper',
    create: () => ({ consumer_id: alice.consumer_id, name: 'forged', url: 'http://127.0.0.1:9/', status: 'idle' }),
    update: { name: 'changed' },
  },
  {
    uid: 'plugin::api-suite.order',
    create: () => ({ items: [{ product_id: 1, quantity: 1, price: 1, name: 'forged' }], total: 1, status: 'paid' }),
    update: { total: 0 },
  },
];

/** The plugin's other content types, hidden from the Content Manager. */
const OTHERS = ['scraper-result', 'usage-record', 'webhook-topic', 'scraper-run', 'stripe-event'].map(
  (name) => `plugin::api-suite.${name}`
);

/** The entry of each type that the Author and Editor users try to change, by uid. */
const entries = new Map<string, { id: number; documentId: string; row: Record<string, unknown> }>();

const PLAN_FIELDS = [
  'name',
  'requests_per_month',
  'requests_per_minute',
  'endpoints',
  'price_monthly',
  'is_default',
  'currency',
  'overage_unit_amount',
];
const planPermission = (verb: 'read' | 'create' | 'update') => ({
  action: `plugin::content-manager.explorer.${verb}`,
  subject: 'plugin::api-suite.plan',
  fields: PLAN_FIELDS,
});

async function roleId(code: string): Promise<number> {
  const role = await app.strapi.db.query('admin::role').findOne({ where: { code } });
  if (!role) throw new Error(`Strapi's ${code} role does not exist`);
  return role.id as number;
}

async function storedRow(uid: string, id: number): Promise<Record<string, unknown>> {
  return app.strapi.db.query(uid).findOne({ where: { id } });
}

async function storedSubjects(role: number): Promise<string[]> {
  const response = await app.request().get(`/admin/roles/${role}/permissions`).set(as(owner));
  expect(response.status).toBe(200);
  return (response.body.data as Array<{ subject: string | null }>).map((permission) => permission.subject ?? '');
}

async function ownSubjects(token: string): Promise<string[]> {
  const response = await app.request().get('/admin/users/me/permissions').set(as(token));
  expect(response.status).toBe(200);
  return (response.body.data as Array<{ subject: string | null }>).map((permission) => permission.subject ?? '');
}

const pluginSubjects = (subjects: string[]) => subjects.filter((subject) => subject.startsWith('plugin::api-suite.'));

beforeAll(async () => {
  receiver = await startReceiver();
  app = await startApp({ keepDatabase: true });
  owner = (await adminSession(app)).token;
  alice = await registerUser(app, { plan: 'enterprise' });
  author = await createAdminUser(app, await roleId('strapi-author'));
  editor = await createAdminUser(app, await roleId('strapi-editor'));

  // One entry of each type, made by its owner: the plugin's admin routes, or the super admin in the Content Manager.
  const plan = await app
    .request()
    .post('/api-suite/access/plans')
    .set(as(owner))
    .send({ name: 'basic', requests_per_month: 100, requests_per_minute: 10, endpoints: ['GET /api/v1/articles*'], price_monthly: 5 });
  expect(plan.status).toBe(201);
  const planId = plan.body.data.id as number;
  const key = await app
    .request()
    .post('/api-suite/access/keys')
    .set(as(owner))
    .send({ name: 'alice key', user_id: alice.id, plan_id: planId });
  expect(key.status).toBe(201);
  const subscription = await subscribe(app, alice, { endpoint_url: `${receiver.url}/alice`, events: ['*'] });
  const scraper = await app
    .request()
    .post('/api-suite/scrapers')
    .set(as(owner))
    .send({ user_id: alice.id, name: 'Alice shop', url: 'http://127.0.0.1:9/' });
  expect(scraper.status).toBe(201);
  const order = await app
    .request()
    .post(`${CM}/plugin::api-suite.order`)
    .set(as(owner))
    .send({
      items: [{ product_id: 1, quantity: 1, price: 10, name: 'A book' }],
      total: 10,
      status: 'pending',
      user: { connect: [{ documentId: await documentIdOf(app, alice.id) }] },
    });
  expect(order.status).toBe(201);

  const ids: Record<string, number> = {
    'plugin::api-suite.api-key': key.body.data.id,
    'plugin::api-suite.plan': planId,
    'plugin::api-suite.webhook-subscription': (
      await app.strapi.db.query('plugin::api-suite.webhook-subscription').findOne({ where: { uuid: subscription.id } })
    ).id,
    'plugin::api-suite.webhook-event-type': (
      await app.strapi.db.query('plugin::api-suite.webhook-event-type').findOne({ where: { name: 'order.paid' } })
    ).id,
    'plugin::api-suite.scraper': scraper.body.data.id,
    'plugin::api-suite.order': order.body.data.id,
  };
  for (const { uid } of WITH_ENTRIES) {
    // Made by the Author user, as far as Strapi knows: Authors may change what they created.
    await app.strapi.db.query(uid).update({ where: { id: ids[uid] }, data: { createdBy: author.userId } });
    const row = await storedRow(uid, ids[uid]);
    entries.set(uid, { id: ids[uid], documentId: row.documentId as string, row });
  }
}, 120_000);

afterAll(async () => {
  await app?.close();
  if (firstBoot && app) await dropKeptDatabase(app.database);
  await receiver?.close();
});

describe.each([
  ['Author', () => author],
  ['Editor', () => editor],
])("Strapi's default %s role", (_name, user) => {
  it.each(WITH_ENTRIES.map((type) => [type.uid, type] as const))(
    'cannot create, change or delete %s in the Content Manager',
    async (uid, type) => {
      const { token } = user();
      const entry = entries.get(uid);
      if (!entry) throw new Error(`no entry of ${uid}`);
      const before = await app.strapi.db.query(uid).count();

      expect((await app.request().post(`${CM}/${uid}`).set(as(token)).send(type.create())).status).toBe(403);
      expect((await app.request().put(`${CM}/${uid}/${entry.documentId}`).set(as(token)).send(type.update)).status).toBe(403);
      expect((await app.request().delete(`${CM}/${uid}/${entry.documentId}`).set(as(token))).status).toBe(403);
      expect(
        (
          await app
            .request()
            .post(`${CM}/${uid}/actions/bulkDelete`)
            .set(as(token))
            .send({ documentIds: [entry.documentId] })
        ).status
      ).toBe(403);

      expect(await app.strapi.db.query(uid).count()).toBe(before);
      const after = await storedRow(uid, entry.id);
      for (const field of Object.keys(type.update)) expect([field, after[field]]).toEqual([field, entry.row[field]]);
    }
  );

  it.each(WITH_ENTRIES.map((type) => [type.uid] as const))('cannot list or open %s', async (uid) => {
    const { token } = user();
    expect((await app.request().get(`${CM}/${uid}`).set(as(token))).status).toBe(403);
    expect(
      (
        await app
          .request()
          .get(`${CM}/${uid}/${entries.get(uid)?.documentId}`)
          .set(as(token))
      ).status
    ).toBe(403);
  });

  it('is refused 403, not 500, where the Content Manager offers the relations of a plugin type', async () => {
    const { token } = user();
    const key = entries.get('plugin::api-suite.api-key');
    for (const path of [
      '/content-manager/relations/plugin::api-suite.api-key/plan',
      '/content-manager/relations/plugin::api-suite.api-key/user',
      `/content-manager/relations/plugin::api-suite.api-key/${key?.documentId}/plan`,
      '/content-manager/relations/plugin::api-suite.order/user',
    ]) {
      const response = await app.request().get(path).set(as(token));
      expect([path, response.status, response.body.error?.status]).toEqual([path, 403, 403]);
    }
  });

  it("cannot list the plugin's other hidden types either", async () => {
    for (const uid of OTHERS) expect([uid, (await app.request().get(`${CM}/${uid}`).set(as(user().token))).status]).toEqual([uid, 403]);
  });

  it('is told it holds no permission on any plugin type, so the Content Manager lists none, and still writes articles', async () => {
    const { token } = user();
    const subjects = await ownSubjects(token);
    expect(subjects).toContain('api::article.article');
    expect(pluginSubjects(subjects)).toEqual([]);

    const created = await app
      .request()
      .post(`${CM}/api::article.article`)
      .set(as(token))
      .send({ title: `Written by ${_name}`, status: 'draft', excerpt: 'x', body: 'x' });
    expect([created.status, created.body.error]).toEqual([201, undefined]);
    const edited = await app
      .request()
      .put(`${CM}/api::article.article/${created.body.data.documentId}`)
      .set(as(token))
      .send({ excerpt: 'changed' });
    expect([edited.status, edited.body.error]).toEqual([200, undefined]);
    expect(edited.body.data.excerpt).toBe('changed');
    const listed = await app.request().get(`${CM}/api::article.article`).set(as(token));
    expect(listed.status).toBe(200);
    expect(listed.body.results.map((article: { title: string }) => article.title)).toContain(`Written by ${_name}`);
  });

  it('does not hold them in the database either, on a fresh install', async () => {
    const subjects = await storedSubjects(user().roleId);
    expect(subjects).toContain('api::article.article');
    expect(pluginSubjects(subjects)).toEqual([]);
  });
});

describe('the super admin', () => {
  it('cannot create, change or delete an API key in the Content Manager, and still edits plans there', async () => {
    const key = entries.get('plugin::api-suite.api-key');
    const uid = 'plugin::api-suite.api-key';
    const before = await app.strapi.db.query(uid).count();
    const forged = { ...KEY.create(), user: { connect: [{ documentId: await documentIdOf(app, alice.id) }] } };
    expect((await app.request().post(`${CM}/${uid}`).set(as(owner)).send(forged)).status).toBe(403);
    expect(
      (
        await app
          .request()
          .put(`${CM}/${uid}/${key?.documentId}`)
          .set(as(owner))
          .send({ key_hash: 'e'.repeat(64), status: 'active' })
      ).status
    ).toBe(403);
    expect((await app.request().delete(`${CM}/${uid}/${key?.documentId}`).set(as(owner))).status).toBe(403);
    expect(await app.strapi.db.query(uid).count()).toBe(before);
    expect((await storedRow(uid, key?.id ?? 0)).key_hash).toBe(key?.row.key_hash);
    // Strapi's read action covers every type, shown or not (its relation pickers read hidden types): the super admin holds it.
    expect((await app.request().get(`${CM}/${uid}`).set(as(owner))).status).toBe(200);

    const relations = await app.request().get(`/content-manager/relations/${uid}/plan`).set(as(owner));
    expect([relations.status, relations.body.results?.length]).toEqual([200, expect.any(Number)]);

    const plan = entries.get('plugin::api-suite.plan');
    const edited = await app.request().put(`${CM}/plugin::api-suite.plan/${plan?.documentId}`).set(as(owner)).send({ price_monthly: 6 });
    expect([edited.status, edited.body.error]).toEqual([200, undefined]);
  });
});

describe('an admin token', () => {
  const tokenWith = async (adminPermissions: Array<{ action: string; subject: string | null; fields?: string[] }>) => {
    const response = await app
      .request()
      .post('/admin/admin-tokens')
      .set(as(owner))
      .send({
        name: `plans ${crypto.randomBytes(3).toString('hex')}`,
        lifespan: null,
        adminPermissions: adminPermissions.map(({ action, subject, fields }) => ({
          action,
          subject,
          properties: fields ? { fields } : {},
          conditions: [],
        })),
      });
    expect([response.status, response.body.error]).toEqual([201, undefined]);
    return response.body.data.accessKey as string;
  };

  it('reaches plugin records only with the plugin permission among its own', async () => {
    const without = await tokenWith([planPermission('read'), planPermission('create')]);
    expect((await app.request().get(`${CM}/plugin::api-suite.plan`).set(as(without))).status).toBe(403);
    expect((await app.request().post(`${CM}/plugin::api-suite.plan`).set(as(without)).send(PLAN.create())).status).toBe(403);

    const granted = await tokenWith([
      { action: API_SUITE_ACTIONS.accessRead, subject: null },
      { action: API_SUITE_ACTIONS.accessManage, subject: null },
      planPermission('read'),
      planPermission('create'),
    ]);
    expect((await app.request().get(`${CM}/plugin::api-suite.plan`).set(as(granted))).status).toBe(200);
    const created = await app.request().post(`${CM}/plugin::api-suite.plan`).set(as(granted)).send(PLAN.create());
    expect([created.status, created.body.error]).toEqual([201, undefined]);
  });
});

describe("a role's plugin permission", () => {
  it('lets it edit plans in the Content Manager with access.manage, and only read them with access.read', async () => {
    planManager = await createAdminEditor(app, [
      API_SUITE_ACTIONS.accessRead,
      API_SUITE_ACTIONS.accessManage,
      planPermission('read'),
      planPermission('create'),
      planPermission('update'),
    ]);
    const plan = entries.get('plugin::api-suite.plan');
    expect((await app.request().get(`${CM}/plugin::api-suite.plan`).set(as(planManager.token))).status).toBe(200);
    const edited = await app
      .request()
      .put(`${CM}/plugin::api-suite.plan/${plan?.documentId}`)
      .set(as(planManager.token))
      .send({ requests_per_minute: 20 });
    expect([edited.status, edited.body.error]).toEqual([200, undefined]);
    expect((await storedRow('plugin::api-suite.plan', plan?.id ?? 0)).requests_per_minute).toBe(20);
    const created = await app
      .request()
      .post(`${CM}/plugin::api-suite.plan`)
      .set(as(planManager.token))
      .send({
        name: 'made by a plan manager',
        requests_per_month: 10,
        requests_per_minute: 1,
        endpoints: ['GET /api/v1/articles*'],
        price_monthly: 1,
      });
    expect([created.status, created.body.error]).toEqual([201, undefined]);
    expect(pluginSubjects(await ownSubjects(planManager.token)).sort()).toEqual([
      'plugin::api-suite.plan',
      'plugin::api-suite.plan',
      'plugin::api-suite.plan',
    ]);

    const reader = await createAdminEditor(app, [
      API_SUITE_ACTIONS.accessRead,
      planPermission('read'),
      planPermission('create'),
      planPermission('update'),
    ]);
    expect((await app.request().get(`${CM}/plugin::api-suite.plan`).set(as(reader.token))).status).toBe(200);
    expect(
      (await app.request().put(`${CM}/plugin::api-suite.plan/${plan?.documentId}`).set(as(reader.token)).send({ requests_per_minute: 30 }))
        .status
    ).toBe(403);
    expect((await app.request().post(`${CM}/plugin::api-suite.plan`).set(as(reader.token)).send(PLAN.create())).status).toBe(403);
    // Settings → Roles does not store what the role may not use.
    expect(pluginSubjects(await storedSubjects(reader.roleId))).toEqual(['plugin::api-suite.plan']);
  });
});

describe('a database whose Editor role was granted plugin types before', () => {
  const editorPlanGrants = async (role: number) =>
    app.strapi.db.query('admin::permission').count({ where: { role: { id: role }, subject: { $startsWith: 'plugin::api-suite.' } } });

  it('does not store such a grant given through Settings → Roles', async () => {
    const current = await app.request().get(`/admin/roles/${editor.roleId}/permissions`).set(as(owner));
    const permissions = (current.body.data as Array<Record<string, unknown>>)
      .filter(({ subject }) => subject !== 'plugin::api-suite.plan')
      .map(({ action, subject, properties, conditions }) => ({ action, subject, properties, conditions }));
    const saved = await app
      .request()
      .put(`/admin/roles/${editor.roleId}/permissions`)
      .set(as(owner))
      .send({
        permissions: [
          ...permissions,
          {
            action: 'plugin::content-manager.explorer.create',
            subject: 'plugin::api-suite.plan',
            properties: { fields: PLAN_FIELDS },
            conditions: [],
          },
        ],
      });
    expect(saved.status).toBe(200);
    expect(await editorPlanGrants(editor.roleId)).toBe(0);
    expect((await app.request().post(`${CM}/plugin::api-suite.plan`).set(as(editor.token)).send(PLAN.create())).status).toBe(403);
  });

  it('refuses a grant stored by an earlier release at once, and removes it at the next boot', async () => {
    // What an earlier release's database holds: Strapi's own first-boot grants on a plugin type.
    for (const verb of ['read', 'create', 'update'] as const) {
      const { action, subject, fields } = planPermission(verb);
      await app.strapi.db
        .query('admin::permission')
        .create({ data: { action, subject, properties: { fields }, conditions: [], role: editor.roleId } });
    }
    expect(await editorPlanGrants(editor.roleId)).toBe(3);
    expect((await app.request().post(`${CM}/plugin::api-suite.plan`).set(as(editor.token)).send(PLAN.create())).status).toBe(403);
    expect((await app.request().get(`${CM}/plugin::api-suite.plan`).set(as(editor.token))).status).toBe(403);
    expect(pluginSubjects(await ownSubjects(editor.token))).toEqual([]);

    // The same site restarted on the same database.
    const database = app.database;
    await app.close();
    app = await startApp({ database });
    firstBoot = false;
    owner = await adminLogin(app, OWNER.email, OWNER.password);
    editor = { ...editor, token: await adminLogin(app, editor.email, editor.password) };
    planManager = { ...planManager, token: await adminLogin(app, planManager.email, planManager.password) };

    expect(await editorPlanGrants(editor.roleId)).toBe(0);
    expect(await editorPlanGrants(author.roleId)).toBe(0);
    // What the plugin permission allows is kept, and so is the Editor's content.
    expect(await editorPlanGrants(planManager.roleId)).toBe(3);
    expect(await storedSubjects(editor.roleId)).toContain('api::article.article');
    const created = await app
      .request()
      .post(`${CM}/api::article.article`)
      .set(as(editor.token))
      .send({ title: 'After the restart', status: 'draft', excerpt: 'x', body: 'x' });
    expect(created.status).toBe(201);
    expect((await app.request().post(`${CM}/plugin::api-suite.plan`).set(as(editor.token)).send(PLAN.create())).status).toBe(403);
    const plan = entries.get('plugin::api-suite.plan');
    expect(
      (
        await app
          .request()
          .put(`${CM}/plugin::api-suite.plan/${plan?.documentId}`)
          .set(as(planManager.token))
          .send({ requests_per_minute: 40 })
      ).status
    ).toBe(200);
  }, 120_000);
});
