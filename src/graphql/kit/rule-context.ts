// What a resource's rules are given in a change's transaction (lifecycle.ts
// RuleContext): the organization, the actor, a statement on the transaction, the
// configuration, and a way to end credentials with the change. The ids ended are
// collected so the service drops this process's cached credentials once the
// change has committed (`droppedAfterCommit`), as changeCredentials does.
import { CREDENTIAL_CHANGED_CHANNEL } from '../../auth/api-key-format.js';
import { actorOf, type Principal } from '../../auth/principal.js';
import type { RuleContext } from './lifecycle.js';
import type { ServiceDependencies } from './module.js';
import { namedStatement } from './statements.js';
import type { Queryable } from './store.js';

/** The ids whose credentials a change ended, to drop from this process's cache after its commit. */
export type EndedCredentials = string[];

export function ruleContextOf(
  db: Queryable,
  principal: Principal,
  service?: { deps: Pick<ServiceDependencies, 'config'>; ended: EndedCredentials },
): RuleContext {
  return {
    organizationId: principal.organizationId,
    actor: actorOf(principal),
    ...(principal.userId && { userId: principal.userId }),
    scopes: principal.scopes,
    ...(principal.operator && { operator: true }),
    ...(service?.deps.config && { config: service.deps.config }),
    query: async <R extends object>(text: string, values: unknown[], options?: { prepared?: boolean }) =>
      (await db.query<R>(options?.prepared ? namedStatement(text, values) : { text, values })).rows,
    async endCredentials(id: string) {
      await db.query({ text: 'select pg_notify($1, $2)', values: [CREDENTIAL_CHANGED_CHANNEL, id] });
      service?.ended.push(id);
    },
  };
}

/** After a commit: this process drops what depended on the credentials the change ended. */
export function droppedAfterCommit(deps: Pick<ServiceDependencies, 'credentialsChanged'>, ended: EndedCredentials) {
  for (const id of ended) deps.credentialsChanged?.(id);
}
