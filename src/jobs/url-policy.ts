// Where webhooks may be sent. A subscriber URL must be https and must not lead
// into our own network: no loopback, private, link-local (which holds the clouds'
// metadata service), unique-local, CGNAT, multicast or reserved address. It is
// checked when the URL is given and again at each delivery, on the very addresses
// the connection then uses (DNS can change in between). Only with local
// conveniences on (src/local-conveniences.ts) are http and those addresses allowed,
// so that receivers on a developer's machine work.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, incl. 169.254.169.254 metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local, incl. fd00:ec2::254 metadata
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d), compatible or NAT64 IPv6 address. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const value = (parseInt(hex[1]!, 16) << 16) | parseInt(hex[2]!, 16);
    return [24, 16, 8, 0].map((shift) => (value >>> shift) & 255).join('.');
  }
  return undefined;
}

/** Whether a webhook may never be delivered to this address (under the strict policy). */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return FORBIDDEN.check(address, 'ipv4');
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner) return FORBIDDEN.check(inner, 'ipv4');
    return FORBIDDEN.check(address, 'ipv6');
  }
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
