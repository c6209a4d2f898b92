// A change that ends credentials (a key or token revoked; a grant, app or user
// they depend on revoked or deleted) must reach every server process at once.
// The change NOTIFYs the id in its own transaction, so each process's
// CredentialResolver drops what depends on it when the change commits (and not
// if it rolls back); this process drops it right after the commit, before its
// own NOTIFY comes back, so the caller's next request is already refused.
import { CREDENTIAL_CHANGED_CHANNEL } from '../../auth/api-key-format.js';
import type { Transaction } from '../../db/prisma.js';
import type { ServiceDependencies } from './module.js';

export async function changeCredentials<T>(
  db: Pick<ServiceDependencies, 'prisma' | 'credentialsChanged'>,
  id: string,
  change: (tx: Transaction) => Promise<T>,
): Promise<T> {
  const result = await db.prisma.$transaction(async (tx) => {
    const changed = await change(tx);
    await tx.$executeRaw`select pg_notify(${CREDENTIAL_CHANGED_CHANNEL}, ${id})`;
    return changed;
  });
  db.credentialsChanged?.(id);
  return result;
}
