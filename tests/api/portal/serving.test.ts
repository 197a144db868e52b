import { startApp, type TestApp } from '../../helpers/app';

/**
 * The consumer portal as the plugin serves it: the page at its path and at every deep link (the
 * client routes), its hashed files cached for good with their content types, its own CSP in
 * place of Strapi's, 404 for files it did not build (traversal included), off with
 * PORTAL_ENABLED=false, and moved with PORTAL_PATH.
 */
const assetsOf = (html: string) => ({
  script: /<script type="module" src="([^"]+)"/.exec(html)?.[1] ?? '',
  style: /<link rel="stylesheet" href="([^"]+)"/.exec(html)?.[1] ?? '',
});
const settingsOf = (html: string) =>
  JSON.parse(
    (/<meta name="portal-settings" content="([^"]+)"/.exec(html)?.[1] ?? '{}')
      .replace(/&#34;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&#38;/g, '&')
  );

describe('the portal at /portal', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(() => app?.close());

  it('answers its page at the path, with the site title and settings for the app', async () => {
    const response = await app.request().get('/portal');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.text).toContain('<title>API portal</title>');
    expect(response.text).toContain('<div id="root"></div>');
    // The shop's currency prices the public plan list; without Stripe the portal does not ask billing.
    // The API's paths under the site's REST prefix; the content the plan cards name: the versioned
    // articles, then every type of the site (the demo's own, by their plural names).
    expect(settingsOf(response.text)).toEqual({
      title: 'API portal',
      accentColor: '#4945ff',
      basePath: '/portal',
      allowRegister: true,
      currency: 'eur',
      billing: false,
      restPrefix: '/api',
      sold: expect.arrayContaining([
        { label: 'articles', path: '/api/v1/articles', write: 'POST' },
        { label: 'articles', path: '/api/articles', write: 'POST' },
        { label: 'comments', path: '/api/comments', write: 'POST' },
      ]),
      // What the demo's Public role may call: reading its types, none of their writes.
      publicRoutes: expect.arrayContaining(['GET /api/articles', 'GET /api/articles/{id}', 'GET /api/comments']),
    });
    expect(settingsOf(response.text).publicRoutes).not.toContain('POST /api/comments');
    const { script, style } = assetsOf(response.text);
    expect(script).toMatch(/^\/portal\/assets\/portal-[A-Z0-9]+\.js$/);
    expect(style).toMatch(/^\/portal\/assets\/portal-[A-Z0-9]+\.css$/);
  });

  it('answers the same page for deep links, which the client routes', async () => {
    const root = await app.request().get('/portal');
    for (const path of [
      '/portal/',
      '/portal/keys',
      '/portal/webhooks/0b5e3c1e-1111-4c1e-9c1e-000000000000',
      '/portal/scrapers/3?tab=runs',
    ]) {
      const response = await app.request().get(path);
      expect({ path, status: response.status, type: response.headers['content-type'] }).toEqual({
        path,
        status: 200,
        type: 'text/html; charset=utf-8',
      });
      expect(response.text).toBe(root.text);
    }
  });

  it('sets its own content security policy: scripts, styles and connections to itself only', async () => {
    const page = await app.request().get('/portal/keys');
    const csp = page.headers['content-security-policy'];
    const directives = Object.fromEntries(
      csp
        .split(';')
        .map((part: string) => part.trim().split(/\s+/))
        .map(([name, ...values]: string[]) => [name, values])
    );
    expect(directives).toMatchObject({
      'default-src': ["'none'"],
      'script-src': ["'self'"],
      'style-src': ["'self'"],
      'connect-src': ["'self'"],
      'img-src': ["'self'", 'data:'],
      'frame-ancestors': ["'none'"],
      'base-uri': ["'none'"],
    });
    // Strapi's own policy (unsafe-inline scripts, https: connections) is replaced, not merged.
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('https:');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    // The API keeps Strapi's policy.
    const api = await app.request().get('/api/v1/billing/plans');
    expect(api.headers['content-security-policy']).not.toBe(csp);
  });

  it('serves its hashed files for a year, immutable, with their content types', async () => {
    const { script, style } = assetsOf((await app.request().get('/portal')).text);
    const js = await app.request().get(script);
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['content-security-policy']).toContain("script-src 'self'");
    expect(js.text.length).toBeGreaterThan(10_000);
    const css = await app.request().get(style);
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const head = await app.request().head(script);
    expect(head.status).toBe(200);
  });

  it('answers 404 for files it did not build, and never reaches outside them', async () => {
    for (const path of [
      '/portal/assets/portal-NOPE.js',
      '/portal/assets/manifest.json',
      '/portal/assets/..%2Fmanifest.json',
      '/portal/assets/..%2F..%2F..%2Fpackage.json',
      '/portal/assets/%2e%2e%2f%2e%2e%2fserver%2findex.js',
      '/portal/assets/',
      '/portal/assets/nested/portal.js',
    ]) {
      const response = await app.request().get(path);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      expect(response.headers['cache-control'] ?? '').not.toContain('immutable');
    }
  });

  it('leaves other paths and methods alone', async () => {
    expect((await app.request().get('/portalx')).status).toBe(404);
    expect((await app.request().post('/portal').send({})).status).toBe(405);
  });
});

describe('PORTAL_ENABLED=false', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ env: { PORTAL_ENABLED: 'false' } });
  });
  afterAll(() => app?.close());

  it('answers 404 at the path, its deep links and its files', async () => {
    for (const path of ['/portal', '/portal/keys', '/portal/assets/portal-ABC.js']) {
      const response = await app.request().get(path);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
    }
  });
});

describe('PORTAL_PATH=/developers', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ env: { PORTAL_PATH: '/developers' } });
  });
  afterAll(() => app?.close());

  it('serves the page and its files there, and nothing at /portal', async () => {
    const page = await app.request().get('/developers/webhooks');
    expect(page.status).toBe(200);
    expect(settingsOf(page.text).basePath).toBe('/developers');
    const { script } = assetsOf(page.text);
    expect(script).toMatch(/^\/developers\/assets\/portal-[A-Z0-9]+\.js$/);
    expect((await app.request().get(script)).status).toBe(200);
    expect((await app.request().get('/portal')).status).toBe(404);
    expect((await app.request().get(script.replace('/developers', '/portal'))).status).toBe(404);
  });
});
