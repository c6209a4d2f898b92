// The rate-limit key of a client without credentials: its address. An IPv6
// client usually holds a whole /64 (a home or a cloud instance gets one), so
// counting single IPv6 addresses would give each client 2^64 budgets: IPv6 is
// counted by its /64 prefix, IPv4 (and IPv4-mapped IPv6) by the address.
import net from 'node:net';
import proxyaddr from 'proxy-addr';
import type { HttpRequest } from './exchange.js';

/** The first four 16-bit groups of an IPv6 address, expanded (`2001:db8:0:0`). */
function ipv6Prefix64(address: string): string {
  const withoutZone = address.split('%')[0]!.toLowerCase();
  const [head = '', tail] = withoutZone.split('::');
  const groups = (part: string) =>
    part
      .split(':')
      .filter(Boolean)
      // An embedded IPv4 tail (::a.b.c.d) stands for two groups.
      .flatMap((group) => (group.includes('.') ? ['0', '0'] : [group]));
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const zeros = tail === undefined ? [] : Array<string>(Math.max(0, 8 - front.length - back.length)).fill('0');
  return [...front, ...zeros, ...back]
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':');
}

/** `req.ip` -> the key its requests without credentials are counted under. */
export function clientAddressKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return mapped;
  if (net.isIPv6(address)) return `${ipv6Prefix64(address)}::/64`;
  return address;
}

/** The client's address as Express's `req.ip` gives it: the nearest address `trust proxy` does not vouch for. */
export function clientAddress(req: HttpRequest): string {
  return proxyaddr(req, req.app.get('trust proxy fn') as (address: string, hop: number) => boolean);
}
