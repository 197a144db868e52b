import http from 'node:http';
import os from 'node:os';
import tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import type { LookupAddress } from 'node:dns';
import {
  createOutbound,
  EndpointNotAllowedError,
  InvalidUrlError,
  isForbiddenAddress,
  OutboundTimeoutError,
  type LookupAll,
  type Outbound,
  type OutboundOptions,
} from '../../src/plugins/api-suite/server/src/outbound';

/*
 * Everything here talks to 127.0.0.1 only. Public addresses appear solely as inputs to the pure
 * isForbiddenAddress or as answers of an injected lookup that is then refused or rebound.
 */

describe('isForbiddenAddress', () => {
  it.each([
    ['0.0.0.0/8', '0.0.0.0'],
    ['0.0.0.0/8', '0.255.255.255'],
    ['127.0.0.0/8', '127.0.0.1'],
    ['127.0.0.0/8', '127.255.255.254'],
    ['10.0.0.0/8', '10.0.0.1'],
    ['10.0.0.0/8', '10.255.255.255'],
    ['172.16.0.0/12', '172.16.0.1'],
    ['172.16.0.0/12', '172.31.255.255'],
    ['192.168.0.0/16', '192.168.1.1'],
    ['169.254.0.0/16', '169.254.169.254'],
    ['100.64.0.0/10', '100.64.0.1'],
    ['100.64.0.0/10', '100.127.255.255'],
    ['224.0.0.0/4', '224.0.0.1'],
    ['224.0.0.0/4', '239.255.255.255'],
    ['255.255.255.255/32', '255.255.255.255'],
    ['::/128', '::'],
    ['::1/128', '::1'],
    ['::1/128 bracketed', '[::1]'],
    ['::1/128 long form', '0:0:0:0:0:0:0:1'],
    ['fc00::/7', 'fc00::1'],
    ['fc00::/7', 'fd12:3456:789a::1'],
    ['fe80::/10', 'fe80::1'],
    ['fe80::/10', 'febf:ffff::1'],
    ['fe80::/10 with zone', 'fe80::1%eth0'],
    ['ff00::/8', 'ff02::1'],
    ['IPv4-mapped dotted', '::ffff:127.0.0.1'],
    ['IPv4-mapped hex', '::ffff:7f00:1'],
    ['IPv4-mapped hex, upper case', '::FFFF:7F00:0001'],
    ['IPv4-mapped long form', '0:0:0:0:0:ffff:7f00:1'],
    ['IPv4-mapped private', '::ffff:10.0.0.1'],
    ['IPv4-mapped metadata', '::ffff:a9fe:a9fe'],
    ['NAT64 dotted', '64:ff9b::127.0.0.1'],
    ['NAT64 hex', '64:ff9b::7f00:1'],
    ['NAT64 metadata', '64:ff9b::a9fe:a9fe'],
    ['NAT64 private', '64:ff9b::192.168.0.1'],
    ['IPv4-compatible loopback', '::127.0.0.1'],
    ['IPv4-compatible, as URLs write it', '[::127.0.0.1]'],
    ['IPv4-compatible public', '::8.8.8.8'],
    ['6to4 loopback', '2002:7f00:1::'],
    ['6to4 public', '2002:808:808::1'],
    ['192.0.0.0/24 (IETF)', '192.0.0.170'],
    ['198.18.0.0/15 (benchmarking)', '198.18.0.1'],
    ['198.18.0.0/15 (benchmarking), upper half', '198.19.255.254'],
    ['240.0.0.0/4 (reserved)', '240.0.0.1'],
    ['240.0.0.0/4 (reserved)', '254.1.2.3'],
    ['192.0.2.0/24 (documentation)', '192.0.2.2'],
    ['198.51.100.0/24 (documentation)', '198.51.100.7'],
    ['203.0.113.0/24 (documentation)', '203.0.113.255'],
    ['IPv4-mapped documentation', '::ffff:203.0.113.9'],
    ['2001:db8::/32 (documentation)', '2001:db8::1'],
    ['64:ff9b:1::/48 (local-use NAT64)', '64:ff9b:1::a00:1'],
    ['64:ff9b:1::/48 (local-use NAT64), upper end', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff'],
    ['2001::/32 (Teredo)', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['2001::/32 (Teredo)', '2001::1'],
    ['::ffff:0:0:0/96 (IPv4-translated loopback)', '::ffff:0:7f00:1'],
    ['::ffff:0:0:0/96 (IPv4-translated documentation)', '::ffff:0:c000:202'],
    ['::ffff:0:0:0/96 (IPv4-translated), as URLs write it', '[::ffff:0:7f00:1]'],
    ['3fff::/20 (documentation)', '3fff::1'],
    ['3fff::/20 (documentation), upper end', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['100::/64 (discard-only)', '100::1'],
    ['2001:10::/28 (ORCHID)', '2001:10::1'],
    ['2001:20::/28 (ORCHIDv2)', '2001:2f::1'],
    ['5f00::/16 (segment routing)', '5f00::1'],
    ['not an IP', 'example.com'],
    ['empty', ''],
  ])('refuses %s: %s', (_range, ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '2606:4700::1111',
    '2001:4860:4860::8888',
    '11.0.0.1',
    '172.15.255.255',
    '172.32.0.1',
    '192.169.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '169.255.0.1',
    '223.255.255.255',
    '192.0.1.1',
    '198.17.255.255',
    '198.20.0.1',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '64:ff9b::1.1.1.1',
    '64:ff9b:2::1',
    '2001:1::1',
    '2001:db9::1',
    '3fff:1000::1',
    '100:0:0:1::1',
    '2001:30::1',
    '5f01::1',
    '192.0.3.1',
    '198.51.99.255',
    '203.0.114.1',
    'fbff::1',
    '[2606:4700::1111]',
  ])('allows the public address %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });
});

describe("isForbiddenAddress and the host's own interfaces", () => {
  afterEach(() => jest.restoreAllMocks());

  function interfaces(...addresses: string[]): NodeJS.Dict<os.NetworkInterfaceInfo[]> {
    return {
      eth0: addresses.map((address) => {
        const family = address.includes(':') ? ('IPv6' as const) : ('IPv4' as const);
        const info = { address, netmask: '', family, mac: '02:00:00:00:00:01', internal: false, cidr: null };
        return family === 'IPv6' ? { ...info, family, scopeid: 0 } : { ...info, family };
      }),
    };
  }

  it("refuses this host's own addresses, whatever their range, in any of their forms", () => {
    jest.spyOn(os, 'networkInterfaces').mockReturnValue(interfaces('8.8.4.4', '2606:4700::2'));
    for (const ip of ['8.8.4.4', '::ffff:8.8.4.4', '::ffff:808:404', '64:ff9b::8.8.4.4', '2606:4700::2', '[2606:4700:0:0::2]']) {
      expect(isForbiddenAddress(ip)).toBe(true);
    }
    expect(isForbiddenAddress('8.8.8.8')).toBe(false);
    expect(isForbiddenAddress('2606:4700::3')).toBe(false);
  });

  it('reads the interfaces at each check: an address given up is public again', () => {
    const read = jest.spyOn(os, 'networkInterfaces').mockReturnValue(interfaces('8.8.4.4'));
    expect(isForbiddenAddress('8.8.4.4')).toBe(true);
    read.mockReturnValue(interfaces());
    expect(isForbiddenAddress('8.8.4.4')).toBe(false);
  });

  it("refuses this machine's real non-loopback addresses", () => {
    const own = Object.values(os.networkInterfaces())
      .flatMap((entries) => entries ?? [])
      .filter((entry) => !entry.internal)
      .map((entry) => entry.address);
    for (const address of own) expect(isForbiddenAddress(address)).toBe(true);
  });
});

describe('EndpointNotAllowedError', () => {
  it('names the target, the address and the way out', () => {
    const err = new EndpointNotAllowedError({ target: 'https://x.test', host: 'x.test', address: '10.0.0.1' });
    expect(err).toBeInstanceOf(Error);
    expect(err.code).toBe('endpoint_not_allowed');
    expect(err.host).toBe('x.test');
    expect(err.address).toBe('10.0.0.1');
    expect(err.message).toMatch(/^https:\/\/x\.test resolves to 10\.0\.0\.1, .*private.*OUTBOUND_ALLOW_PRIVATE=true/);
  });
});

interface TestServer {
  port: number;
  connections: number;
  requests: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }>;
  /** Told of each request once its body has arrived (a test can act at that moment rather than after a sleep). */
  onRequest?: (url: string) => void;
  close(): Promise<void>;
}

const LARGE_BODY_BYTES = 320 * 1024; // a whole number of 16 KiB chunks

async function startServer(): Promise<TestServer> {
  const state: TestServer = { port: 0, connections: 0, requests: [], close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      state.onRequest?.(req.url ?? '');
      switch (req.url) {
        case '/hang':
          return; // never answers
        case '/large': {
          res.writeHead(200, { 'content-type': 'text/plain' });
          const chunk = Buffer.alloc(16 * 1024, 'a');
          for (let sent = 0; sent < LARGE_BODY_BYTES; sent += chunk.length) res.write(chunk);
          res.end();
          return;
        }
        case '/utf8':
          res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
          res.end('aé€'); // 1 + 2 + 3 bytes
          return;
        case '/echo':
          res.writeHead(201, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ method: req.method, body, ua: req.headers['user-agent'], auth: req.headers.authorization ?? null }));
          return;
        default:
          res.writeHead(200, { 'content-type': 'text/plain', 'x-test': 'yes', 'set-cookie': ['a=1', 'b=2'] });
          res.end('hello world');
      }
    });
  });
  server.on('connection', () => {
    state.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

/** A lookup that answers from a script, one answer per call (the last one repeats), and counts calls. */
function scriptedLookup(...answers: string[][]): LookupAll & { calls: string[] } {
  const calls: string[] = [];
  const lookup = (
    hostname: string,
    _options: unknown,
    callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void
  ): void => {
    const answer = answers[Math.min(calls.length, answers.length - 1)] ?? [];
    calls.push(hostname);
    const addresses = answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    setImmediate(() => callback(null, addresses));
  };
  return Object.assign(lookup, { calls });
}

describe('createOutbound', () => {
  let server: TestServer;
  const clients: Outbound[] = [];

  function outbound(options: OutboundOptions): Outbound {
    const client = createOutbound(options);
    clients.push(client);
    return client;
  }

  beforeEach(async () => {
    server = await startServer();
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await server.close();
  });

  describe('with allowPrivate=true', () => {
    it('fetches a local server with status, headers, body and a default user-agent', async () => {
      const client = outbound({ allowPrivate: true });
      expect(client.allowPrivate).toBe(true);
      const res = await client.request(`http://127.0.0.1:${server.port}/hello`);
      expect(res.status).toBe(200);
      expect(res.body).toBe('hello world');
      expect(res.truncated).toBe(false);
      expect(res.headers['x-test']).toBe('yes');
      expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
      expect(res.durationMs).toBeGreaterThanOrEqual(0);
      expect(server.requests[0]?.headers['user-agent']).toMatch(/api-suite/);
    });

    it('sends method, body and headers, keeps a caller user-agent and turns URL credentials into basic auth', async () => {
      const client = outbound({ allowPrivate: true, userAgent: 'default-agent/1' });
      const res = await client.request(`http://user:p%40ss@127.0.0.1:${server.port}/echo`, {
        method: 'post',
        headers: { 'content-type': 'application/json', 'User-Agent': 'caller/2' },
        body: '{"a":1}',
      });
      expect(res.status).toBe(201);
      expect(JSON.parse(res.body)).toEqual({
        method: 'POST',
        body: '{"a":1}',
        ua: 'caller/2',
        auth: `Basic ${Buffer.from('user:p@ss').toString('base64')}`,
      });
    });

    it('truncates a large body, drains the rest and keeps the connection usable', async () => {
      const client = outbound({ allowPrivate: true });
      const res = await client.request(`http://127.0.0.1:${server.port}/large`, { maxResponseBytes: 1000 });
      expect(res.truncated).toBe(true);
      expect(res.body).toBe('a'.repeat(1000));

      const whole = await client.request(`http://127.0.0.1:${server.port}/large`, { maxResponseBytes: LARGE_BODY_BYTES });
      expect(whole.truncated).toBe(false);
      expect(whole.body.length).toBe(LARGE_BODY_BYTES);
      expect(server.connections).toBe(1);
    });

    it('defaults to keeping 64 KiB', async () => {
      const client = outbound({ allowPrivate: true });
      const res = await client.request(`http://127.0.0.1:${server.port}/large`);
      expect(res.truncated).toBe(true);
      expect(Buffer.byteLength(res.body)).toBe(64 * 1024);
    });

    it('never splits a multi-byte character at the truncation point', async () => {
      const client = outbound({ allowPrivate: true });
      const cut = await client.request(`http://127.0.0.1:${server.port}/utf8`, { maxResponseBytes: 5 });
      expect(cut).toMatchObject({ body: 'aé', truncated: true });
      const whole = await client.request(`http://127.0.0.1:${server.port}/utf8`, { maxResponseBytes: 6 });
      expect(whole).toMatchObject({ body: 'aé€', truncated: false });
    });

    it('reuses one keep-alive socket for sequential requests to the same origin', async () => {
      const client = outbound({ allowPrivate: true });
      await client.request(`http://127.0.0.1:${server.port}/hello`);
      await client.request(`http://127.0.0.1:${server.port}/hello`);
      expect(server.requests).toHaveLength(2);
      expect(server.connections).toBe(1);
    });

    it('connects to the address its lookup returned while keeping the host name in the Host header', async () => {
      const lookup = scriptedLookup(['127.0.0.1']);
      const client = outbound({ allowPrivate: true, lookup });
      const res = await client.request(`http://rebind.test:${server.port}/hello`);
      expect(res.status).toBe(200);
      expect(lookup.calls).toEqual(['rebind.test']);
      expect(server.requests[0]?.headers.host).toBe(`rebind.test:${server.port}`);
    });

    it('falls back to the next resolved address when the first refuses the connection', async () => {
      // 127.0.0.2 is loopback too, but nothing listens on it at this port.
      const lookup = scriptedLookup(['127.0.0.2', '127.0.0.1']);
      const client = outbound({ allowPrivate: true, lookup });
      const res = await client.request(`http://two.test:${server.port}/hello`);
      expect(res.status).toBe(200);
    });

    it('sends the host name as TLS SNI even though the socket goes to an IP', async () => {
      const seen: string[] = [];
      const tlsServer = tls.createServer({
        SNICallback: (servername, cb) => {
          seen.push(servername);
          cb(new Error('this test server has no certificate'));
        },
      });
      await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
      const { port } = tlsServer.address() as AddressInfo;
      try {
        const client = outbound({ allowPrivate: true, lookup: scriptedLookup(['127.0.0.1']) });
        // The handshake fails (the server has no certificate); only the name it was offered matters.
        await expect(client.request(`https://sni.test:${port}/`, { timeoutMs: 2000 })).rejects.toThrow();
        expect(seen).toEqual(['sni.test']);
      } finally {
        await new Promise<void>((resolve) => tlsServer.close(() => resolve()));
      }
    });

    it('does not follow redirects', async () => {
      const redirecting = http.createServer((_req, res) => {
        res.writeHead(302, { location: `http://127.0.0.1:${server.port}/hello` });
        res.end();
      });
      await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
      try {
        const client = outbound({ allowPrivate: true });
        const res = await client.request(`http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/`);
        expect(res.status).toBe(302);
        expect(server.requests).toHaveLength(0);
      } finally {
        redirecting.closeAllConnections();
        await new Promise<void>((resolve) => redirecting.close(() => resolve()));
      }
    });
  });

  describe('with allowPrivate=false', () => {
    const refusedCases: Array<[string, (port: number) => string, LookupAll | undefined]> = [
      ['an IPv4 loopback literal', (port) => `http://127.0.0.1:${port}/hello`, undefined],
      ['an IPv6 loopback literal', (port) => `http://[::1]:${port}/hello`, undefined],
      ['an IPv4-mapped loopback literal', (port) => `http://[::ffff:127.0.0.1]:${port}/hello`, undefined],
      ['localhost', (port) => `http://localhost:${port}/hello`, undefined],
      ['a name resolving to 127.0.0.1', (port) => `http://rebind.test:${port}/hello`, scriptedLookup(['127.0.0.1'])],
      [
        'a name with one public and one private address',
        (port) => `http://mixed.test:${port}/hello`,
        scriptedLookup(['93.184.216.34', '127.0.0.1']),
      ],
    ];

    it.each(refusedCases)('refuses %s in request() and assertAllowed()', async (_name, makeUrl, lookup) => {
      const client = outbound({ allowPrivate: false, lookup });
      const url = makeUrl(server.port);

      const refusal = await client.request(url).then(
        () => null,
        (err: unknown) => err
      );
      expect(refusal).toBeInstanceOf(EndpointNotAllowedError);
      expect(refusal).toMatchObject({ code: 'endpoint_not_allowed' });
      expect((refusal as EndpointNotAllowedError).message).toMatch(/OUTBOUND_ALLOW_PRIVATE=true/);

      await expect(client.assertAllowed(url)).rejects.toBeInstanceOf(EndpointNotAllowedError);
      expect(server.connections).toBe(0);
      expect(server.requests).toHaveLength(0);
    });

    it("refuses a name resolving to one of this host's own addresses, public as it may be", async () => {
      const spy = jest.spyOn(os, 'networkInterfaces').mockReturnValue({
        eth0: [
          { address: '93.184.216.35', netmask: '255.255.255.0', family: 'IPv4', mac: '02:00:00:00:00:01', internal: false, cidr: null },
        ],
      });
      try {
        const client = outbound({ allowPrivate: false, lookup: scriptedLookup(['93.184.216.35']) });
        const url = `http://self.test:${server.port}/hello`;
        await expect(client.assertAllowed(url)).rejects.toMatchObject({ code: 'endpoint_not_allowed', address: '93.184.216.35' });
        await expect(client.request(url)).rejects.toBeInstanceOf(EndpointNotAllowedError);
        expect(server.connections).toBe(0);
      } finally {
        spy.mockRestore();
      }
    });

    it('re-checks at connect time, so a name that rebinds to loopback after assertAllowed is still refused', async () => {
      // First answer (assertAllowed) is public; the second (the connector) is loopback.
      const lookup = scriptedLookup(['93.184.216.34'], ['127.0.0.1']);
      const client = outbound({ allowPrivate: false, lookup });
      const url = `http://rebind.test:${server.port}/hello`;

      await expect(client.assertAllowed(url)).resolves.toBeUndefined();
      const refusal = await client.request(url).then(
        () => null,
        (err: unknown) => err
      );
      expect(refusal).toBeInstanceOf(EndpointNotAllowedError);
      expect(refusal).toMatchObject({ host: 'rebind.test', address: '127.0.0.1' });
      expect(lookup.calls).toEqual(['rebind.test', 'rebind.test']);
      expect(server.connections).toBe(0);
      expect(server.requests).toHaveLength(0);
    });

    it('lets assertAllowed pass a name that resolves only to public addresses', async () => {
      const client = outbound({ allowPrivate: false, lookup: scriptedLookup(['93.184.216.34', '2606:4700::1111']) });
      await expect(client.assertAllowed('https://public.test/hook')).resolves.toBeUndefined();
    });
  });

  it.each(['ftp://example.test/file', 'file:///etc/passwd', 'not a url'])('rejects %s as invalid_url', async (url) => {
    const client = outbound({ allowPrivate: true });
    await expect(client.request(url)).rejects.toBeInstanceOf(InvalidUrlError);
    await expect(client.assertAllowed(url)).rejects.toMatchObject({ code: 'invalid_url' });
  });

  describe('timeouts', () => {
    it('gives up on a server that never answers with OutboundTimeoutError', async () => {
      const client = outbound({ allowPrivate: true });
      const started = Date.now();
      const err = await client.request(`http://127.0.0.1:${server.port}/hang`, { timeoutMs: 300 }).then(
        () => null,
        (e: unknown) => e
      );
      const elapsed = Date.now() - started;
      expect(err).toBeInstanceOf(OutboundTimeoutError);
      expect(err).toMatchObject({ code: 'timeout', timeoutMs: 300 });
      // Real sockets, so the real clock: not before its time, and well short of the next figure a
      // broken timeout would fall through to (a loaded machine can run a timer late, never early).
      expect(elapsed).toBeGreaterThanOrEqual(290);
      expect(elapsed).toBeLessThan(1_000);
    });

    it('times out while the connection is still being set up', async () => {
      const neverAnswers: LookupAll = () => undefined;
      const client = outbound({ allowPrivate: true, lookup: neverAnswers, connectTimeoutMs: 1000 });
      const started = Date.now();
      await expect(client.request(`http://stuck.test:${server.port}/`, { timeoutMs: 300 })).rejects.toMatchObject({
        code: 'timeout',
        timeoutMs: 300,
      });
      // The request's 300 ms, not the connect timeout's second.
      expect(Date.now() - started).toBeLessThan(1_000);
    });

    it('passes a caller abort through as the caller’s reason, not as a timeout', async () => {
      const client = outbound({ allowPrivate: true });
      const controller = new AbortController();
      const reason = new Error('caller gave up');
      // The caller gives up once the server holds the request: the abort meets a request in flight.
      server.onRequest = (url) => {
        if (url === '/hang') controller.abort(reason);
      };
      try {
        await expect(client.request(`http://127.0.0.1:${server.port}/hang`, { timeoutMs: 5000, signal: controller.signal })).rejects.toBe(
          reason
        );
      } finally {
        server.onRequest = undefined;
      }
    });
  });
});
