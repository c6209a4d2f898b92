// The one place that decides whether the service may relax its policies for a
// developer's own machine: webhooks to loopback and private addresses (and over
// plain http), http OAuth redirect URIs beyond loopback, and the demo organization
// printed at the first start. Strict is the default, so that a deployment that
// forgets NODE_ENV is not open. They are on only when NODE_ENV says development
// or test, or in the one case that can only be a developer's machine: the embedded
// PostgreSQL (no DATABASE_URL) with the service listening on loopback, and no
// PUBLIC_URL saying it is reached some other way. That last case is a guess, so a
// request that shows a proxy in front (forwarded headers, a Host that is not
// loopback) switches them off for good in this process, before it is served.
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

export type NodeEnv = 'development' | 'production' | 'test';

export interface LocalConveniences {
  /** Why they are on, for the start-up log. */
  reason: string;
}

/** What local conveniences relax, for the start-up log. */
export const RELAXED_POLICIES = [
  'webhooks may go to loopback and private addresses, over http',
  'OAuth redirect URIs may use http on any host',
  'the first start creates a demo organization and prints its credentials',
] as const;

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');

/** Whether HOST only takes connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  if (host.toLowerCase() === 'localhost') return true;
  const family = isIP(host);
  return family !== 0 && LOOPBACK.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

/** Whether a URL's host is this machine (and its scheme plain http): nothing else reaches the service by it. */
function isLocalHttpUrl(text: string): boolean {
  const url = new URL(text);
  return url.protocol === 'http:' && isLoopbackHost(url.hostname.replace(/^\[(.*)\]$/, '$1'));
}

export function localConveniencesFor(settings: {
  nodeEnv: NodeEnv | undefined;
  databaseUrl: string | undefined;
  host: string;
  /** PUBLIC_URL as given (unset: http://HOST:PORT). */
  publicUrl?: string;
}): LocalConveniences | null {
  const { nodeEnv, databaseUrl, host, publicUrl } = settings;
  if (nodeEnv === 'development' || nodeEnv === 'test') return { reason: `NODE_ENV=${nodeEnv}` };
  if (nodeEnv !== undefined || databaseUrl !== undefined || !isLoopbackHost(host)) return null;
  // https, or another host: clients come through something else (a proxy), not from this machine.
  if (publicUrl !== undefined && !isLocalHttpUrl(publicUrl)) return null;
  return { reason: `NODE_ENV is unset, the database is the embedded PostgreSQL and HOST ${host} is loopback` };
}

/** Headers only a proxy adds (RFC 7239 and the de facto X-Forwarded-*, X-Real-IP). */
const FORWARDED_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-real-ip'];

/** Why the request looks as if a proxy passed it on, or undefined. */
export function proxySign(req: Pick<IncomingMessage, 'headers'>): string | undefined {
  const forwarded = FORWARDED_HEADERS.find((name) => req.headers[name] !== undefined);
  if (forwarded) return `a request came with ${forwarded}`;
  // A client on this machine names it; another name came through a proxy (or a rebinding DNS name).
  const authority = req.headers.host;
  if (authority === undefined) return undefined; // refused with 400 before it is served
  const hostname = /^\[([^\]]*)\]/.exec(authority)?.[1] ?? authority.replace(/:\d*$/, '');
  if (!isLoopbackHost(hostname) && !hostname.toLowerCase().endsWith('.localhost')) {
    return `a request came for host ${JSON.stringify(authority)}, which is not loopback`;
  }
  return undefined;
}

/**
 * Watches requests while local conveniences are on only by guess (NODE_ENV unset):
 * the first one that shows a proxy turns them off (config.localConveniences = null,
 * which every check reads when it runs) before it is served, with a warning. Off for
 * the rest of the process: a proxy that was there once may be there again.
 * NODE_ENV=development/test was said on purpose, and is left alone.
 */
export function proxyWatch(
  config: { nodeEnv: NodeEnv | undefined; localConveniences: LocalConveniences | null },
  logger: { warn(fields: object, message: string): void },
): (req: Pick<IncomingMessage, 'headers'>) => void {
  return (req) => {
    if (!config.localConveniences || config.nodeEnv !== undefined) return;
    const sign = proxySign(req);
    if (!sign) return;
    config.localConveniences = null;
    logger.warn(
      { reason: sign },
      `local conveniences off: ${sign}, so the service is reached through a proxy. ` +
        'Strict policies hold until the process restarts; set PUBLIC_URL (or NODE_ENV=production) to say so at start',
    );
  };
}

/** The start-up log's line when local conveniences are on (nothing when the policies are strict). */
export function logLocalConveniences(
  config: { localConveniences: LocalConveniences | null },
  logger: { warn(fields: object, message: string): void },
): void {
  const on = config.localConveniences;
  if (!on) return;
  logger.warn(
    { reason: on.reason, relaxed: RELAXED_POLICIES },
    `local conveniences on (${on.reason}): ${RELAXED_POLICIES.join('; ')}. ` +
      'Set NODE_ENV=production for the strict policies',
  );
}
