import type { z } from 'zod';
import { startApp, type TestApp } from '../../helpers/app';
import { pluginRoutes, type MountedRoute } from '../../helpers/route-table';

/**
 * Every route of the plugin is mounted from its contract (contract/route.ts), the one description
 * the OpenAPI document and the browsers' typed client read too: the route answers at the contract's
 * method and path, parses the very body and query schemas the contract names, and the document
 * lists exactly the contracts of the public API.
 */
let app: TestApp;
let routes: MountedRoute[];

beforeAll(async () => {
  app = await startApp();
  routes = pluginRoutes(app);
});

afterAll(async () => {
  await app?.close();
});

/** Routes that are no API call: the portal's pages and assets, and the liveness probe. */
const NOT_CALLS = [/^GET \/api\/api-suite\/health /, /^GET \/portal\//];

const key = (route: MountedRoute) => `${route.method} ${route.url.replace(/:(\w+)\*?/g, '{$1}')}`;

it('every route answers at the method and path of the contract it was mounted from', () => {
  const calls = routes.filter((route) => !NOT_CALLS.some((pattern) => pattern.test(route.name)));
  expect(calls.length).toBeGreaterThan(80);
  const without = calls.filter((route) => !route.contract).map((route) => route.name);
  expect(without).toEqual([]);
  const moved = calls.filter((route) => route.contract && `${route.contract.method.toUpperCase()} ${route.contract.path}` !== key(route));
  expect(moved.map((route) => `${route.name} ≠ ${route.contract?.method} ${route.contract?.path}`)).toEqual([]);
});

it("a route's input parses the body and query its contract names, not schemas of its own", () => {
  const apart: string[] = [];
  for (const route of routes) {
    const { contract, input } = route;
    if (!contract || !input) continue;
    const body = contract.body?.json as z.ZodType | undefined;
    // A parser of the server's own may wrap the contract's schema, and says which (`of`).
    const parses = (parser: { of?: unknown }, schema: unknown) => parser === schema || parser.of === schema;
    if (input.body && body && !parses(input.body, body)) apart.push(`${route.name}: body`);
    if (input.query && contract.query && !parses(input.query, contract.query)) apart.push(`${route.name}: query`);
    if (input.body && !contract.body) apart.push(`${route.name}: a body its contract does not name`);
    if (input.query && !contract.query) apart.push(`${route.name}: a query its contract does not name`);
  }
  expect(apart).toEqual([]);
});

it('the OpenAPI document describes exactly the contracts of the public API', async () => {
  const document = (await app.request().get('/api/v1/openapi.json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
  const documented = new Set(
    Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
  );
  const published = routes
    .filter((route) => route.contract && 'operationId' in route.contract)
    .map((route) => `${route.contract?.method.toUpperCase()} ${route.contract?.path}`);
  expect(published.filter((name) => !documented.has(name))).toEqual([]);
  const unpublishedButDocumented = routes
    .filter((route) => route.contract && !('operationId' in route.contract))
    .map(key)
    .filter((name) => documented.has(name));
  expect(unpublishedButDocumented).toEqual([]);
});
