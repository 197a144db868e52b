import fs from 'node:fs';
import { startApp, type TestApp } from '../../helpers/app';
import { startInstance } from '../../helpers/instance';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { fullAccessToken, makeAdministrator, registerUser, type TestUser } from '../../helpers/users';
import { eventOf, orderData, posts, productData, subscribe, waitForPosts } from '../../helpers/webhooks';

/**
 * Payload filters (docs/webhooks.md#payload-filters): Strapi's filter syntax on the event's data,
 * checked when saved against the schemas of the types a subscription receives (422
 * invalid_filter with the place), applied when an event fans out (no delivery, nothing in the
 * log, for an event that does not match), tried with `POST /api/webhooks/filter-test`; and prefix
 * patterns (`order.*`) in `events`.
 */
let app: TestApp;
let receiver: Receiver;
let alice: TestUser;
let admin: TestUser;

beforeAll(async () => {
  app = await startApp();
  receiver = await startReceiver();
  alice = await registerUser(app, { plan: 'enterprise' });
  admin = await makeAdministrator(app, await registerUser(app));
});

afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

const as = (user: TestUser) => ({ Authorization: `Bearer ${user.jwt}` });

async function publish(events: Array<{ type: string; payload: Record<string, unknown> }>): Promise<number> {
  const response = await app.request().post('/api/webhooks/events').set(as(admin)).send({ events });
  expect(response.status).toBe(202);
  return response.body.deliveries as number;
}

/** Event types of a subscription's log, oldest first (the test event left out). */
async function logOf(id: string): Promise<Array<{ type: string; id: unknown }>> {
  const response = await app.request().get(`/api/webhooks/subscriptions/${id}/deliveries?limit=100`).set(as(alice));
  expect(response.status).toBe(200);
  return (response.body.data as Array<{ event_type: string; payload: { id?: unknown } }>)
    .filter((delivery) => delivery.event_type !== 'webhook.test')
    .map((delivery) => ({ type: delivery.event_type, id: delivery.payload.id }))
    .reverse();
}

async function tryFilter(body: Record<string, unknown>) {
  return app.request().post('/api/webhooks/filter-test').set(as(alice)).send(body);
}

describe('saving a filter', () => {
  it('creates a subscription with a filter and returns it; PATCH changes it and null clears it', async () => {
    const filter = { total: { $gte: 100 }, status: { $in: ['paid', 'pending'] } };
    const created = await subscribe(app, alice, { endpoint_url: `${receiver.url}/save`, events: ['order.created'], filter });
    const read = await app.request().get(`/api/webhooks/subscriptions/${created.id}`).set(as(alice));
    expect(read.status).toBe(200);
    expect(read.body.filter).toEqual(filter);

    const changed = await app
      .request()
      .patch(`/api/webhooks/subscriptions/${created.id}`)
      .set(as(alice))
      .send({ filter: { $or: [{ total: { $lt: 5 } }, { status: 'cancelled' }] } });
    expect(changed.status).toBe(200);
    expect(changed.body.filter).toEqual({ $or: [{ total: { $lt: 5 } }, { status: 'cancelled' }] });

    const cleared = await app.request().patch(`/api/webhooks/subscriptions/${created.id}`).set(as(alice)).send({ filter: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.filter).toBeNull();

    const plain = await subscribe(app, alice, { endpoint_url: `${receiver.url}/plain`, events: ['order.paid'] });
    const listed = await app.request().get('/api/webhooks/subscriptions?limit=100').set(as(alice));
    expect(listed.body.data.find((row: { id: string }) => row.id === plain.id).filter).toBeNull();
  });

  it.each([
    ['a field no type has', ['order.created'], { totl: { $gt: 1 } }, 'filter.totl', 'order.created has no field totl'],
    [
      'a nested field no type has',
      ['order.*'],
      { $and: [{ total: 1 }, { customer: { name: 'Ada' } }] },
      'filter.$and.1.customer',
      'no field customer',
    ],
    ['an unknown operator', ['order.created'], { total: { $bigger: 1 } }, 'filter.total.$bigger', '$bigger is not an operator'],
    [
      'a number operator given text',
      ['order.created'],
      { total: { $gt: 'a lot' } },
      'filter.total.$gt',
      'total of order.created holds numbers',
    ],
    ['a text operator on a number', ['order.paid'], { total: { $containsi: '1' } }, 'filter.total.$containsi', '$containsi compares text'],
    ['a choice the field does not offer', ['order.paid'], { status: 'payed' }, 'filter.status', '"payed" is not one of'],
    ['a date that is not a date', ['order.paid'], { paid_at: { $gt: 'yesterday' } }, 'filter.paid_at.$gt', 'is not an ISO 8601 date'],
    ['$in without a list', ['order.paid'], { id: { $in: 'a' } }, 'filter.id.$in', '$in takes a list'],
    ['$null with text', ['order.paid'], { paid_at: { $null: 'yes' } }, 'filter.paid_at.$null', '$null takes true or false'],
    ['$or without a list', ['order.paid'], { $or: { total: 1 } }, 'filter.$or', '$or takes a list of filters'],
  ])('refuses %s with 422 invalid_filter and its path, saving nothing', async (_name, events, filter, path, message) => {
    const before = await app.request().get('/api/webhooks/subscriptions?limit=100').set(as(alice));
    const response = await app
      .request()
      .post('/api/webhooks/subscriptions')
      .set(as(alice))
      .send({ endpoint_url: `${receiver.url}/refused`, events, filter });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ error: expect.stringContaining(message), code: 'invalid_filter', path });
    const after = await app.request().get('/api/webhooks/subscriptions?limit=100').set(as(alice));
    expect(after.body.meta.total).toBe(before.body.meta.total);
  });

  it('accepts a field any one of the received types has, and refuses a change of events the filter no longer fits', async () => {
    // `name` is a product's field, not an order's: fine while the subscription receives products too.
    const created = await subscribe(app, alice, {
      endpoint_url: `${receiver.url}/mixed`,
      events: ['order.created', 'product.created'],
      filter: { $or: [{ total: { $gt: 10 } }, { name: { $startsWith: 'Blue' } }] },
    });
    const narrowed = await app
      .request()
      .patch(`/api/webhooks/subscriptions/${created.id}`)
      .set(as(alice))
      .send({ events: ['order.created'] });
    expect(narrowed.status).toBe(422);
    expect(narrowed.body).toMatchObject({ code: 'invalid_filter', path: 'filter.$or.1.name' });
    const kept = await app.request().get(`/api/webhooks/subscriptions/${created.id}`).set(as(alice));
    expect(kept.body.events).toEqual(['order.created', 'product.created']);

    const bad = await app
      .request()
      .patch(`/api/webhooks/subscriptions/${created.id}`)
      .set(as(alice))
      .send({ filter: { price: { $eq: 'cheap' } } });
    expect(bad.status).toBe(422);
    expect(bad.body.path).toBe('filter.price.$eq');
    expect((await app.request().get(`/api/webhooks/subscriptions/${created.id}`).set(as(alice))).body.filter).toEqual({
      $or: [{ total: { $gt: 10 } }, { name: { $startsWith: 'Blue' } }],
    });
  });

  it('refuses a filter that is not an object with 400, like any malformed field', async () => {
    const response = await app
      .request()
      .post('/api/webhooks/subscriptions')
      .set(as(alice))
      .send({ endpoint_url: `${receiver.url}/x`, events: ['order.created'], filter: ['total'] });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'validation_error' });
  });
});

describe('prefix patterns in events', () => {
  it('accepts order.* and delivers every order type through it, once per event', async () => {
    const created = await subscribe(app, alice, { endpoint_url: `${receiver.url}/prefix`, events: ['order.*', 'order.paid'] });
    expect(created.events).toEqual(['order.*', 'order.paid']);
    await publish([
      { type: 'order.created', payload: orderData('p1') },
      { type: 'order.paid', payload: orderData('p2', { status: 'paid' }) },
      { type: 'product.created', payload: productData('p3') },
    ]);
    expect(await logOf(created.id)).toEqual([
      { type: 'order.created', id: 'p1' },
      { type: 'order.paid', id: 'p2' },
    ]);
  });

  it.each([['nothing.*'], ['order*'], ['*.created'], ['order.cr*']])('refuses %s like an unknown name', async (entry) => {
    const response = await app
      .request()
      .post('/api/webhooks/subscriptions')
      .set(as(alice))
      .send({ endpoint_url: `${receiver.url}/x`, events: ['order.created', entry] });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ error: expect.any(String), code: 'invalid_events', invalid_events: [entry] });
  });
});

describe('applying filters when events fan out', () => {
  it('creates deliveries only for the subscriptions whose filter the data matches', async () => {
    const subscriptions = {
      big: await subscribe(app, alice, { endpoint_url: `${receiver.url}/f/big`, events: ['order.*'], filter: { total: { $gt: 100 } } }),
      paidOrCancelled: await subscribe(app, alice, {
        endpoint_url: `${receiver.url}/f/status`,
        events: ['order.*'],
        filter: { $or: [{ status: 'paid' }, { status: { $eq: 'cancelled' } }] },
      }),
      notPending: await subscribe(app, alice, {
        endpoint_url: `${receiver.url}/f/not`,
        events: ['order.*'],
        filter: { $not: { status: 'pending' }, total: { $between: [10, 1000] } },
      }),
      unpaid: await subscribe(app, alice, { endpoint_url: `${receiver.url}/f/unpaid`, events: ['order.*'], filter: { paid_at: null } }),
      thisYear: await subscribe(app, alice, {
        endpoint_url: `${receiver.url}/f/dates`,
        events: ['order.*'],
        filter: { created_at: { $gte: '2026-01-01T00:00:00Z', $lt: '2027-01-01' } },
      }),
      everything: await subscribe(app, alice, { endpoint_url: `${receiver.url}/f/all`, events: ['*'] }),
    };
    const deliveries = await publish([
      { type: 'order.created', payload: orderData('o1', { total: 500 }) },
      { type: 'order.paid', payload: orderData('o2', { status: 'paid', total: 20, paid_at: '2026-05-01T00:00:00.000Z' }) },
      { type: 'order.updated', payload: orderData('o3', { status: 'cancelled', total: 5, created_at: '2025-12-31T23:59:59.999Z' }) },
      { type: 'order.created', payload: orderData('o4', { total: 50, created_at: null }) },
    ]);
    const ids = async (key: keyof typeof subscriptions) => (await logOf(subscriptions[key].id)).map((entry) => entry.id);
    expect(await ids('big')).toEqual(['o1']);
    expect(await ids('paidOrCancelled')).toEqual(['o2', 'o3']);
    expect(await ids('notPending')).toEqual(['o2']);
    expect(await ids('unpaid')).toEqual(['o1', 'o3', 'o4']);
    expect(await ids('thisYear')).toEqual(['o1', 'o2']);
    expect(await ids('everything')).toEqual(['o1', 'o2', 'o3', 'o4']);
    // Every subscription of this consumer receiving orders (the earlier tests' too) counts, and only those that matched.
    const received = await Promise.all(Object.values(subscriptions).map(async (subscription) => (await logOf(subscription.id)).length));
    expect(deliveries).toBeGreaterThanOrEqual(received.reduce((sum, count) => sum + count, 0));

    // Only matching events are sent: the filtered subscription's endpoint never sees the others.
    await waitForPosts(receiver, 1, (request) => request.path === '/f/big' && eventOf(request).type !== 'webhook.test');
    await waitForPosts(receiver, 4, (request) => request.path === '/f/all' && eventOf(request).type !== 'webhook.test');
    expect(
      posts(receiver)
        .filter((request) => request.path === '/f/big' && eventOf(request).type !== 'webhook.test')
        .map((request) => eventOf(request).data.id)
    ).toEqual(['o1']);
  });

  it('counts only the deliveries made in the publish answer', async () => {
    const lonely = await registerUser(app, { plan: 'enterprise' });
    const created = await subscribe(app, lonely, {
      endpoint_url: `${receiver.url}/count`,
      events: ['product.deleted'],
      filter: { stock: { $lte: 0 } },
    });
    const none = await publish([{ type: 'product.deleted', payload: { ...productData('c1'), stock: 3, deleted: true } }]);
    const one = await publish([{ type: 'product.deleted', payload: { ...productData('c2'), stock: 0, deleted: true } }]);
    expect(one - none).toBe(1);
    const log = await app.request().get(`/api/webhooks/subscriptions/${created.id}/deliveries`).set(as(lonely));
    expect(
      log.body.data
        .filter((row: { event_type: string }) => row.event_type === 'product.deleted')
        .map((row: { payload: { id: string } }) => row.payload.id)
    ).toEqual(['c2']);
  });

  it('filters the site’s own content events on their relations (lists in payloads)', async () => {
    const token = await fullAccessToken(app);
    const created = await subscribe(app, alice, {
      endpoint_url: `${receiver.url}/authors`,
      events: ['author.created', 'author.updated'],
      filter: { articles: { title: { $containsi: 'bread' } } },
    });
    const article = await app
      .request()
      .post('/api/articles')
      .set('Authorization', `Bearer ${token}`)
      // Published: an event carries what the public content API shows, and a draft article is not in it.
      .send({ data: { title: 'Sourdough Bread', slug: 'sourdough-bread', status: 'published', body: 'Flour, water, salt.' } });
    expect(article.status).toBe(201);
    const articleDoc = article.body.data as { documentId: string };
    for (const [name, articles] of [
      ['Baker', [articleDoc.documentId]],
      ['Nobody', []],
    ] as const) {
      const response = await app
        .request()
        .post('/api/authors')
        .set('Authorization', `Bearer ${token}`)
        .send({ data: { name, email: `${name.toLowerCase()}@example.com`, articles } });
      expect(response.status).toBe(201);
    }
    await waitForPosts(receiver, 1, (request) => request.path === '/authors' && eventOf(request).type === 'author.created');
    await app.strapi.plugin('api-suite').service('webhooks').settle();
    const log = await app.request().get(`/api/webhooks/subscriptions/${created.id}/deliveries`).set(as(alice));
    const names = (log.body.data as Array<{ event_type: string; payload: { name: string } }>)
      .filter((row) => row.event_type === 'author.created')
      .map((row) => row.payload.name);
    expect(names).toEqual(['Baker']);
  });
});

/** Linux's clock ticks a second (`getconf CLK_TCK`): what /proc's CPU times count in. */
const CLOCK_TICKS = 100;

describe('POST /api/webhooks/filter-test', () => {
  it('refuses a payload above 64 KB with 413, and tries the costliest filter on one below it within 50 ms of CPU', async () => {
    // 99 conditions on every item of a list: the most work one filter can ask of a payload.
    const filter = { $or: Array.from({ length: 99 }, (_, index) => ({ articles: { title: { $containsi: `absent-${index}` } } })) };
    const payloadOf = (items: number) => ({
      id: 'a1',
      name: 'Ada',
      articles: Array.from({ length: items }, (_, i) => ({ title: `Title ${i} xxxxxxxx` })),
    });
    const tooLarge = await tryFilter({ type: 'author.created', filter, payload: payloadOf(2600) });
    expect(JSON.stringify(payloadOf(2600)).length).toBeGreaterThan(64 * 1024);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toMatchObject({ code: 'payload_too_large' });

    const largest = payloadOf(2000);
    expect(JSON.stringify(largest).length).toBeLessThanOrEqual(64 * 1024);
    // Measured on a process of the app of its own (this file's server runs inside Jest's module
    // sandbox, where such loops run many times slower than in Node): its CPU from /proc.
    const instance = await startInstance(app);
    try {
      const cpuOf = () => {
        const fields = fs.readFileSync(`/proc/${instance.process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
        return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
      };
      // The filter's work is what the costliest try costs beyond the same route's cheapest: asked
      // in alternation, so that both see the same machine (a loaded CI run doubles every figure).
      const costliest = { type: 'author.created', filter, payload: largest };
      const cheapest = { type: 'author.created', filter: { name: 'x' }, payload: { id: 'a1', name: 'Ada', articles: [] } };
      const cpu = { costliest: [] as number[], cheapest: [] as number[] };
      for (let round = 0; round < 11; round += 1) {
        for (const kind of round % 2 === 0 ? (['costliest', 'cheapest'] as const) : (['cheapest', 'costliest'] as const)) {
          const before = cpuOf();
          const response = await instance
            .request()
            .post('/api/webhooks/filter-test')
            .set(as(alice))
            .send(kind === 'costliest' ? costliest : cheapest);
          expect(response.body).toEqual({ matches: false, type: 'author.created' });
          // The first rounds warm the process up (its JIT, the caches of the route).
          if (round >= 2) cpu[kind].push(cpuOf() - before);
        }
      }
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
      console.info(`filter-test CPU per request, ms: costliest ${cpu.costliest.join(', ')}; cheapest ${cpu.cheapest.join(', ')}`);
      expect(median(cpu.costliest) - median(cpu.cheapest)).toBeLessThan(50);
    } finally {
      await instance.stop();
    }
  });

  it('tries a filter on the type’s example payload when no payload is given', async () => {
    // The catalog's order.paid example: status paid, total 25.
    expect((await tryFilter({ type: 'order.paid', filter: { status: 'paid', total: { $lt: 30 } } })).body).toEqual({
      matches: true,
      type: 'order.paid',
    });
    expect((await tryFilter({ type: 'order.paid', filter: { total: { $gt: 30 } } })).body).toEqual({ matches: false, type: 'order.paid' });
  });

  const order = orderData('t1', { status: 'paid', total: 129.5, paid_at: '2026-03-01T10:00:00.000Z', payment_id: 'pi_ABC' });
  it.each([
    ['$eq', { status: { $eq: 'paid' } }, true],
    ['$eqi', { payment_id: { $eqi: 'PI_abc' } }, true],
    ['$ne', { status: { $ne: 'paid' } }, false],
    ['$nei', { payment_id: { $nei: 'pi_abc' } }, false],
    ['$lt', { total: { $lt: 129.5 } }, false],
    ['$lte', { total: { $lte: 129.5 } }, true],
    ['$gt', { total: { $gt: 100 } }, true],
    ['$gte', { total: { $gte: 130 } }, false],
    ['$in', { status: { $in: ['paid', 'cancelled'] } }, true],
    ['$notIn', { status: { $notIn: ['paid'] } }, false],
    ['$contains', { payment_id: { $contains: 'ABC' } }, true],
    ['$notContains', { payment_id: { $notContains: 'abc' } }, true],
    ['$containsi', { payment_id: { $containsi: 'abc' } }, true],
    ['$notContainsi', { payment_id: { $notContainsi: 'abc' } }, false],
    ['$startsWith', { payment_id: { $startsWith: 'pi_' } }, true],
    ['$endsWith', { payment_id: { $endsWith: 'XYZ' } }, false],
    ['$null', { paid_at: { $null: true } }, false],
    ['$notNull', { paid_at: { $notNull: true } }, true],
    ['$between numbers', { total: { $between: [100, 200] } }, true],
    ['$between dates', { paid_at: { $between: ['2026-01-01', '2026-02-01'] } }, false],
    ['a date in another offset', { paid_at: { $eq: '2026-03-01T11:00:00+01:00' } }, true],
    ['a bare value', { status: 'paid' }, true],
    ['a bare list', { status: ['pending', 'cancelled'] }, false],
    ['$and', { $and: [{ status: 'paid' }, { total: { $gt: 1000 } }] }, false],
    ['$or', { $or: [{ status: 'pending' }, { total: { $gt: 100 } }] }, true],
    ['$not', { $not: { total: { $gt: 100 } } }, false],
    ['$not on a field', { status: { $not: { $in: ['pending'] } } }, true],
  ])('%s', async (_name, filter, matches) => {
    const response = await tryFilter({ type: 'order.paid', filter, payload: order });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ matches, type: 'order.paid' });
  });

  it('applies conditions on lists to their items', async () => {
    const author = { id: 'a1', name: 'Ada', articles: [{ title: 'Bread' }, { title: 'Cheese' }] };
    const test = async (filter: Record<string, unknown>) =>
      (await tryFilter({ type: 'author.created', filter, payload: author })).body.matches as boolean;
    expect(await test({ articles: { title: 'Cheese' } })).toBe(true);
    expect(await test({ articles: { title: { $ne: 'Cheese' } } })).toBe(false);
    expect(await test({ articles: { title: { $startsWithi: 'br' } } })).toBe(true);
    expect(await test({ articles: { $notNull: true } })).toBe(true);
    expect(await test({ articles: { $null: true } })).toBe(false);
  });

  it('accepts the examples docs/webhooks.md gives, one for each of three types', async () => {
    const examples: Array<[string, Record<string, unknown>]> = [
      ['order.paid', { total: { $gte: 100 }, paid_at: { $between: ['2026-01-01', '2026-12-31T23:59:59Z'] } }],
      ['run.failed', { scraper_id: 12, $or: [{ items_collected: 0 }, { status: 'failed' }] }],
      ['author.created', { articles: { title: { $containsi: 'bread' } }, $not: { name: { $startsWith: 'Test' } } }],
    ];
    for (const [type, filter] of examples) {
      const response = await tryFilter({ type, filter });
      expect([type, response.status]).toEqual([type, 200]);
    }
  });

  it('refuses an unknown type and a filter that does not fit the type', async () => {
    expect((await tryFilter({ type: 'order.nope', filter: {} })).body).toEqual({
      error: 'Unknown or inactive event type: order.nope',
      code: 'invalid_events',
      invalid_events: ['order.nope'],
    });
    const unfit = await tryFilter({ type: 'product.created', filter: { total: 1 } });
    expect(unfit.status).toBe(422);
    expect(unfit.body).toEqual({
      error: 'The filter cannot be applied at filter.total: product.created has no field total',
      code: 'invalid_filter',
      path: 'filter.total',
    });
    const malformed = await tryFilter({ type: 'order.paid' });
    expect(malformed.status).toBe(400);
  });

  it('needs a credential', async () => {
    const response = await app.request().post('/api/webhooks/filter-test').send({ type: 'order.paid', filter: {} });
    expect(response.status).toBe(401);
  });
});
