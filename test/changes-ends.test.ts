import 'reflect-metadata';
// The change feed's ends (docs/decisions.md, "Change feed: the ends"): an
// export carries the cursor to follow the feed from, so that the file and the
// feed after it hold every record's last state and miss nothing committed after
// the file's snapshot; the trigger leaves out the events the feed never serves;
// a cursor advanced under a `resources` filter is refused for other resources.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { changeKinds } from '../src/changes/resources.js';
import { snapshotChangesCursor } from '../src/changes/snapshot-cursor.js';
import { EVENT_TYPES } from '../src/events/catalogue.js';
import { TEST_EVENT_TYPE } from '../src/events/system-events.js';
import { runExport } from '../src/jobs/run-export.js';
import { useServer } from './support/fixtures.js';

const server = useServer({ RATE_LIMIT_MAX: '1000000' });

let pool: pg.Pool | undefined;
const db = () => (pool ??= new pg.Pool({ connectionString: server.databaseUrl, max: 4 }));
afterAll(() => pool?.end());

type Row = Record<string, unknown> & { id: string };
interface ChangeBody {
  cursor: string;
  resource: string;
  id: string;
  operation: string;
  object: Row;
}

const ndjson = (text: string): Row[] =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Row);

/** Every change after `after` (of `resources`, when given), following next until a page is empty. */
async function follow(
  key: string,
  after: string,
  resources?: string,
): Promise<{ changes: ChangeBody[]; next: string }> {
  const changes: ChangeBody[] = [];
  let next = after;
  for (;;) {
    const query = new URLSearchParams({ after: next, limit: '7', ...(resources && { resources }) });
    const res = await server.rest('GET', `/v1/changes?${query}`, { key });
    expect(res.status, res.text).toBe(200);
    changes.push(...(res.body.data as ChangeBody[]));
    next = res.body.next as string;
    if (!res.body.data.length) return { changes, next };
  }
}

async function contact(key: string, email: string): Promise<Row> {
  const res = await server.rest('POST', '/v1/crm/contacts', { key, body: { email } });
  expect(res.status, res.text).toBe(201);
  return res.body as Row;
}

async function allContacts(key: string): Promise<Row[]> {
  const res = await server.rest('GET', '/v1/crm/contacts?limit=100', { key });
  expect(res.body.data.length).toBeLessThan(100);
  return res.body.data as Row[];
}

const byId = (rows: Row[]) => Object.fromEntries(rows.map((row) => [row.id, row]));

describe("an export's changesCursor", () => {
  it('export ∪ the feed after its changesCursor is every record’s last state, with writes during and after', async () => {
    const org = await server.org();
    const key = await org.key(['admin']);
    const before: Row[] = [];
    for (let i = 0; i < 12; i++) before.push(await contact(key, `before${i}@example.test`));
    await server.rest('GET', '/v1/changes?limit=1', { key }); // numbered by a reader
    // Not numbered yet when the export starts (the worker numbers what has committed first).
    await server.rest('PUT', `/v1/crm/contacts/${before[0]!.id}`, { key, body: { company: 'Before' } });

    const created = await server.rest('POST', '/v1/exports', { key, body: { resource: 'contacts', format: 'json' } });
    expect(created.status, created.text).toBe(202);
    expect(created.body.changesCursor).toBeNull(); // until the worker starts the file
    const exportId = created.body.id as string;

    // The worker's run, on a pool that commits writes while the file is being read (after its snapshot).
    const during: string[] = [];
    const worker = new pg.Pool({ connectionString: server.databaseUrl, max: 3 });
    const query = worker.query.bind(worker) as (...args: unknown[]) => Promise<unknown>;
    let chunks = 0;
    (worker as unknown as { query: unknown }).query = async (...args: unknown[]) => {
      if (String(args[0]).includes('insert into "ExportChunk"') && chunks++ === 1) {
        await server.rest('PUT', `/v1/crm/contacts/${before[1]!.id}`, { key, body: { company: 'During' } });
        expect((await server.rest('DELETE', `/v1/crm/contacts/${before[2]!.id}`, { key })).status).toBe(204);
        during.push(before[1]!.id, before[2]!.id, (await contact(key, 'during@example.test')).id);
        // A reader numbers them now, while the file is still being written.
        await server.rest('GET', '/v1/changes?limit=1', { key });
      }
      return query(...args);
    };
    try {
      expect(await runExport(worker, exportId, server.config.exportLimits, 5)).toBe(true);
    } finally {
      await worker.end();
    }
    expect(chunks).toBeGreaterThan(2); // the writes came between two of the file's batches

    const shown = await server.rest('GET', `/v1/exports/${exportId}`, { key });
    expect(shown.body).toMatchObject({ status: 'completed', rowsWritten: 12 });
    const changesCursor = shown.body.changesCursor as string;
    expect(changesCursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const viaGraphQL = await server.gql(
      'query ($id: ID!) { export(id: $id) { changesCursor } }',
      { id: exportId },
      {
        key,
      },
    );
    expect(viaGraphQL.data.export.changesCursor).toBe(changesCursor);
    const file = ndjson((await server.rest('GET', `/v1/exports/${exportId}/download`, { key })).text);
    // The file is the snapshot: none of the writes made while it was read.
    expect(file.map((row) => row.email)).toEqual(before.map((row) => row.email));
    expect(byId(file)[before[1]!.id]!.company).toBeNull();

    const after = await contact(key, 'after@example.test');
    await server.rest('PUT', `/v1/crm/contacts/${before[3]!.id}`, { key, body: { company: 'After' } });

    // Load the file, then apply the feed from its cursor: every record as it is now.
    const { changes } = await follow(key, changesCursor);
    const copy = byId(file);
    for (const change of changes) {
      if (change.operation === 'deleted') delete copy[change.id];
      else copy[change.id] = change.object;
    }
    expect(copy).toEqual(byId(await allContacts(key)));
    // Nothing committed after the snapshot is missed; of the file's own changes, only those unnumbered at the snapshot came again.
    const fed = changes.map((change) => change.id);
    expect(fed).toEqual(expect.arrayContaining([...during, after.id, before[3]!.id]));
    expect(fed).not.toContain(before[4]!.id);
  });

  it('is the highest position its snapshot sees numbered: a change unnumbered then comes again, one committed after comes', async () => {
    const org = await server.org();
    const key = await org.key(['crm:read', 'crm:write']);
    const numbered = await contact(key, 'numbered@example.test');
    await server.rest('GET', '/v1/changes?limit=1', { key });
    const unnumbered = await contact(key, 'unnumbered@example.test');

    const reader = await db().connect();
    let cursor: string;
    try {
      await reader.query('begin isolation level repeatable read read only');
      cursor = await snapshotChangesCursor(reader, org.id);
      const seen = await reader.query(`select count(*)::int as n from "Contact" where "organizationId" = $1`, [org.id]);
      expect(seen.rows[0].n).toBe(2); // the unnumbered one is in the snapshot
      // Committed after the snapshot, and numbered before the snapshot's transaction ends.
      const later = await contact(key, 'later@example.test');
      await server.rest('GET', '/v1/changes?limit=1', { key });
      const fromSnapshot = await follow(key, cursor);
      expect(fromSnapshot.changes.map((change) => change.id)).toEqual([unnumbered.id, later.id]);
      expect(fromSnapshot.changes.map((change) => change.id)).not.toContain(numbered.id);
    } finally {
      await reader.query('rollback');
      reader.release();
    }
  });

  it('is what the 410 CURSOR_EXPIRED message sends the client to', async () => {
    const res = await server.rest('GET', '/v1/openapi.json');
    const responses = res.body.paths['/changes'].get.responses;
    expect(responses['410'].description).toMatch(/changesCursor/);
    const field = res.body.components.schemas.Export.properties.changesCursor;
    expect(field.description).toMatch(/every change committed after it/);
    expect(field.anyOf).toEqual([
      { type: 'string', example: expect.stringMatching(/^[A-Za-z0-9_-]+$/) },
      { type: 'null' },
    ]);
  });
});

describe('the Change trigger', () => {
  it('leaves no Change row for the events the feed never serves, and one for each it serves', async () => {
    const org = await server.org();
    const admin = await org.key(['admin']);
    // System events through the API: api_key.created, webhook.created, export.created.
    const apiKey = await server.rest('POST', '/v1/api-keys', {
      key: admin,
      body: { name: 'Reader', scopes: ['crm:read'] },
    });
    expect(apiKey.status, apiKey.text).toBe(201);
    const hook = await server.rest('POST', '/v1/webhooks', {
      key: admin,
      body: { url: 'http://127.0.0.1:9/hook', events: ['contact.created'] },
    });
    expect(hook.status, hook.text).toBe(201);
    expect(
      (await server.rest('POST', '/v1/exports', { key: admin, body: { resource: 'deals', format: 'csv' } })).status,
    ).toBe(202);
    await contact(admin, 'served@example.test');
    const { rows } = await db().query<{ type: string }>(
      `select type from "Change" where "organizationId" = $1 order by seq`,
      [org.id],
    );
    expect(rows.map((row) => row.type)).toEqual(['contact.created']);
    const events = await db().query<{ type: string }>(
      `select distinct type from "Event" where "organizationId" = $1 order by type`,
      [org.id],
    );
    expect(events.rows.map((row) => row.type)).toEqual(
      expect.arrayContaining(['api_key.created', 'export.created', 'webhook.created']),
    );

    // Every event type there is: a Change row exactly when the feed serves it.
    const client = await db().connect();
    try {
      await client.query('begin');
      for (const [i, type] of [...EVENT_TYPES, TEST_EVENT_TYPE].entries()) {
        await client.query(
          `insert into "Event" (id, "organizationId", type, data, "actorType") values ($1, $2, $3, $4, 'system')`,
          [`evt_every_${i}`, org.id, type, JSON.stringify({ object: { id: `rec_${i}` } })],
        );
      }
      const copied = await client.query<{ type: string }>(
        `select type from "Change" where "organizationId" = $1 and "eventId" like 'evt_every_%'`,
        [org.id],
      );
      const served = [...EVENT_TYPES].filter((type) => changeKinds().has(type));
      expect(copied.rows.map((row) => row.type).sort()).toEqual(served.sort());
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});

describe('a cursor read with resources', () => {
  it('follows only those resources (or some of them): another filter or none is a 400 naming after', async () => {
    const org = await server.org();
    const key = await org.key(['crm:read', 'crm:write']);
    const first = await contact(key, 'first@example.test');
    const deal = await server.rest('POST', '/v1/crm/deals', { key, body: { title: 'Passed', currency: 'EUR' } });
    expect(deal.status, deal.text).toBe(201);
    await contact(key, 'second@example.test');

    // Read with resources=contacts: its next has passed the deal's change unread.
    const contactsOnly = await server.rest('GET', '/v1/changes?resources=contacts', { key });
    expect(contactsOnly.body.data.map((c: ChangeBody) => c.resource)).toEqual(['contacts', 'contacts']);
    const bound = contactsOnly.body.next as string;
    const expectRefused = async (query: string, mentions: RegExp) => {
      const res = await server.rest('GET', `/v1/changes?after=${bound}${query}`, { key });
      expect(res.status, res.text).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'after' });
      expect(res.body.error.message).toMatch(/read with resources=contacts/);
      expect(res.body.error.message).toMatch(mentions);
    };
    await expectRefused('', /every resource/);
    await expectRefused('&resources=deals', /deals too/);
    await expectRefused('&resources=contacts,deals', /deals too/);
    expect((await server.rest('GET', `/v1/changes?after=${bound}&resources=contacts`, { key })).status).toBe(200);
    // A change's own cursor is bound the same way.
    const one = contactsOnly.body.data[0].cursor as string;
    expect((await server.rest('GET', `/v1/changes?after=${one}`, { key })).status).toBe(400);

    // Read with every resource: followed with any filter, and then bound to it.
    const all = await server.rest('GET', '/v1/changes?limit=1', { key });
    expect(all.body.data[0].id).toBe(first.id);
    const deals = await server.rest('GET', `/v1/changes?after=${all.body.next}&resources=deals`, { key });
    expect(deals.body.data.map((c: ChangeBody) => c.id)).toEqual([deal.body.id]);
    expect((await server.rest('GET', `/v1/changes?after=${deals.body.next}`, { key })).status).toBe(400);
    // Read with two: followed with either.
    const both = await server.rest('GET', '/v1/changes?resources=deals,contacts&limit=1', { key });
    expect(both.status).toBe(200);
    const narrowed = await server.rest('GET', `/v1/changes?after=${both.body.next}&resources=deals`, { key });
    expect(narrowed.body.data.map((c: ChangeBody) => c.id)).toEqual([deal.body.id]);

    // GraphQL: the same refusal, and an empty list of resources is refused rather than bound to nothing.
    const gql = await server.gql(
      'query ($after: String) { changes(after: $after) { next } }',
      { after: bound },
      { key },
    );
    expect(gql.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'after' });
    const none = await server.gql('{ changes(resources: []) { next } }', {}, { key });
    expect(none.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'resources' });
  });
});
