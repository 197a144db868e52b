import net from 'node:net';
import os from 'node:os';

/**
 * Checks deciding whether an outbound connection may go to an address. They exist so that
 * webhook targets and scraper URLs supplied by API consumers cannot be used to reach the
 * server's own network (SSRF): loopback, RFC 1918, link-local (including the cloud metadata
 * endpoint 169.254.169.254), CGNAT, multicast, documentation and transition ranges and the like,
 * and the addresses of this host's own network interfaces whatever range they are in. Pure but
 * for that last one, which reads the interfaces at each check.
 */

/**
 * True when `ip` must not be connected to unless private addresses are explicitly allowed.
 * Anything that is not an IP literal counts as forbidden: a caller that passes a host name here
 * has skipped resolution, and failing closed is the only safe answer.
 */
export function isForbiddenAddress(ip: string): boolean {
  const target = effectiveAddress(ip);
  if (target === undefined) return true;
  return FORBIDDEN.check(target.address, target.family) || ownAddresses().check(target.address, target.family);
}

interface Address {
  address: string;
  family: 'ipv4' | 'ipv6';
}

/**
 * Where a packet to `ip` really goes: the address itself, or the IPv4 address an IPv6 one
 * carries (IPv4-mapped or NAT64), which reaches that IPv4 host through the dual stack or a NAT64
 * gateway. Undefined for anything that is not an IP literal, and for an IPv4-translated one
 * (refused whatever it carries).
 */
function effectiveAddress(ip: string): Address | undefined {
  const address = unbracketHost(ip).split('%')[0] ?? '';
  const version = net.isIP(address);
  if (version === 4) return { address, family: 'ipv4' };
  if (version !== 6) return undefined;
  const bytes = parseIPv6(address);
  if (!bytes || isIPv4Translated(bytes)) return undefined;
  const embedded = embeddedIPv4(bytes);
  return embedded !== null ? { address: embedded, family: 'ipv4' } : { address: formatIPv6(bytes), family: 'ipv6' };
}

/**
 * This host's own addresses, read afresh at each check (interfaces come and go; reading them
 * costs tens of microseconds, against a DNS lookup and a handshake per new connection). A
 * server's public address is no less the server than 127.0.0.1: a webhook aimed at it would
 * read the host's own services back through the delivery's response body.
 */
function ownAddresses(): net.BlockList {
  const list = new net.BlockList();
  for (const entries of Object.values(os.networkInterfaces())) {
    for (const entry of entries ?? []) {
      const own = effectiveAddress(entry.address);
      if (own) list.addAddress(own.address, own.family);
    }
  }
  return list;
}

/** Raised when a URL's host is, or resolves to, an address that `isForbiddenAddress` refuses. */
export class EndpointNotAllowedError extends Error {
  readonly code = 'endpoint_not_allowed' as const;
  /** The host as written in the URL, without brackets or port. */
  readonly host: string;
  /** The refused address (the host itself for an IP literal). */
  readonly address: string;

  /** `target` is what the message names, normally the URL's origin such as `https://x.test:8443`. */
  constructor(details: { target: string; host: string; address: string }) {
    const { target, host, address } = details;
    const literal = unbracketHost(host) === address;
    super(
      `${target} ${literal ? 'is' : `resolves to ${address}, which is`} a private or reserved address or one of this server's own; ` +
        'set OUTBOUND_ALLOW_PRIVATE=true to allow it'
    );
    this.name = 'EndpointNotAllowedError';
    this.host = host;
    this.address = address;
  }
}

/** `[::1]` -> `::1`; URL.hostname keeps the brackets of IPv6 literals while lookups and sockets want them off. */
export function unbracketHost(host: string): string {
  return host.length > 1 && host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

const FORBIDDEN: net.BlockList = buildBlockList();

function buildBlockList(): net.BlockList {
  const list = new net.BlockList();
  const ipv4: Array<[string, number]> = [
    ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches the local host on Linux
    ['127.0.0.0', 8],
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['169.254.0.0', 16], // link-local, home of cloud metadata services
    ['100.64.0.0', 10], // carrier-grade NAT, often the provider's internal network
    ['192.0.0.0', 24], // IETF protocol assignments
    // Documentation (TEST-NET-1 to 3): never routed on the internet, so only a local network,
    // a lab or a container bridge numbered from them answers there.
    ['192.0.2.0', 24],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['198.18.0.0', 15], // benchmarking networks, often wired to lab equipment
    ['224.0.0.0', 4],
    ['240.0.0.0', 4], // reserved, 255.255.255.255 included
  ];
  const ipv6: Array<[string, number]> = [
    // IPv4-compatible (deprecated, `::a.b.c.d`), with `::` and `::1`: some stacks still route
    // them to the embedded IPv4 host, so the whole range is refused rather than judged by it.
    ['::', 96],
    ['2002::', 16], // 6to4: reaches the IPv4 host in bits 16-47 through a relay
    ['2001::', 32], // Teredo: reaches an IPv4 host (the server's, the client's obfuscated) through a relay
    ['2001:db8::', 32], // documentation
    ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): translated by the site's own gateway, to any IPv4 host
    ['3fff::', 20], // documentation (RFC 9637)
    ['100::', 64], // discard-only (RFC 6666)
    ['2001:10::', 28], // ORCHID, deprecated: never routed
    ['2001:20::', 28], // ORCHIDv2 (RFC 7343): identifiers, not locators
    ['5f00::', 16], // segment routing SIDs (RFC 9602): steered inside an operator's own network
    ['fc00::', 7],
    ['fe80::', 10],
    ['ff00::', 8],
  ];
  for (const [network, prefix] of ipv4) list.addSubnet(network, prefix, 'ipv4');
  for (const [network, prefix] of ipv6) list.addSubnet(network, prefix, 'ipv6');
  return list;
}

/**
 * IPv4-translated (`::ffff:0:0:0/96`, SIIT, RFC 2765): `::ffff:0:7f00:1` is 127.0.0.1 to a
 * translator. Refused whole, as the IPv4-compatible range is (Node's BlockList cannot hold this
 * range: it would match every IPv4 address through their mapped form).
 */
function isIPv4Translated(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8).every((b) => b === 0) && bytes[8] === 0xff && bytes[9] === 0xff && bytes[10] === 0 && bytes[11] === 0;
}

/** Returns the dotted IPv4 address inside ::ffff:0:0/96 (IPv4-mapped) or 64:ff9b::/96 (NAT64), else null. */
function embeddedIPv4(bytes: Uint8Array): string | null {
  const zeroUpTo = (end: number): boolean => bytes.subarray(0, end).every((b) => b === 0);
  const mapped = zeroUpTo(10) && bytes[10] === 0xff && bytes[11] === 0xff;
  const nat64 =
    bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && bytes.subarray(4, 12).every((b) => b === 0);
  if (!mapped && !nat64) return null;
  return Array.from(bytes.subarray(12, 16)).join('.');
}

/**
 * Parses an IPv6 literal (already validated by net.isIPv6, zone removed) into its 16 bytes.
 * Done by hand because Node offers no parser, and judging `::ffff:7f00:1` and `::ffff:127.0.0.1`
 * alike needs the bytes rather than the text.
 */
function parseIPv6(address: string): Uint8Array | null {
  let text = address.toLowerCase();
  const groups: number[] = [];

  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  let dottedTail: number[] | null = null;
  if (tail.includes('.')) {
    if (net.isIP(tail) !== 4) return null;
    dottedTail = tail.split('.').map(Number);
    text = text.slice(0, lastColon + 1) + '0:0';
  }

  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parseHalf = (half: string | undefined): number[] => (half ? half.split(':').map((group) => Number.parseInt(group, 16)) : []);
  const head = parseHalf(halves[0]);
  const rest = halves.length === 2 ? parseHalf(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  groups.push(...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...rest);
  if (groups.length !== 8 || groups.some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff)) return null;

  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    bytes[i * 2] = group >> 8;
    bytes[i * 2 + 1] = group & 0xff;
  });
  if (dottedTail) bytes.set(dottedTail, 12);
  return bytes;
}

function formatIPv6(bytes: Uint8Array): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  return groups.join(':');
}
