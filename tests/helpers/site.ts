import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SiteHit {
  path: string;
  at: number;
  /** Set when the client went away before the answer (an aborted request). */
  abortedAt?: number;
}

export interface TestSite {
  url: string;
  hits: SiteHit[];
  /** Hits on pages (robots.txt left out). */
  pageHits(): SiteHit[];
  close(): Promise<void>;
}

/** How long each /crawl/… page takes to answer. */
export const LONG_PAGE_MS = 1_500;

const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;
const product = (name: string, href: string) =>
  `<div class="product"><h2 class="name">${name}</h2><a class="link" href="${href}">details</a></div>`;

/**
 * A small site on 127.0.0.1 for scraper tests: linked pages with products to extract, a page
 * robots.txt forbids, a slow page, a page that never answers, a failing page, and an external link.
 *
 *   /            Home: products A, B, C; links to /page2, /private/secret, /slow, http://elsewhere.invalid/
 *   /page2       products D, E; link to /page3 and back to /
 *   /page3       product F
 *   /private/... product Z (disallowed by robots.txt)
 *   /slow        product S after 300 ms
 *   /hang        never answers
 *   /fail        500
 *   /formulas    products whose names a spreadsheet would run as formulas (not linked from anywhere)
 *   /crawl/<any> product L after 1.5 s (`crawlMs`), one path per scraper so hits tell runs apart (not linked from anywhere)
 */
export async function startSite({ crawlMs = LONG_PAGE_MS }: { crawlMs?: number } = {}): Promise<TestSite> {
  const hits: SiteHit[] = [];
  const pages: Record<string, string> = {
    '/': page(
      'Home',
      [product('A', '/items/a'), product('B', '/items/b'), product('C', 'https://shop.example/c')].join('') +
        '<a href="/page2">next</a> <a href="/private/secret">secret</a> <a href="/slow#top">slow</a> <a href="http://elsewhere.invalid/">away</a>'
    ),
    '/page2': page(
      'Page 2',
      [product('D', '/items/d'), product('E', '/items/e')].join('') + '<a href="/page3">next</a> <a href="/">home</a>'
    ),
    '/page3': page('Page 3', product('F', '/items/f')),
    '/private/secret': page('Secret', product('Z', '/items/z')),
    '/slow': page('Slow', product('S', '/items/s')),
    '/formulas': page(
      'Formulas',
      ['=HYPERLINK("http://evil.example/","click")', "+cmd|' /C calc'!A0", '@SUM(1,1)', '-2+3', 'Plain']
        .map((name) => product(name.replace(/"/g, '&quot;'), '/items/f'))
        .join('')
    ),
  };
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const hit: SiteHit = { path, at: Date.now() };
    hits.push(hit);
    res.on('close', () => {
      if (!res.writableFinished) hit.abortedAt = Date.now();
    });
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('User-agent: *\nDisallow: /private\n');
      return;
    }
    if (path === '/hang') return;
    if (path === '/fail') {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('down');
      return;
    }
    const html = path.startsWith('/crawl/') ? page('Long', product('L', '/items/l')) : pages[path];
    if (!html) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    const send = () => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
    };
    if (path === '/slow') setTimeout(send, 300);
    else if (path.startsWith('/crawl/')) setTimeout(send, crawlMs);
    else send();
  });
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    pageHits: () => hits.filter((hit) => hit.path !== '/robots.txt'),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
