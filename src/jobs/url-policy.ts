// Where webhooks may be sent. A subscriber URL must be https and must not lead
// into our own network: no loopback, private, link-local (which holds the clouds'
// metadata service), unique-local, CGNAT, multicast or reserved address. It is
// checked when the URL is given and again at each delivery (the same
// isForbiddenAddress, through publicOnlyLookup), on the very addresses
// the connection then uses (DNS can change in between). Only with local
// conveniences on (src/local-conveniences.ts) are http and those addresses allowed,
// so that receivers on a developer's machine work.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

const FORBIDDEN_IPV4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, incl. 169.254.169.254 metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  FORBIDDEN_IPV4.addSubnet(network, prefix, 'ipv4');
}

// IPv6: only global unicast (2000::/3), which shuts out loopback, unspecified,
// unique-local (fd00:ec2::254 metadata), link-local, site-local, multicast, discard,
// NAT64's local-use prefix. Within it, IANA's special-purpose ranges that are not
// globally reachable are refused too. 2001::/23 is refused whole, its few global
// exceptions (AMT, AS112, ...) included: no webhook receiver lives there, and Teredo
// (2001::/32) embeds addresses we cannot check.
const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6');
const SPECIAL_IPV6 = new BlockList();
for (const [network, prefix] of [
  ['2001::', 23], // IETF protocol assignments: Teredo, benchmarking, ORCHID, ...
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation (RFC 9637)
  ['5f00::', 16], // SRv6 SIDs (RFC 9602)
] as const) {
  SPECIAL_IPV6.addSubnet(network, prefix, 'ipv6');
}

/** The eight 16-bit groups of a valid IPv6 address (zone dropped, dotted tail folded in). */
export function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(2).map(Number) as [number, number, number, number];
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const groups = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const [head, tail] = text.split('::');
  const left = groups(head);
  const right = groups(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const ipv4Of = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join('.');

/**
 * The IPv4 address an IPv6 address carries, which decides where it leads:
 * IPv4-mapped ::ffff:0:0/96, NAT64's well-known 64:ff9b::/96, 6to4 2002::/16.
 * IPv4-compatible ::/96 (deprecated by RFC 4291, never routed) is refused whole
 * rather than looked into; `null`: refused.
 */
function embeddedIpv4(g: number[]): string | null | undefined {
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return ipv4Of(g[6]!, g[7]!);
  if (zeros(0, 6)) return null;
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return ipv4Of(g[6]!, g[7]!);
  if (g[0] === 0x2002) return ipv4Of(g[1]!, g[2]!);
  return undefined;
}

function isForbiddenIpv6(address: string): boolean {
  const groups = ipv6Groups(address);
  const inner = embeddedIpv4(groups);
  if (inner === null) return true;
  if (inner !== undefined) return FORBIDDEN_IPV4.check(inner, 'ipv4');
  const canonical = groups.map((group) => group.toString(16)).join(':');
  return !GLOBAL_UNICAST.check(canonical, 'ipv6') || SPECIAL_IPV6.check(canonical, 'ipv6');
}

/** Whether a webhook may never be delivered to this address (under the strict policy). */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return FORBIDDEN_IPV4.check(address, 'ipv4');
  if (family === 6) return isForbiddenIpv6(address);
  return true;
}

export interface UrlPolicy {
  /** The rules unless local conveniences are on: https only, public addresses only. */
  strict: boolean;
}

/** Why the URL cannot take webhooks, or undefined. Resolves its host under strict rules. */
export async function urlProblem(text: string, policy: UrlPolicy): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute http(s) URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http(s) URL';
  if (!policy.strict) return undefined;
  if (url.protocol !== 'https:') return 'must be an https URL';
  try {
    await resolvePublic(hostOf(url));
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}

/** The host of a URL as DNS or an IP literal wants it ([::1] -> ::1). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

export class ForbiddenAddressError extends Error {
  readonly code = 'EFORBIDDENADDRESS';
}

/** Every address of the host, if none is forbidden; otherwise an error naming the problem. */
export async function resolvePublic(host: string): Promise<LookupAddress[]> {
  const addresses = isIP(host)
    ? [{ address: host, family: isIP(host) }]
    : await new Promise<LookupAddress[]>((resolve, reject) =>
        dnsLookup(host, { all: true }, (error, found) =>
          error ? reject(new Error(`cannot resolve ${host} (${error.code ?? error.message})`)) : resolve(found),
        ),
      );
  if (!addresses.length) throw new Error(`cannot resolve ${host}`);
  if (addresses.some(({ address }) => isForbiddenAddress(address))) {
    throw new ForbiddenAddressError(`must not resolve to a loopback, private, link-local or reserved address`);
  }
  return addresses;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request that resolves like resolvePublic: the connection
 * goes to an address that was checked, never to one resolved again afterwards.
 */
export function publicOnlyLookup(
  hostname: string,
  options: { all?: boolean } | number | undefined,
  callback: LookupCallback,
): void {
  resolvePublic(hostname.replace(/^\[(.*)\]$/, '$1')).then(
    (addresses) => {
      if (typeof options === 'object' && options?.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    },
    (error: NodeJS.ErrnoException) => callback(error, '', 0),
  );
}
