import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { createManualClock } from '../helpers/manual-clock';
import {
  crawl,
  createRateLimiter,
  parseSelector,
  validateSelectors,
  type CrawlOptions,
} from '../../src/plugins/api-suite/server/src/features/scrapers/crawler';
import { createOutbound, type Outbound } from '../../src/plugins/api-suite/server/src/outbound';
import { startSite, type TestSite } from '../helpers/site';
import { eventually } from '../helpers/wait';

/** The scraper crawler with the real outbound client against a local site (and local proxies). */
let site: TestSite;
let outbound: Outbound;

beforeAll(async () => {
  site = await startSite();
  outbound = createOutbound({ allowPrivate: true });
});

afterAll(async () => {
  await outbound?.close();
  await site?.close();
});

function options(
  overrides: Partial<CrawlOptions> = {},
  client: Outbound = outbound
): CrawlOptions & { items: Array<{ url: string; data: Record<string, unknown> }> } {
  const items: Array<{ url: string; data: Record<string, unknown> }> = [];
  return {
    startUrl: `${site.url}/`,
    maxPages: 100,
    followLinks: false,
    rateLimit: 100,
    headers: {},
    proxies: [],
    respectRobotsTxt: true,
    signal: new AbortController().signal,
    request: (url, init) => client.request(url, { method: 'GET', ...init }),
    onItems: async (found) => {
      items.push(...found);
    },
    ...overrides,
    items,
  };
}

describe('parseSelector and validateSelectors', () => {
  it('splits an attribute off a selector, leaving @ inside brackets to the CSS', () => {
    expect(parseSelector('a.title@href')).toEqual({ css: 'a.title', attr: 'href' });
    expect(parseSelector(' h2 ')).toEqual({ css: 'h2' });
    expect(parseSelector('img @ data-src')).toEqual({ css: 'img', attr: 'data-src' });
    expect(parseSelector('a[href*="@"]')).toEqual({ css: 'a[href*="@"]' });
  });

  it('accepts valid selectors and names every problem of invalid ones', () => {
    expect(validateSelectors({ item: '.product', fields: { name: '.name', link: 'a@href' } })).toEqual([]);
    expect(validateSelectors(null)).toEqual([]);
    expect(validateSelectors({ item: '.a' })).toEqual(['fields must be an object of names to "css" or "css@attr"']);
    expect(validateSelectors({ fields: {} })).toEqual(['fields must name at least one field']);
    expect(validateSelectors({ fields: { a: 'div[' } })).toEqual(['fields.a: "div[" is not a valid CSS selector']);
    expect(validateSelectors({ item: ':::', fields: { a: 'b' }, depth: 2 })).toEqual([
      'unknown keys: depth',
      'item ":::" is not a valid CSS selector',
    ]);
    expect(validateSelectors([])).toEqual(['must be an object { item?, fields }']);
  });
});

describe('crawl', () => {
  it('extracts items with absolute links from the start page only, by default', async () => {
    const run = options({ selectors: { item: '.product', fields: { name: '.name', link: 'a.link@href', missing: '.nope' } } });
    const summary = await crawl(run);
    expect(summary).toEqual({ pagesFetched: 1, pagesFailed: 0, itemsCollected: 3, stopped: false, startError: null });
    expect(run.items.map((item) => item.data)).toEqual([
      { name: 'A', link: `${site.url}/items/a`, missing: null },
      { name: 'B', link: `${site.url}/items/b`, missing: null },
      { name: 'C', link: 'https://shop.example/c', missing: null },
    ]);
  });

  it('fetches disallowed pages only when robots.txt is ignored', async () => {
    const respecting = await crawl(options({ followLinks: true }));
    const ignoring = options({ followLinks: true, respectRobotsTxt: false });
    const all = await crawl(ignoring);
    // /private/secret and the /items/z link found on it.
    expect(all.pagesFetched).toBe(respecting.pagesFetched + 2);
    expect(ignoring.items.some((item) => item.url.endsWith('/private/secret'))).toBe(true);
  });

  it('rate limiter: never more than the rate in any second, nor a burst after the event loop stalls', async () => {
    // On a manual clock: each start is timed by the limiter's own clock, and a stall is time passing
    // with no timer run, so a loaded machine cannot make the figures.
    const clock = createManualClock();
    const limiter = createRateLimiter(50, clock);
    const signal = new AbortController().signal;
    const starts: number[] = [];
    // 8 workers, as a crawl has, each starting requests as fast as the limiter lets it.
    const worker = async () => {
      while (starts.length < 120) {
        await limiter.wait(signal);
        starts.push(clock.now());
      }
    };
    let done = false;
    const workers = Promise.all(Array.from({ length: 8 }, worker)).then(() => (done = true));
    const stalled = new Set<number>();
    while (!done) {
      // Now and then the event loop is blocked for 100 ms (a large page parsed, say) while the next
      // start sleeps on its timer: it wakes late, and the starts planned after it are due at once.
      if (starts.length > 0 && starts.length % 40 === 0 && !stalled.has(starts.length)) {
        stalled.add(starts.length);
        clock.jump(100);
      }
      await clock.advance(1);
    }
    await workers;
    expect(stalled.size).toBe(3);
    for (let i = 0; i + 50 < starts.length; i += 1) expect(starts[i + 50] - starts[i]).toBeGreaterThanOrEqual(1000);
    // Never let out together after a stall: at least half the 20 ms interval apart.
    for (let i = 1; i < starts.length; i += 1) expect(starts[i] - starts[i - 1]).toBeGreaterThanOrEqual(10);
    // And the rate is kept: 120 starts at 50 a second take 2.38 s plus the three 100 ms stalls (time
    // a full window lost cannot be made up without breaking the rate), and the 1 ms steps of the clock.
    expect(starts[119] - starts[0]).toBeLessThanOrEqual(2_380 + 300 + 20);
  });

  it('keeps as many page requests in flight as its concurrency, and no more', async () => {
    // Twenty pages, all linked from the first (answered at once, as robots.txt is). Each linked
    // page's answer is held until `target` requests are in flight, then all are let go; once every
    // page has been asked for, the last few are let go as they come. So a crawler that keeps its
    // concurrency reaches it however late a loaded machine runs its workers, with no timer in the
    // test; one that exceeds it is seen, and one that falls short never gets its answers (the
    // test's timeout). (A fixed 100 ms answer let a busy CI machine finish pages before the last
    // workers started: 5 at most of 8.)
    const LINKED = 19;
    let inFlight = 0;
    let most = 0;
    let target = 0;
    let asked = 0;
    let held: Array<() => void> = [];
    const slow = http.createServer((req, res) => {
      if (req.url === '/robots.txt') {
        res.writeHead(404).end();
        return;
      }
      if (req.url === '/') {
        const links = Array.from({ length: LINKED }, (_, i) => `<a href="/p${i}">p${i}</a>`).join('');
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><head><title>/</title></head><body>${links}</body></html>`);
        return;
      }
      inFlight += 1;
      asked += 1;
      most = Math.max(most, inFlight);
      held.push(() => {
        inFlight -= 1;
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><head><title>${req.url}</title></head><body></body></html>`);
      });
      if (inFlight >= target || asked >= LINKED) {
        const all = held;
        held = [];
        for (const release of all) release();
      }
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const startUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/`;
      for (const concurrency of [4, 8]) {
        most = 0;
        asked = 0;
        target = concurrency;
        held = [];
        const summary = await crawl(options({ startUrl, followLinks: true, rateLimit: 100, concurrency }));
        expect([concurrency, summary.pagesFetched, most]).toEqual([concurrency, 20, concurrency]);
      }
    } finally {
      await new Promise((resolve) => slow.close(resolve));
    }
  });

  it('stops at once while a request hangs', async () => {
    const controller = new AbortController();
    const asked = site.hits.filter((hit) => hit.path === '/hang').length;
    // The page's own timeout is a minute: only the abort can end the crawl inside this test's 20 s.
    const running = crawl(options({ startUrl: `${site.url}/hang`, signal: controller.signal, pageTimeoutMs: 60_000 }));
    await eventually(
      () => (site.hits.filter((hit) => hit.path === '/hang').length > asked ? true : undefined),
      5_000,
      'the hanging request'
    );
    controller.abort();
    const summary = await running;
    expect(summary.stopped).toBe(true);
  }, 20_000);

  it('ends with startError when the start page fails, and fetches nothing else', async () => {
    const before = site.pageHits().length;
    const summary = await crawl(options({ startUrl: `${site.url}/fail`, followLinks: true }));
    expect(summary.startError).toBe(`GET ${site.url}/fail answered 500`);
    expect(site.pageHits().length - before).toBe(1);
  });

  it('goes through the private-address guard: refused on loopback when private addresses are off', async () => {
    const guarded = createOutbound({ allowPrivate: false });
    try {
      const summary = await crawl(options({ respectRobotsTxt: false }, guarded));
      expect(summary.startError).toMatch(/endpoint_not_allowed|not allowed/i);
      expect(summary.pagesFetched).toBe(0);
    } finally {
      await guarded.close();
    }
  });

  it("sends its requests through the pool's proxies in turn", async () => {
    const first = await startProxy();
    const second = await startProxy();
    try {
      const summary = await crawl(options({ followLinks: true, maxPages: 4, respectRobotsTxt: false, proxies: [first.url, second.url] }));
      expect(summary.pagesFetched).toBe(4);
      // Each proxy tunnelled to the site (its connection is then reused for its later turns).
      const authority = new URL(site.url).host;
      expect(first.forwarded).toContain(authority);
      expect(second.forwarded).toContain(authority);

      // Through a proxy the target is still checked: a loopback target is refused before any tunnel.
      const guarded = createOutbound({ allowPrivate: false });
      const tunnels = first.forwarded.length;
      await expect(guarded.request(`${site.url}/`, { proxy: first.url })).rejects.toMatchObject({ code: 'endpoint_not_allowed' });
      expect(first.forwarded.length).toBe(tunnels);
      await guarded.close();
    } finally {
      await first.close();
      await second.close();
    }
  });
});

/** A minimal forward proxy speaking CONNECT (as undici's ProxyAgent does for every target); tunnels are recorded. */
async function startProxy(): Promise<{ url: string; forwarded: string[]; close(): Promise<void> }> {
  const forwarded: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((_req, res) => {
    res.writeHead(405);
    res.end();
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const authority = req.url ?? '';
    forwarded.push(authority);
    const [host, port] = authority.split(':');
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
