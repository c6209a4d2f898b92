import 'reflect-metadata';
// The change feed at /v1/changes: every committed change exactly once, in
// commit order, scoped like the resources' lists, cursors that expire only
// with CHANGE_RETENTION_DAYS, and long polling.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { Scope } from '../src/auth/scopes.js';
import { prune } from '../src/jobs/prune.js';
import { useServer } from './support/fixtures.js';

const server = useServer({ RATE_LIMIT_MAX: '1000000' });

let pool: pg.Pool | undefined;
const db = () => (pool ??= new pg.Pool({ connectionString: server.databaseUrl, max: 55 }));
afterAll(() => pool?.end());

interface ChangeBody {
  cursor: string;
  resource: string;
  id: string;
  operation: string;
  object: Record<string, unknown>;
  previousAttributes: Record<string, unknown> | null;
  actor: { type: string; id: string | null };
  at: string;
}

async function tenant(scopes: Scope[] = ['crm:read', 'crm:write']) {
  const org = await server.org();
  return { org, key: await org.key(scopes) };
}

async function changes(key: string, query = '') {
  return server.rest('GET', `/v1/changes${query}`, { key });
}

describe('GET /v1/changes', () => {
  it('lists creates, updates and deletes with object, previousAttributes, actor, oldest first', async () => {
    const { key } = await tenant();
    const created = (await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'ada@example.test' } })).body;
    const put = await server.rest('PUT', `/v1/crm/contacts/${created.id}`, { key, body: { company: 'Analytical' } });
    expect(put.status).toBe(200);
    expect((await server.rest('DELETE', `/v1/crm/contacts/${created.id}`, { key })).status).toBe(204);

    const res = await changes(key);
    expect(res.status).toBe(200);
    const data = res.body.data as ChangeBody[];
    expect(data.map((c) => [c.resource, c.id, c.operation])).toEqual([
      ['contacts', created.id, 'created'],
      ['contacts', created.id, 'updated'],
      ['contacts', created.id, 'deleted'],
    ]);
    expect(data[0]!.object).toEqual(created);
    expect(data[0]!.previousAttributes).toBeNull();
    expect(data[1]!.object).toEqual(put.body);
    expect(data[1]!.previousAttributes).toMatchObject({ company: null });
    expect(data[2]!.object).toMatchObject({ id: created.id, company: 'Analytical' });
    expect(data[0]!.actor.type).toBe('api_key');
    expect(data[0]!.actor.id).toMatch(/^key_/);
    expect(new Date(data[0]!.at).getTime()).toBeGreaterThan(Date.now() - 60_000);

    // Following next: nothing new, and the next write comes after.
    const after = await changes(key, `?after=${res.body.next}`);
    expect(after.body.data).toEqual([]);
    await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'next@example.test' } });
    const more = await changes(key, `?after=${after.body.next}`);
    expect(more.body.data.map((c: ChangeBody) => c.operation)).toEqual(['created']);
    // Cursor of one change: the changes after it.
    const fromSecond = await changes(key, `?after=${data[1]!.cursor}&limit=1`);
    expect(fromSecond.body.data.map((c: ChangeBody) => c.operation)).toEqual(['deleted']);
  });

  it('answers only the resources asked for, those whose list scope the key holds, of its organization', async () => {
    const { org, key } = await tenant(['crm:write', 'crm:read', 'hr:write', 'hr:read']);
    await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'scoped@example.test' } });
    const other = await tenant();
    await server.rest('POST', '/v1/crm/contacts', { key: other.key, body: { email: 'other@example.test' } });

    const mine = await changes(key, '?resources=contacts');
    expect(mine.body.data.map((c: ChangeBody) => c.object.email)).toEqual(['scoped@example.test']);
    const hrOnly = await org.key(['hr:read']);
    expect((await changes(hrOnly)).body.data).toEqual([]);
    const refused = await changes(hrOnly, '?resources=contacts');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    const unknown = await changes(key, '?resources=spaceships');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/spaceships is not one of .*contacts/);
    // Another organization's cursor is refused.
    const foreign = await changes(other.key, `?after=${mine.body.next}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'after' });
  });

  it('refuses a cursor that is not one, and answers 410 CURSOR_EXPIRED past retention', async () => {
    const { org, key } = await tenant();
    for (const bad of ['nope!', Buffer.from('c1:x:1').toString('base64url'), 'AAAA']) {
      const res = await changes(key, `?after=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect((await changes(key, '?limit=0')).status).toBe(400);
    expect((await changes(key, '?wait=31')).status).toBe(400);

    await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'old@example.test' } });
    const start = await changes(key, '?limit=1');
    const oldCursor = start.body.data[0].cursor as string;
    await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'old2@example.test' } });
    const beforePrune = (await changes(key, `?after=${oldCursor}`)).body;
    expect(beforePrune.data).toHaveLength(1);
    await db().query(
      `update "Change" set "createdAt" = now() - interval '91 days' where "organizationId" = $1 and type = 'contact.created'`,
      [org.id],
    );
    const pruned = await prune({ pool: db(), config: server.config });
    expect(pruned.changes).toBeGreaterThanOrEqual(2);
    const expired = await changes(key, `?after=${oldCursor}`);
    expect(expired.status).toBe(410);
    expect(expired.body.error.code).toBe('CURSOR_EXPIRED');
    expect(expired.body.error.message).toMatch(/re-export/);
    // A cursor at or past what was pruned still reads on.
    expect((await changes(key, `?after=${beforePrune.next}`)).status).toBe(200);
  });

  it('with wait, answers as soon as a change commits', async () => {
    const { key } = await tenant();
    const { next } = (await changes(key)).body;
    const started = Date.now();
    const waiting = changes(key, `?after=${next}&wait=20`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'soon@example.test' } });
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: ChangeBody) => c.object.email)).toEqual(['soon@example.test']);
    expect(Date.now() - started).toBeLessThan(8_000);
  });

  it('is the changes query over GraphQL too', async () => {
    const { key } = await tenant();
    await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'gql@example.test' } });
    const res = await server.gql('{ changes(limit: 5) { data { resource operation object } next } }', {}, { key });
    expect(res.errors).toBeUndefined();
    expect(res.data.changes.data).toMatchObject([{ resource: 'contacts', operation: 'created' }]);
  });
});

describe('never skips', () => {
  it('a reader following next sees every change of 50 concurrent writers exactly once, in commit order', async () => {
    const { org, key } = await tenant();
    const WRITERS = 50;
    const RUN_MS = 10_000;
    /** Per transaction: when it began and when its COMMIT returned. */
    const committed = new Map<string, { began: number; done: number }>();
    const stopAt = Date.now() + RUN_MS;
    let serial = 0;

    // Each writer commits its events through the same "Event" insert as the kit, holding its
    // transaction open a random while so that transactions commit out of id order.
    const writer = async (w: number) => {
      const client = await db().connect();
      try {
        while (Date.now() < stopAt) {
          const id = `con_w${w}_${serial++}`;
          const began = performance.now();
          await client.query('begin');
          await client.query(
            `insert into "Event" (id, "organizationId", type, data, "actorType") values ($1, $2, 'contact.created', $3, 'system')`,
            [`evt_${id}`, org.id, JSON.stringify({ object: { id } })],
          );
          await client.query('select pg_sleep($1)', [Math.random() * 0.03]);
          await client.query('commit');
          committed.set(id, { began, done: performance.now() });
        }
      } finally {
        client.release();
      }
    };

    const seen: string[] = [];
    let readerDone = false;
    const reader = async () => {
      let after = '';
      for (;;) {
        const finishing = readerDone;
        const res = await changes(key, `?limit=1000${after && `&after=${after}`}`);
        expect(res.status).toBe(200);
        seen.push(...res.body.data.map((c: ChangeBody) => c.id));
        after = res.body.next;
        if (finishing && res.body.data.length === 0) return;
      }
    };
    const reading = reader();
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    readerDone = true;
    await reading;

    const { rows } = await db().query<{ id: string }>(
      `select data->'object'->>'id' as id from "Event" where "organizationId" = $1 and type = 'contact.created'`,
      [org.id],
    );
    expect(committed.size).toBeGreaterThan(WRITERS * 10);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual(rows.map((r) => r.id).sort());
    expect(seen.length).toBe(committed.size);

    // Commit order: a transaction that committed before another began is read before it.
    const position = new Map(seen.map((id, i) => [id, i]));
    const byBegin = [...committed].sort((a, b) => a[1].began - b[1].began);
    const byDone = [...committed].sort((a, b) => a[1].done - b[1].done);
    let d = 0;
    let latestBefore = -1;
    let violations = 0;
    for (const [id, { began }] of byBegin) {
      while (d < byDone.length && byDone[d]![1].done < began)
        latestBefore = Math.max(latestBefore, position.get(byDone[d++]![0])!);
      if (latestBefore > position.get(id)!) violations++;
    }
    expect(violations).toBe(0);
  }, 60_000);
});
