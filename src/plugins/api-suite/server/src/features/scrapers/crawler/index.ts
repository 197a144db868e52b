/**
 * The crawler behind scraper runs: cheerio over the plugin's own undici client rather than
 * Crawlee's CheerioCrawler. Crawlee fetches through got-scraping, which would go around the
 * outbound client's connect-time private-address guard that must apply to every request; a stop
 * must abort requests in flight within a second, which an AbortSignal on our client gives
 * directly; and the rest (an in-memory queue, a per-second rate limit, results handed over page
 * by page for batched writes) is small once those two are ours.
 */
import * as cheerio from 'cheerio';
import robotsParser from 'robots-parser';
import { systemClock, type Clock } from '../../../clock';

export interface CrawlSelectors {
  item?: string;
  /** name → "css" (the text, trimmed) or "css@attr" (the attribute; href and src made absolute) */
  fields: Record<string, string>;
}

export interface FetchedPage {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface CrawlOptions {
  startUrl: string;
  maxPages: number;
  followLinks: boolean;
  /** Requests started per second, at most, across the run (robots.txt included). */
  rateLimit: number;
  headers: Record<string, string>;
  /** Used in turn, one per request; empty: direct. */
  proxies: string[];
  respectRobotsTxt: boolean;
  selectors?: CrawlSelectors;
  /** Aborting it stops the run: requests in flight are aborted and crawl() resolves at once. */
  signal: AbortSignal;
  request: (
    url: string,
    init: { headers: Record<string, string>; signal: AbortSignal; timeoutMs: number; proxy?: string }
  ) => Promise<FetchedPage>;
  onItems: (items: Array<{ url: string; data: Record<string, unknown> }>) => Promise<void>;
  onPage?: (page: { url: string; status: number | null; ok: boolean; error?: string }) => void;
  concurrency?: number;
  pageTimeoutMs?: number;
  userAgent?: string;
}

export interface CrawlSummary {
  pagesFetched: number;
  pagesFailed: number;
  itemsCollected: number;
  stopped: boolean;
  /** Why the start URL gave nothing (not a 2xx, or no answer); the run fails with it. */
  startError: string | null;
}

export const DEFAULT_USER_AGENT = 'strapi-plugin-api-suite';
const MAX_FIELDS = 50;

export async function crawl(options: CrawlOptions): Promise<CrawlSummary> {
  const { signal } = options;
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const pageTimeoutMs = options.pageTimeoutMs ?? 15_000;
  const start = new URL(options.startUrl);
  const summary: CrawlSummary = { pagesFetched: 0, pagesFailed: 0, itemsCollected: 0, stopped: false, startError: null };
  const limiter = createRateLimiter(options.rateLimit);
  let proxyTurn = 0;
  const headersFor = (accept: string): Record<string, string> => {
    const headers: Record<string, string> = { accept, 'user-agent': userAgent };
    // The scraper's own headers win, whatever their case.
    for (const [name, value] of Object.entries(options.headers)) {
      for (const existing of Object.keys(headers)) if (existing.toLowerCase() === name.toLowerCase()) delete headers[existing];
      headers[name] = value;
    }
    return headers;
  };
  const fetchPage = async (url: string, accept: string): Promise<FetchedPage> => {
    await limiter.wait(signal);
    const proxy = options.proxies.length > 0 ? options.proxies[proxyTurn++ % options.proxies.length] : undefined;
    return options.request(url, { headers: headersFor(accept), signal, timeoutMs: pageTimeoutMs, proxy });
  };

  try {
    const robots = options.respectRobotsTxt ? await loadRobots(start, fetchPage) : null;
    const allowed = (url: string) => !robots || robots.isAllowed(url, userAgent) !== false;

    const seen = new Set<string>([normalize(start)]);
    const queue: string[] = [];
    if (allowed(start.href)) queue.push(normalize(start));
    let scheduled = 0;

    const visit = async (url: string, isStart: boolean): Promise<void> => {
      let page: FetchedPage;
      try {
        page = await fetchPage(url, 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8');
      } catch (error) {
        if (signal.aborted) return;
        const message = describe(error);
        if (isStart) summary.startError = `GET ${url} failed: ${message}`;
        else summary.pagesFailed += 1;
        options.onPage?.({ url, status: null, ok: false, error: message });
        return;
      }
      if (signal.aborted) return;
      summary.pagesFetched += 1;
      const ok = page.status >= 200 && page.status < 300;
      if (!ok) {
        if (isStart) summary.startError = `GET ${url} answered ${page.status}`;
        else summary.pagesFailed += 1;
        options.onPage?.({ url, status: page.status, ok: false, error: `HTTP ${page.status}` });
        return;
      }
      options.onPage?.({ url, status: page.status, ok: true });
      if (!isHtml(page.headers['content-type'])) return;
      const $ = cheerio.load(page.body);
      const items = extract($, url, options.selectors);
      summary.itemsCollected += items.length;
      if (items.length > 0) await options.onItems(items.map((data) => ({ url, data })));
      if (!options.followLinks) return;
      for (const link of links($, url, start.hostname)) {
        if (seen.has(link)) continue;
        seen.add(link);
        if (allowed(link)) queue.push(link);
      }
    };

    // The start page alone first: if it fails, nothing else is fetched.
    const first = queue.shift();
    if (first !== undefined && scheduled < options.maxPages) {
      scheduled += 1;
      await visit(first, true);
    }
    if (summary.startError === null && !signal.aborted) {
      const inFlight = new Set<Promise<void>>();
      const aborted = abortPromise(signal);
      while (!signal.aborted && (queue.length > 0 || inFlight.size > 0)) {
        while (queue.length > 0 && inFlight.size < concurrency && scheduled < options.maxPages) {
          const next = queue.shift() as string;
          scheduled += 1;
          const task: Promise<void> = visit(next, false).finally(() => inFlight.delete(task));
          inFlight.add(task);
        }
        if (inFlight.size === 0) break;
        await Promise.race([...inFlight, aborted]);
      }
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  }
  summary.stopped = signal.aborted;
  return summary;
}

/** "a.title@href" → { css: 'a.title', attr: 'href' }; an '@' inside brackets belongs to the CSS. */
export function parseSelector(spec: string): { css: string; attr?: string } {
  const match = /^(.*[^\s])\s*@\s*([A-Za-z_:][-A-Za-z0-9_:.]*)$/.exec(spec.trim());
  if (match && !/\[[^\]]*$/.test(match[1])) return { css: match[1].trim(), attr: match[2] };
  return { css: spec.trim() };
}

/** Problems with a `selectors` value, as messages; empty when it is valid. */
export function validateSelectors(selectors: unknown): string[] {
  if (selectors === undefined || selectors === null) return [];
  if (typeof selectors !== 'object' || Array.isArray(selectors)) return ['must be an object { item?, fields }'];
  const { item, fields, ...rest } = selectors as Record<string, unknown>;
  const problems: string[] = [];
  if (Object.keys(rest).length > 0) problems.push(`unknown keys: ${Object.keys(rest).join(', ')}`);
  if (item !== undefined) {
    if (typeof item !== 'string' || item.trim() === '') problems.push('item must be a non-empty CSS selector');
    else if (!parses(item)) problems.push(`item "${item}" is not a valid CSS selector`);
  }
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
    problems.push('fields must be an object of names to "css" or "css@attr"');
    return problems;
  }
  const entries = Object.entries(fields as Record<string, unknown>);
  if (entries.length === 0) problems.push('fields must name at least one field');
  if (entries.length > MAX_FIELDS) problems.push(`fields must name at most ${MAX_FIELDS} fields`);
  for (const [name, spec] of entries) {
    if (name.trim() === '' || name.length > 100) problems.push('field names must be 1 to 100 characters');
    if (typeof spec !== 'string' || spec.trim() === '') {
      problems.push(`fields.${name} must be a non-empty "css" or "css@attr"`);
      continue;
    }
    const { css } = parseSelector(spec);
    if (!parses(css)) problems.push(`fields.${name}: "${css}" is not a valid CSS selector`);
  }
  return problems;
}

function parses(css: string): boolean {
  try {
    cheerio.load('<html></html>')(css);
    return true;
  } catch {
    return false;
  }
}

type Document = ReturnType<typeof cheerio.load>;
type Selection = ReturnType<Document>;

function extract($: Document, pageUrl: string, selectors: CrawlSelectors | undefined): Array<Record<string, unknown>> {
  if (!selectors) return [{ url: pageUrl, title: $('title').first().text().trim() }];
  const fieldsOf = (scope: Selection | null): Record<string, unknown> => {
    const data: Record<string, unknown> = {};
    for (const [name, spec] of Object.entries(selectors.fields)) {
      const { css, attr } = parseSelector(spec);
      const found = scope ? scope.find(css).first() : $(css).first();
      if (found.length === 0) {
        data[name] = null;
      } else if (attr) {
        const value = found.attr(attr);
        data[name] = value === undefined ? null : attr === 'href' || attr === 'src' ? absolute(value, pageUrl) : value;
      } else {
        data[name] = found.text().trim();
      }
    }
    return data;
  };
  if (!selectors.item) return [fieldsOf(null)];
  return $(selectors.item)
    .toArray()
    .map((element) => fieldsOf($(element)));
}

function links($: Document, pageUrl: string, hostname: string): string[] {
  const found: string[] = [];
  $('a[href]').each((_index, element) => {
    const href = $(element).attr('href');
    if (!href) return;
    try {
      const url = new URL(href, pageUrl);
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname === hostname) found.push(normalize(url));
    } catch {
      // not a URL: nothing to follow
    }
  });
  return found;
}

async function loadRobots(start: URL, fetchPage: (url: string, accept: string) => Promise<FetchedPage>) {
  const robotsUrl = new URL('/robots.txt', start).href;
  try {
    const page = await fetchPage(robotsUrl, 'text/plain,*/*;q=0.8');
    // A missing or failing robots.txt allows everything.
    return robotsParser(robotsUrl, page.status >= 200 && page.status < 300 ? page.body : '');
  } catch (error) {
    if (isAbort(error)) throw error;
    return null;
  }
}

/**
 * Never more than `rate` starts in any one second, about 1000/rate ms apart. Waiters take their
 * turns one after another on a fixed schedule (late timers do not slow the rate down), but a
 * start also waits until (a) the last `rate` real starts leave room in the past 1000 ms and (b)
 * half an interval has passed since the previous real start: after a stalled event loop the
 * queued starts catch up at twice the pace at most, never all at once, and never beyond the rate.
 * The clock is monotonic: the wall clock can be stepped (NTP, a VM resuming), which would let two
 * starts out together.
 */
export function createRateLimiter(rate: number, clock: Clock = systemClock) {
  const perSecond = Math.max(1, Math.floor(rate));
  const interval = 1000 / perSecond;
  const recent: number[] = [];
  let planned = Number.NEGATIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  let turns: Promise<void> = Promise.resolve();
  return {
    wait(signal: AbortSignal): Promise<void> {
      const turn = turns.then(async () => {
        const slot = Math.max(clock.now(), planned);
        planned = slot + interval;
        for (;;) {
          if (signal.aborted) throw signal.reason ?? new Error('aborted');
          const now = clock.now();
          const windowOpensAt = recent.length < perSecond ? now : recent[0] + 1000;
          const at = Math.max(slot, last + interval / 2, windowOpensAt);
          if (at <= now) break;
          await sleep(clock, at - now, signal);
        }
        last = clock.now();
        recent.push(last);
        if (recent.length > perSecond) recent.shift();
      });
      // One waiter's abort does not hold up the others.
      turns = turn.catch(() => undefined);
      return turn;
    },
  };
}

function sleep(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = clock.setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clock.clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

function abortPromise(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

function normalize(url: URL | string): string {
  const parsed = new URL(String(url));
  parsed.hash = '';
  return parsed.href;
}

function absolute(value: string, base: string): string {
  try {
    return new URL(value, base).href;
  } catch {
    return value;
  }
}

function isHtml(contentType: string | string[] | undefined): boolean {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  return value === undefined || /html/i.test(value);
}

function isAbort(error: unknown): boolean {
  return (error as { name?: string } | undefined)?.name === 'AbortError';
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}
