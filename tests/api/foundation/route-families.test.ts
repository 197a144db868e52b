import { startApp, type TestApp } from '../../helpers/app';
import { administratorOf } from '../../helpers/keys';
import { pluginRoutes, type MountedRoute } from '../../helpers/route-table';
import {
  ApiError,
  bodyParserError,
  errorListBody,
  errorMessageBody,
  familyShapeOf,
  flatErrorBody,
  nestedErrorBody,
  oauthErrorBody,
  type ErrorShape,
  type FamilyShape,
} from '../../../src/plugins/api-suite/server/src/http/errors';
import { routeFamilies } from '../../../src/plugins/api-suite/server/src/http/api-routes';

/**
 * A route's error body is decided by its family alone: the error middleware its config names,
 * which the access guard reads too when it answers for the route (a body that cannot be parsed,
 * a dependency away). So the family a route is put in must be the one its path promises
 * (docs/api-reference.md#error-bodies): a route put in the wrong one fails here, rather than
 * silently changing what its clients parse. A route added later is walked the same way.
 */
let app: TestApp;
let adminJwt: string;

beforeAll(async () => {
  app = await startApp();
  adminJwt = (await administratorOf(app)).jwt;
});

afterAll(async () => {
  await app?.close();
});

const under = (url: string, prefix: string) => url === prefix || url.startsWith(`${prefix}/`);

/** The families of the routes under /api as docs/api-reference.md#error-bodies promises them, by path. */
function pathFamily(path: string): 'oauth' | 'nested' | 'flat' | 'list' | 'message' | 'strapi' {
  if (under(path, '/api/webhook/stripe')) return 'message';
  if (path === '/api/v1/oauth/token') return 'oauth';
  if (under(path, '/api/v1')) return 'nested';
  if (under(path, '/api/webhooks')) return 'flat';
  if (['/api/checkout', '/api/reports', '/api/search'].some((prefix) => under(path, prefix))) return 'list';
  return 'strapi';
}

/**
 * The body a route's path promises. The server never decides by path: the access guard and the
 * input guard both answer in the family of the route a request reaches (`routeFamilies`).
 */
function promisedShape(url: string): { name: string; body: ErrorShape; refusalsToo: boolean } | undefined {
  switch (pathFamily(url)) {
    case 'oauth':
      return { name: 'RFC 6749', body: oauthErrorBody, refusalsToo: true };
    case 'nested':
      return { name: '/api/v1 nested', body: nestedErrorBody, refusalsToo: false };
    case 'flat':
      return { name: 'webhooks flat', body: flatErrorBody, refusalsToo: false };
    case 'list':
      return { name: 'error list', body: errorListBody, refusalsToo: false };
    case 'message':
      return { name: 'message', body: errorMessageBody, refusalsToo: false };
    default:
      return undefined;
  }
}

const SHAPE_NAMES: Array<[string, ErrorShape]> = [
  ['RFC 6749', oauthErrorBody],
  ['/api/v1 nested', nestedErrorBody],
  ['webhooks flat', flatErrorBody],
  ['error list', errorListBody],
  ['message', errorMessageBody],
];
/** A refusal every body tells apart from the others (the booted app's builders are its build's, so they are told by what they build). */
const PROBE = new ApiError(503, 'probe', 'Probe', { extra: 1 });
const nameOf = (body: ErrorShape) =>
  SHAPE_NAMES.find(([, known]) => JSON.stringify(known(PROBE)) === JSON.stringify(body(PROBE)))?.[0] ?? 'an unknown body';
const describeShape = (shape: FamilyShape | undefined) =>
  shape ? `${nameOf(shape.body)}${shape.refusalsToo ? ', refusals too' : ''}` : 'no error family';

const apiRoutes = () => pluginRoutes(app).filter((route) => route.type === 'content-api');
const families = (route: MountedRoute) =>
  route.middlewares.map((name) => familyShapeOf(app.strapi.middleware(name))).filter((shape) => shape !== undefined);

it("puts every route under /api in the family its path promises, and names exactly one family's error middleware", () => {
  const routes = apiRoutes();
  expect(routes.length).toBeGreaterThanOrEqual(45);
  const found = routes.map((route) => ({ route: route.name, family: families(route).map(describeShape).join(' + ') || 'no error family' }));
  const promised = routes.map((route) => {
    const shape = promisedShape(route.url);
    // A path no family is promised for (the plugin's health check, under /api/api-suite) names none.
    return {
      route: route.name,
      family: shape ? `${shape.name}${shape.refusalsToo ? ', refusals too' : ''}` : 'no error family',
    };
  });
  expect(found).toEqual(promised);
});

it('guards only the /api/v1 and /api/webhooks routes', () => {
  const guarded = apiRoutes().filter((route) => route.middlewares.includes('plugin::api-suite.access-guard'));
  expect(guarded.filter((route) => !under(route.url, '/api/v1') && !under(route.url, '/api/webhooks')).map((route) => route.name)).toEqual(
    []
  );
});

it("finds, for the access guard, each route's own family from the request (a 405 included)", () => {
  const familyOf = routeFamilies(app.strapi);
  const routes = apiRoutes();
  const found = routes.map((route) => ({
    route: route.name,
    family: describeShape(familyOf(route.method, route.url.replace(/:(\w+)/g, '1'))),
  }));
  expect(found).toEqual(routes.map((route) => ({ route: route.name, family: describeShape(families(route)[0]) })));
  // A method the route does not have: the family of the routes on its path.
  expect(describeShape(familyOf('GET', '/api/v1/oauth/token'))).toBe('RFC 6749, refusals too');
  expect(describeShape(familyOf('PUT', '/api/webhooks/subscriptions/1'))).toBe('webhooks flat');
  expect(familyOf('POST', '/api/webhooks/nobody-here')).toBeUndefined();
});

it("answers a body that cannot be parsed on every guarded route in its family's body", async () => {
  const unparsable = bodyParserError(Object.assign(new SyntaxError('Unexpected end of JSON input'), { status: 400 })) as ApiError;
  const writes = apiRoutes().filter(
    (route) => route.middlewares.includes('plugin::api-suite.access-guard') && ['POST', 'PUT', 'PATCH'].includes(route.method)
  );
  expect(writes.length).toBeGreaterThanOrEqual(20);
  const answers: Array<{ route: string; status: number; body: unknown }> = [];
  const expected: typeof answers = [];
  for (const route of writes) {
    const response = await app
      .request()
      [route.method.toLowerCase() as 'post' | 'put' | 'patch'](route.url.replace(/:(\w+)/g, '1'))
      .set('Authorization', `Bearer ${adminJwt}`)
      .set('Content-Type', 'application/json')
      .send('{"name":');
    answers.push({ route: route.name, status: response.status, body: response.body });
    expected.push({ route: route.name, status: 400, body: promisedShape(route.url)?.body(unparsable) });
  }
  expect(answers).toEqual(expected);
});
