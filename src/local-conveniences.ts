// The one place that decides whether the service may relax its policies for a
// developer's own machine: webhooks to loopback and private addresses (and over
// plain http), http OAuth redirect URIs beyond loopback, and the demo organization
// printed at the first start. Strict is the default, so that a deployment that
// forgets NODE_ENV is not open. They are on only when NODE_ENV says development
// or test, or in the one case that can only be a developer's machine: the embedded
// PostgreSQL (no DATABASE_URL) with the service listening on loopback.
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

export function localConveniencesFor(settings: {
  nodeEnv: NodeEnv | undefined;
  databaseUrl: string | undefined;
  host: string;
}): LocalConveniences | null {
  const { nodeEnv, databaseUrl, host } = settings;
  if (nodeEnv === 'development' || nodeEnv === 'test') return { reason: `NODE_ENV=${nodeEnv}` };
  if (nodeEnv === undefined && databaseUrl === undefined && isLoopbackHost(host)) {
    return { reason: `NODE_ENV is unset, the database is the embedded PostgreSQL and HOST ${host} is loopback` };
  }
  return null;
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
