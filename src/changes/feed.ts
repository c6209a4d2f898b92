// Reading the change feed: number what has committed (the sequencer), then read
// the organization's changes after the cursor, oldest first, of the event types
// the caller may read. See docs/decisions.md, "Change feed (issue 29, part 1)".
import type pg from 'pg';
import type { ActorType, Principal } from '../auth/principal.js';
import { DomainError } from '../errors.js';
import { missingScope } from '../graphql/auth-checker.js';
import { cataloguedEvent, readableEventTypes, visibleEventData } from '../events/catalogue.js';
import type { EventType } from '../events/event.js';
import { checkCursorResources, cursorResources, decodeChangeCursor, encodeChangeCursor } from './cursor.js';
import type { ChangeNotifier } from './notifier.js';
import { changeKinds, changeResourceNames, type ChangeOperation } from './resources.js';

export const CHANGE_LIMIT_DEFAULT = 100;
export const CHANGE_LIMIT_MAX = 1000;
export const CHANGE_WAIT_MAX_SECONDS = 30;

export interface ChangeRequest {
  after?: string;
  limit?: number;
  /** REST names (`contacts`); all the caller may read when absent. */
  resources?: string[];
  /** Seconds to wait for a change when there is none yet (long polling). */
  wait?: number;
}

export interface ChangeEntry {
  cursor: string;
  resource: string;
  id: string;
  operation: ChangeOperation;
  object: Record<string, unknown>;
  previousAttributes: Record<string, unknown> | null;
  actor: { type: ActorType; id: string | null };
  at: string;
}

export interface ChangePage {
  data: ChangeEntry[];
  /** Where to read from next: after the last change, or the feed's head when this page was not full. */
  next: string;
}

interface PageRow {
  head: string | null;
  expired: boolean;
  rows: {
    position: number | string;
    type: string;
    recordId: string;
    data: { object: Record<string, unknown>; previousAttributes?: Record<string, unknown> };
    actorType: string;
    actorId: string | null;
    createdAt: string;
  }[];
}

/** Numbers the committed changes not numbered yet (the migration's change_sequence(), its own transaction). */
export async function sequenceChanges(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ numbered: string }>('select change_sequence() as numbered');
  return Number(rows[0]!.numbered);
}

export class ChangeFeed {
  constructor(
    private readonly pool: pg.Pool,
    private readonly notifier?: ChangeNotifier,
  ) {}

  async read(principal: Principal, request: ChangeRequest): Promise<ChangePage> {
    const types = this.typesFor(principal, request.resources);
    const resources = cursorResources(request.resources);
    let after = 0n;
    if (request.after !== undefined) {
      const cursor = decodeChangeCursor(principal.organizationId, request.after);
      checkCursorResources(cursor, resources);
      after = cursor.position;
    }
    const limit = request.limit ?? CHANGE_LIMIT_DEFAULT;
    if (!Number.isInteger(limit) || limit < 1 || limit > CHANGE_LIMIT_MAX) {
      throw new DomainError('VALIDATION_ERROR', `'limit': must be 1 to ${CHANGE_LIMIT_MAX}`, 'limit');
    }
    const wait = request.wait ?? 0;
    if (!Number.isInteger(wait) || wait < 0 || wait > CHANGE_WAIT_MAX_SECONDS) {
      throw new DomainError('VALIDATION_ERROR', `'wait': must be 0 to ${CHANGE_WAIT_MAX_SECONDS} seconds`, 'wait');
    }
    const deadline = Date.now() + wait * 1000;
    for (;;) {
      const page = await this.readOnce(principal, types, resources, after, limit);
      const remaining = deadline - Date.now();
      if (page.data.length || remaining <= 0 || !types.length) return page;
      await (this.notifier
        ? this.notifier.next(remaining)
        : new Promise((r) => setTimeout(r, Math.min(remaining, 250))));
    }
  }

  /** The event types to read: those of the resources asked for (all when none), each needing its list's scope. */
  private typesFor(principal: Principal, resources: string[] | undefined): string[] {
    const known = changeResourceNames();
    if (resources && !resources.length) {
      throw new DomainError('VALIDATION_ERROR', `'resources': name at least one of ${known.join(', ')}`, 'resources');
    }
    const unknown = resources?.find((name) => !known.includes(name));
    if (unknown !== undefined) {
      throw new DomainError(
        'VALIDATION_ERROR',
        `'resources': ${unknown} is not one of ${known.join(', ')}`,
        'resources',
      );
    }
    const readable = new Set(readableEventTypes(principal.scopes));
    const types: string[] = [];
    for (const [type, kind] of changeKinds()) {
      if (resources && !resources.includes(kind.resource)) continue;
      if (readable.has(type as EventType)) types.push(type);
      else if (resources) throw missingScope(cataloguedEvent(type as EventType).scope);
    }
    return types;
  }

  /** One page; its cursors are bound to `resources` (what it read: it passes other resources' changes). */
  private async readOnce(
    principal: Principal,
    types: string[],
    resources: string[] | undefined,
    after: bigint,
    limit: number,
  ): Promise<ChangePage> {
    await sequenceChanges(this.pool);
    // One statement, one snapshot: the page, the head and the horizon agree.
    const { rows } = await this.pool.query<PageRow>(
      `select (select max(position) from "Change")::text as head,
         coalesce((select "prunedThrough" > $2::bigint from "ChangeHorizon" where "organizationId" = $1), false) as expired,
         coalesce((select json_agg(p order by p.position) from (
           select position, type, "recordId", data, "actorType", "actorId", "createdAt" from "Change"
           where "organizationId" = $1 and position > $2::bigint and type = any($3::text[])
           order by position limit $4) p), '[]') as rows`,
      [principal.organizationId, after.toString(), types, limit],
    );
    const { head, expired, rows: changes } = rows[0]!;
    if (expired && after > 0n) {
      throw new DomainError(
        'CURSOR_EXPIRED',
        'This cursor is older than the change feed keeps (CHANGE_RETENTION_DAYS): re-export the data (POST /v1/exports), ' +
          'load the file, then follow the feed from the export’s changesCursor (GET /v1/exports/{id}): it misses no ' +
          'change committed after the file was read',
        'after',
      );
    }
    const kinds = changeKinds();
    const data = changes.map((row): ChangeEntry => {
      const kind = kinds.get(row.type)!;
      const visible = visibleEventData(row.type, row.data, principal.scopes);
      return {
        cursor: encodeChangeCursor(principal.organizationId, BigInt(row.position), resources),
        resource: kind.resource,
        id: row.recordId,
        operation: kind.operation,
        object: visible.object,
        previousAttributes: visible.previousAttributes ?? null,
        actor: { type: row.actorType as ActorType, id: row.actorId },
        at: new Date(row.createdAt).toISOString(),
      };
    });
    const last = changes.length ? BigInt(changes.at(-1)!.position) : after;
    // A page that is not full has read everything committed up to the head: the next read starts there.
    const headPosition = head === null ? 0n : BigInt(head);
    const next = changes.length < limit && headPosition > last ? headPosition : last;
    return { data, next: encodeChangeCursor(principal.organizationId, next, resources) };
  }
}
