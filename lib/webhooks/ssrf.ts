import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { config } from '../config';

/**
 * The guard against server-side request forgery: a webhook is a request the service makes to
 * an address a tenant chose, so that address must be on the public internet, never the
 * service's own network (private ranges), the host itself (loopback) or the cloud's metadata
 * service (link-local 169.254.169.254, fd00:ec2::254). Checked at registration and again
 * before each delivery, on every address the name resolves to (a name may change its answer).
 * A delivery then connects to the addresses checked (`vetTarget`, ./pinned-fetch), never to a
 * second answer of the name: a DNS server answering a public address to the check and the
 * metadata service to the connection (DNS rebinding) has no second question to answer.
 */

/** Why a target is refused. */
export type UnsafeReason =
  'invalid' | 'scheme' | 'credentials' | 'unresolvable' | 'unspecified' | 'loopback' | 'private' | 'link-local' | 'shared' | 'multicast' | 'reserved';

/** A target the guard refuses, with why (`reason`) and a message that says it for a person. */
export class UnsafeTarget extends Error {
  override readonly name = 'UnsafeTarget';
  constructor(
    readonly reason: UnsafeReason,
    message: string,
  ) {
    super(message);
  }
}

/** Every address a host name resolves to (node:dns `lookup` with `all`, as the HTTP client connects). */
export type Resolver = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

export interface CheckOptions {
  /** Loopback targets, and http for them (npm start); default: the WEBHOOK_ALLOW_LOOPBACK setting. */
  allowLoopback?: boolean;
  /** Default: node:dns `lookup`, every A and AAAA record, in the resolver's order. */
  resolve?: Resolver;
}

const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** A range: its first bytes, how many bits of them count, and what it is. */
interface Range {
  bytes: number[];
  bits: number;
  kind: Exclude<UnsafeReason, 'invalid' | 'scheme' | 'credentials' | 'unresolvable'>;
}

const v4 = (cidr: string, kind: Range['kind']): Range => {
  const [address = '', bits = '32'] = cidr.split('/');
  return { bytes: address.split('.').map(Number), bits: Number(bits), kind };
};

/** The IPv4 ranges refused (RFC 6890 special-purpose registry, less nothing that is globally reachable and useful for a webhook). */
const IPV4_REFUSED: Range[] = [
  v4('0.0.0.0/8', 'unspecified'),
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'shared'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'),
  v4('192.0.2.0/24', 'reserved'),
  v4('192.88.99.0/24', 'reserved'),
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'reserved'),
  v4('198.51.100.0/24', 'reserved'),
  v4('203.0.113.0/24', 'reserved'),
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved'),
];

const v6 = (prefix: number[], bits: number, kind: Range['kind']): Range => ({ bytes: prefix, bits, kind });

/** The IPv6 ranges refused inside global unicast (2000::/3); everything outside it is refused too (`classifyV6`). */
const IPV6_REFUSED: Range[] = [
  // 2001::/23: IETF protocol assignments (Teredo 2001::/32 among them); 2001:db8::/32: documentation.
  v6([0x20, 0x01, 0x00], 23, 'reserved'),
  v6([0x20, 0x01, 0x0d, 0xb8], 32, 'reserved'),
];

const DESCRIPTIONS: Record<Range['kind'], string> = {
  unspecified: 'an unspecified address',
  loopback: 'a loopback address',
  private: 'a private address',
  'link-local': 'a link-local address (the cloud metadata service among them)',
  shared: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
};

function inRange(bytes: readonly number[], range: Range): boolean {
  for (let bit = 0; bit < range.bits; bit += 8) {
    const mask = range.bits - bit >= 8 ? 0xff : (0xff << (8 - (range.bits - bit))) & 0xff;
    if (((bytes[bit / 8] ?? 0) & mask) !== ((range.bytes[bit / 8] ?? 0) & mask)) return false;
  }
  return true;
}

/** The 16 bytes of an IPv6 address (one `isIP` accepts, without a zone). */
function ipv6Bytes(address: string): number[] {
  let text = address;
  let tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    tail = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}0:0`;
  }
  const [head = '', rest] = text.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const before = groups(head);
  const after = rest === undefined ? [] : groups(rest);
  const all = [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
  const bytes = all.flatMap((group) => [group >> 8, group & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** What a refused address is, or undefined for a public one. */
export function classify(address: string): Range['kind'] | undefined {
  const plain = address.replace(/%.*$/, '');
  const family = isIP(plain);
  if (family === 4) return IPV4_REFUSED.find((range) => inRange(plain.split('.').map(Number), range))?.kind;
  if (family !== 6) return 'reserved';
  return classifyV6(ipv6Bytes(plain));
}

function classifyV6(bytes: number[]): Range['kind'] | undefined {
  const embedded = (from: number) => bytes.slice(from, from + 4).join('.');
  const zeros = (count: number) => bytes.slice(0, count).every((byte) => byte === 0);
  if (zeros(16)) return 'unspecified';
  if (zeros(15) && bytes[15] === 1) return 'loopback';
  // ::ffff:a.b.c.d (IPv4-mapped) and 64:ff9b::a.b.c.d (NAT64) reach the IPv4 address they carry.
  if (zeros(10) && bytes[10] === 0xff && bytes[11] === 0xff) return classify(embedded(12));
  if (inRange(bytes, v6([0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96, 'reserved'))) return classify(embedded(12));
  // 2002::/16 (6to4) carries an IPv4 address in its next 32 bits.
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return classify(embedded(2));
  if ((bytes[0] ?? 0) >> 1 === 0x7e) return 'private'; // fc00::/7, unique local (fd00:ec2::254, the metadata service, among them)
  if (bytes[0] === 0xfe && ((bytes[1] ?? 0) & 0xc0) === 0x80) return 'link-local'; // fe80::/10
  if (bytes[0] === 0xff) return 'multicast';
  // Anything else outside 2000::/3 (global unicast) is reserved: ::/96 (IPv4-compatible), 100::/64 (discard), fec0::/10...
  if (((bytes[0] ?? 0) & 0xe0) !== 0x20) return 'reserved';
  return IPV6_REFUSED.find((range) => inRange(bytes, range))?.kind;
}

/** An address a target was checked at, with its family. */
export interface VettedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * A target the guard took: the host to name (TLS server name, Host header) and the addresses to
 * connect to, every one of them checked, in the resolver's order. A connection made with it
 * asks DNS nothing (./pinned-fetch).
 */
export interface VettedTarget {
  /** The URL checked (normalised by the URL parser). */
  href: string;
  /** The URL's host without port or IPv6 brackets: a name, or the IP literal itself. */
  hostname: string;
  /** Never empty; one address, the literal, for an IP-literal URL. */
  addresses: readonly VettedAddress[];
}

/**
 * Check a webhook target: an absolute URL without credentials, https, whose host (an IP
 * literal, or every address its name resolves to) is public. With `allowLoopback` (npm start),
 * loopback addresses are allowed too, and http for a host that is only loopback. Resolves to
 * the addresses checked (for a caller that connects to exactly those); throws `UnsafeTarget`.
 */
export async function checkTarget(url: string, options: CheckOptions = {}): Promise<string[]> {
  return (await vetTarget(url, options)).addresses.map((one) => one.address);
}

/**
 * `checkTarget`, answering what a connection needs to go to exactly the addresses checked: the
 * name is resolved once, here. Throws `UnsafeTarget` as `checkTarget` does.
 */
export async function vetTarget(url: string, options: CheckOptions = {}): Promise<VettedTarget> {
  const allowLoopback = options.allowLoopback ?? config().WEBHOOK_ALLOW_LOOPBACK;
  const resolve = options.resolve ?? systemResolver;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new UnsafeTarget('invalid', 'must be an absolute URL');
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:') throw new UnsafeTarget('scheme', 'must be an https URL');
  if (target.username !== '' || target.password !== '') throw new UnsafeTarget('credentials', 'must not hold credentials (user:password@)');
  const http = target.protocol === 'http:';
  const httpRefused = () => new UnsafeTarget('scheme', allowLoopback ? 'must be an https URL (http only to a loopback address)' : 'must be an https URL');
  if (http && !allowLoopback) throw httpRefused();
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(host) !== 0) {
    addresses = [host];
  } else {
    try {
      addresses = (await resolve(host)).map((answer) => answer.address);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) throw http ? httpRefused() : new UnsafeTarget('unresolvable', `has a host name that does not resolve (${host})`);
  }
  for (const address of addresses) {
    const kind = classify(address);
    if (kind === undefined || (kind === 'loopback' && allowLoopback)) continue;
    const named = address === host ? `is ${address}` : `resolves to ${address}`;
    throw new UnsafeTarget(kind, `${named}, ${DESCRIPTIONS[kind]}: webhooks go to public addresses only`);
  }
  if (http && !addresses.every((address) => classify(address) === 'loopback')) throw httpRefused();
  // Every address passed `classify`, which refuses what is not an IP address: its family is 4 or 6.
  return { href: target.href, hostname: host, addresses: addresses.map((address) => ({ address, family: isIP(address) === 6 ? 6 : 4 })) };
}
