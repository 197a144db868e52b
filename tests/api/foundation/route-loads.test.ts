import crypto from 'node:crypto';
import { startApp, type TestApp } from '../../helpers/app';
import { adminAuth } from '../../helpers/admin-users';
import { administratorOf } from '../../helpers/keys';
import { adminSession } from '../../helpers/users';
import { ApiError, flatErrorBody, nestedErrorBody, strapiErrorBody } from '../../../src/plugins/api-suite/server/src/http/errors';
import { NotFoundError } from '../../../src/plugins/api-suite/server/src/errors';
import { MAX_ID } from '../../../src/plugins/api-suite/server/src/http/validation';
import { pluginRoutes, type MountedRoute } from '../../helpers/route-table';

/**
 * The plugin's route table as a whole, as the booted app holds it: every route whose path names
 * something (`:id`, `:name`) declares a `load` step (http/input.ts), and that step answers an
 * unknown id with the route's 404 before the query and the body are read, so a bad query or body
 * never turns a missing row into a 400. A route added later is walked the same way.
 */
let app: TestApp;
let adminJwt: string;
let adminPanelToken: string;

beforeAll(async () => {
  app = await startApp();
  adminJwt = (await administratorOf(app)).jwt;
  adminPanelToken = (await adminSession(app)).token;
});

afterAll(async () => {
  await app?.close();
});

/** The families' error bodies, by the error middleware a route names (the admin panel's are all Strapi's). */
const SHAPES: Record<string, (error: ApiError) => unknown> = {
  'plugin::api-suite.nested-errors': nestedErrorBody,
  'plugin::api-suite.billing-errors': nestedErrorBody,
  'plugin::api-suite.flat-errors': flatErrorBody,
  'plugin::api-suite.strapi-errors': strapiErrorBody,
};

/** The routes whose path names something, each with its family's error body. */
function namedRoutes() {
  return pluginRoutes(app)
    .filter((route) => route.url.includes(':'))
    .map((route) => {
      const family = route.middlewares.find((name) => name in SHAPES);
      return { ...route, shape: family ? SHAPES[family] : () => `no error family named by ${route.name}` };
    });
}

/** Well-formed ids that name nothing in a fresh database: a row id, a uuid, an event type's name. */
const UNKNOWN_IDS = [String(MAX_ID - 1), crypto.randomUUID(), 'no_such.event'];

/** The route's path with every parameter set to the first unknown id its params accept, so only `load` can refuse it. */
function withUnknownId(route: MountedRoute): string | undefined {
  const names = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]);
  for (const id of UNKNOWN_IDS) {
    const params = Object.fromEntries(names.map((name) => [name, id]));
    try {
      route.input?.params?.parse(params);
    } catch {
      continue;
    }
    return route.url.replace(/:(\w+)/g, id);
  }
  return undefined;
}

const BAD_QUERY = 'page=0&limit=1000&status=nope&format=nope';
/** No route's body is a list. */
const BAD_BODY = [42];

function send(route: MountedRoute, url: string) {
  const request = app
    .request()
    [route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](`${url}?${BAD_QUERY}`)
    .set(route.type === 'admin' ? adminAuth(adminPanelToken) : { Authorization: `Bearer ${adminJwt}` });
  return route.method === 'GET' || route.method === 'DELETE' ? request : request.send(BAD_BODY);
}

it('every route whose path names something loads it, and names its 404', () => {
  const named = namedRoutes();
  // Scrapers, webhooks and access each have several.
  expect(named.length).toBeGreaterThanOrEqual(35);
  const unloaded = named.filter((route) => !route.input?.load || !route.input.params || route.input.notFound === undefined);
  expect(unloaded.map((route) => route.name)).toEqual([]);
});

it('answers an unknown id with the route family’s 404 whatever the query and body hold, as it answers a malformed one', async () => {
  const named = namedRoutes().filter((route) => route.input?.load);
  const answers: Array<{ route: string; id: string; status: number; body: unknown }> = [];
  const expected: typeof answers = [];
  for (const route of named) {
    const notFound = route.shape(new NotFoundError(route.input?.notFound ?? '(no notFound)'));
    const urls = { unknown: withUnknownId(route), malformed: route.url.replace(/:(\w+)/g, 'not%20an%20id') };
    for (const [id, url] of Object.entries(urls)) {
      // A route whose params accept none of the unknown ids fails here: add one that fits to UNKNOWN_IDS.
      const response = url === undefined ? { status: 0, body: 'no unknown id fits its params' } : await send(route, url);
      answers.push({ route: route.name, id, status: response.status, body: response.body });
      expected.push({ route: route.name, id, status: 404, body: notFound });
    }
  }
  expect(answers).toEqual(expected);
});
