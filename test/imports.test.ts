import 'reflect-metadata';
// Imports (issue 29, part 2): a file of records posted as the body, validated row by
// row with the resource's own rules and applied by the worker in batches, with a dry
// run, upserts by a unique field and all-or-nothing imports.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prune } from '../src/jobs/prune.js';
import { finishedJob } from './support/file-jobs.js';
import { useServer, type ServerFixture } from './support/fixtures.js';
import { useReceivers, useWorker } from './support/receiver.js';

type Row = Record<string, unknown>;

const server = useServer({ RATE_LIMIT_MAX: '1000000', IMPORT_MAX_BYTES: '1000000', LOG_LEVEL: 'error' });
useWorker(server);
const receivers = useReceivers();

let pool: pg.Pool;
beforeAll(() => void (pool = new pg.Pool({ connectionString: server.databaseUrl, max: 2 })));
afterAll(async () => pool?.end());

const CSV = 'text/csv';
const NDJSON = 'application/x-ndjson';

function post(key: string, query: string, body: string, contentType = CSV) {
  return server.rest('POST', `/v1/imports?${query}`, { key, body, headers: { 'content-type': contentType } });
}

/** Posts the file and waits for the worker to finish it; answers the import as GET shows it. */
async function imported(key: string, query: string, body: string, contentType = CSV): Promise<Row> {
  const created = await post(key, query, body, contentType);
  expect(created.status, created.text).toBe(202);
  return finishedJob(server, 'imports', created.body.id as string, key, { failed: 'answer' });
}

async function count(sql: string, params: unknown[]): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(sql, params);
  return rows[0]!.n;
}

const contactsOf = (orgId: string) =>
  count(`select count(*)::int as n from "Contact" where "organizationId" = $1`, [orgId]);
const eventsOf = (orgId: string) =>
  count(`select count(*)::int as n from "Event" where "organizationId" = $1 and type like 'contact.%'`, [orgId]);

async function tenant(scopes: Parameters<Awaited<ReturnType<ServerFixture['org']>>['key']>[0] = ['admin']) {
  const org = await server.org();
  return { org, key: await org.key(scopes) };
}

describe('the request', () => {
  it('answers 202 with the import queued, and lists and shows it', async () => {
    const { key } = await tenant();
    const res = await post(key, 'resource=contacts&format=csv&dryRun=true', 'email\r\nq@example.test\r\n');
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({
      resource: 'contacts',
      format: 'csv',
      mode: 'create',
      key: null,
      dryRun: true,
      atomic: false,
      rowsProcessed: 0,
      size: Buffer.byteLength('email\r\nq@example.test\r\n'),
    });
    expect(res.body.id).toMatch(/^imp_/);
    const listed = await server.rest('GET', '/v1/imports', { key });
    expect(listed.body.data.map((row: Row) => row.id)).toEqual([res.body.id]);
    expect(listed.body.pagination).toMatchObject({ page: 1, total: 1 });
  });

  it('is in the OpenAPI document: the file as the body, in either type with an example, and its answers', async () => {
    const doc = (await server.rest('GET', '/v1/openapi.json')).body;
    const upload = doc.paths['/imports'].post;
    expect(Object.keys(upload.requestBody.content).sort()).toEqual(['application/x-ndjson', 'text/csv']);
    expect(upload.requestBody.content['text/csv'].example).toMatch(/^email,firstName/);
    expect(upload.requestBody.content['application/x-ndjson'].example).toMatch(/^\{"email"/);
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(['202', '400', '403', '413', '415']));
    expect(upload.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['resource', 'format', 'mode', 'key', 'dryRun', 'atomic']),
    );
    expect(doc.paths['/imports/template'].get.responses['200'].content).toHaveProperty('text/csv');
    expect(doc.paths['/imports/{id}'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Import',
    });
  });

  it('refuses an unknown resource, a key that is not unique, a format the body is not, naming the field', async () => {
    const { key } = await tenant();
    const cases: [string, string][] = [
      ['resource=secrets', 'resource'],
      ['resource=contacts&mode=upsert&key=company', 'key'],
      ['resource=contacts&mode=upsert', 'key'],
      ['resource=contacts&key=email', 'key'],
      ['resource=contacts&mode=merge', 'mode'],
      ['resource=contacts&format=ndjson', 'format'],
      ['resource=contacts&dryRun=maybe', 'dryRun'],
    ];
    for (const [query, field] of cases) {
      const res = await post(key, query, 'email\r\na@example.test\r\n');
      expect(res.status, `${query}: ${res.text}`).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field });
    }
    const unknown = await post(key, 'resource=secrets', 'email\r\n');
    expect(unknown.body.error.message).toMatch(/contacts/);
    expect(await count(`select count(*)::int as n from "Import"`, [])).toBeGreaterThanOrEqual(0);
  });

  it('is 415 for a body that is neither CSV nor NDJSON, and 413 past IMPORT_MAX_BYTES', async () => {
    const { key } = await tenant();
    const json = await post(key, 'resource=contacts', '{"email":"a@example.test"}', 'application/json');
    expect(json.status, json.text).toBe(415);
    expect(json.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const big = `email\r\n${'x'.repeat(60)}@example.test\r\n`.repeat(15_000);
    const tooLarge = await post(key, 'resource=contacts', big);
    expect(tooLarge.status, tooLarge.text.slice(0, 200)).toBe(413);
    expect(tooLarge.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it("needs the resource's write scope; read or write scope holders see it; another organization does not", async () => {
    const org = await server.org();
    const reader = await org.key(['crm:read']);
    const writer = await org.key(['crm:write']);
    const hr = await org.key(['hr:read', 'hr:write']);
    const refused = await post(reader, 'resource=contacts', 'email\r\na@example.test\r\n');
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/crm:write/);
    const done = await imported(writer, 'resource=contacts', 'email\r\nscoped@example.test\r\n');
    expect(done.status).toBe('completed');
    expect((await server.rest('GET', `/v1/imports/${done.id}`, { key: reader })).status).toBe(200);
    expect((await server.rest('GET', `/v1/imports/${done.id}`, { key: hr })).status).toBe(404);
    expect((await server.rest('GET', '/v1/imports', { key: hr })).body.data).toEqual([]);
    const stranger = await tenant();
    expect((await server.rest('GET', `/v1/imports/${done.id}`, { key: stranger.key })).status).toBe(404);
    expect((await server.rest('GET', '/v1/imports', { key: stranger.key })).body.data).toEqual([]);
  });
});

describe('applying rows', () => {
  it('creates from CSV; a refused row carries the 400 the API answers for the same input', async () => {
    const { org, key } = await tenant();
    const file =
      'email,firstName,lastName,tags,paymentTermsDays\r\n' +
      'ada@example.test,Ada,Lovelace,"[""vip"",""uk""]",30\r\n' +
      'not-an-email,Bad,Row,,\r\n' +
      'grace@example.test,Grace,Hopper,,\r\n' +
      'long@example.test,Long,Terms,,9999\r\n';
    const done = await imported(key, 'resource=contacts&format=csv', file);
    expect(done).toMatchObject({
      status: 'completed',
      rowsTotal: 4,
      rowsProcessed: 4,
      rowsCreated: 2,
      rowsUpdated: 0,
      rowsRefused: 2,
    });
    const direct = [
      await server.rest('POST', '/v1/crm/contacts', {
        key,
        body: { email: 'not-an-email', firstName: 'Bad', lastName: 'Row' },
      }),
      await server.rest('POST', '/v1/crm/contacts', {
        key,
        body: { email: 'long@example.test', firstName: 'Long', lastName: 'Terms', paymentTermsDays: 9999 },
      }),
    ];
    expect(direct.map((res) => res.status)).toEqual([400, 400]);
    expect(done.errors).toEqual([
      { row: 2, code: 'VALIDATION_ERROR', field: direct[0]!.body.error.field, message: direct[0]!.body.error.message },
      { row: 4, code: 'VALIDATION_ERROR', field: direct[1]!.body.error.field, message: direct[1]!.body.error.message },
    ]);
    const ada = await server.rest('GET', '/v1/crm/contacts?email=ada@example.test', { key });
    expect(ada.body.data[0]).toMatchObject({ firstName: 'Ada', tags: ['vip', 'uk'], paymentTermsDays: 30 });
    expect(await contactsOf(org.id)).toBe(2);
  });

  it('upserts from NDJSON by email: a match is updated (PUT), a new one created, a taken key is the 409', async () => {
    const { key } = await tenant();
    const first = await server.rest('POST', '/v1/crm/contacts', {
      key,
      body: { email: 'ada@example.test', company: 'Old Co' },
    });
    expect(first.status).toBe(201);
    const file = [
      { email: 'ADA@example.test', company: 'New Co' },
      { email: 'new@example.test', firstName: 'New' },
      { email: 'new@example.test', lastName: 'Twice' },
      'not json',
      [1, 2],
      { email: 'x@example.test', nope: 1 },
    ]
      .map((line) => (typeof line === 'string' ? line : JSON.stringify(line)))
      .join('\n');
    const done = await imported(key, 'resource=contacts&format=ndjson&mode=upsert&key=email', file, NDJSON);
    expect(done).toMatchObject({ status: 'completed', rowsTotal: 6, rowsCreated: 1, rowsUpdated: 2, rowsRefused: 3 });
    expect(done.errors).toEqual([
      { row: 4, code: 'VALIDATION_ERROR', field: null, message: 'The line is not valid JSON' },
      { row: 5, code: 'VALIDATION_ERROR', field: null, message: 'The line must be a JSON object' },
      { row: 6, code: 'VALIDATION_ERROR', field: 'nope', message: "Unknown field 'nope'" },
    ]);
    const ada = await server.rest('GET', `/v1/crm/contacts/${first.body.id}`, { key });
    expect(ada.body.company).toBe('New Co');
    const fresh = await server.rest('GET', '/v1/crm/contacts?email=new@example.test', { key });
    expect(fresh.body.data[0]).toMatchObject({ firstName: 'New', lastName: 'Twice' });

    // In create mode, an email already taken is the API's 409, and the other rows still go in.
    const again = await imported(key, 'resource=contacts', 'email\r\nada@example.test\r\nthird@example.test\r\n');
    const taken = await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'ada@example.test' } });
    expect(taken.status).toBe(409);
    expect(again).toMatchObject({ status: 'completed', rowsCreated: 1, rowsRefused: 1 });
    expect(again.errors).toEqual([
      { row: 1, code: 'CONFLICT', field: taken.body.error.field, message: taken.body.error.message },
    ]);
  });

  it('a dry run validates every row and writes nothing (no record, no event); its counts say what would happen', async () => {
    const { org, key } = await tenant();
    await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'kept@example.test' } });
    const [contactsBefore, eventsBefore] = [await contactsOf(org.id), await eventsOf(org.id)];
    const file =
      'email,company\r\nkept@example.test,Changed\r\nnew1@example.test,A\r\nnew1@example.test,B\r\nbad,C\r\n';
    const done = await imported(key, 'resource=contacts&mode=upsert&key=email&dryRun=true', file);
    expect(done).toMatchObject({ status: 'completed', dryRun: true, rowsCreated: 1, rowsUpdated: 2, rowsRefused: 1 });
    expect(await contactsOf(org.id)).toBe(contactsBefore);
    expect(await eventsOf(org.id)).toBe(eventsBefore);
    const kept = await server.rest('GET', '/v1/crm/contacts?email=kept@example.test', { key });
    expect(kept.body.data[0].company).toBeNull();
  });

  it('atomic: one refused row and nothing is written; a clean file is written whole', async () => {
    const { org, key } = await tenant();
    const refused = await imported(key, 'resource=contacts&atomic=true', 'email\r\na1@example.test\r\nbad\r\n');
    expect(refused).toMatchObject({ status: 'failed', rowsCreated: 0, rowsRefused: 1 });
    expect(refused.failureReason).toMatch(/atomic/);
    expect(await contactsOf(org.id)).toBe(0);
    expect(await eventsOf(org.id)).toBe(0);
    const clean = await imported(
      key,
      'resource=contacts&atomic=true',
      'email\r\na1@example.test\r\na2@example.test\r\n',
    );
    expect(clean).toMatchObject({ status: 'completed', rowsCreated: 2, rowsRefused: 0 });
    expect(await contactsOf(org.id)).toBe(2);
  });

  it("raises each row's own events with the caller as actor, and import.completed to a webhook", async () => {
    const { org, key } = await tenant();
    const receiver = await receivers();
    const hook = await server.rest('POST', '/v1/webhooks', {
      key,
      body: { url: receiver.url, events: ['import.completed'] },
    });
    expect(hook.status, hook.text).toBe(201);
    const direct = await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'direct@example.test' } });
    const done = await imported(key, 'resource=contacts', 'email\r\ne1@example.test\r\ne2@example.test\r\n');
    const { rows } = await pool.query<{ type: string; actorType: string; actorId: string; email: string }>(
      `select type, "actorType", "actorId", data->'object'->>'email' as email from "Event"
       where "organizationId" = $1 and type = 'contact.created' order by "createdAt", id`,
      [org.id],
    );
    const directEvent = rows.find((row) => row.email === 'direct@example.test')!;
    expect(directEvent.actorType).toBe('api_key');
    expect(rows.filter((row) => row.email !== 'direct@example.test')).toEqual([
      { type: 'contact.created', actorType: 'api_key', actorId: directEvent.actorId, email: 'e1@example.test' },
      { type: 'contact.created', actorType: 'api_key', actorId: directEvent.actorId, email: 'e2@example.test' },
    ]);
    expect(direct.status).toBe(201);
    const [delivery] = await receiver.waitFor(1, 20_000);
    const body = JSON.parse(delivery!.body) as { type: string; data: { object: Row } };
    expect(body.type).toBe('import.completed');
    expect(body.data.object).toMatchObject({ id: done.id, status: 'completed', rowsCreated: 2 });
  });

  it('reads back the cells an export neutralised, and ignores its read-only columns and names', async () => {
    const { key } = await tenant();
    const made = await server.rest('POST', '/v1/crm/contacts', {
      key,
      body: {
        email: 'formula@example.test',
        firstName: '=Ada',
        company: '@Engines',
        phone: '+44 20 7946 0000',
        tags: ['-x'],
      },
    });
    expect(made.status, made.text).toBe(201);
    const exported = await server.rest('POST', '/v1/exports', { key, body: { resource: 'contacts', format: 'csv' } });
    await finishedJob(server, 'exports', exported.body.id as string, key, { timeoutMs: 30_000 });
    const file = await server.rest('GET', `/v1/exports/${exported.body.id}/download`, { key });
    expect(file.text).toContain("'+44 20 7946 0000");
    expect(file.text).toContain("'=Ada");
    const other = await tenant();
    const done = await imported(other.key, 'resource=contacts', file.text);
    expect(done).toMatchObject({ status: 'completed', rowsCreated: 1, rowsRefused: 0 });
    const copy = await server.rest('GET', '/v1/crm/contacts', { key: other.key });
    const pick = ({ email, firstName, company, phone, tags }: Row) => ({ email, firstName, company, phone, tags });
    expect(pick(copy.body.data[0])).toEqual(pick(made.body));
    expect(copy.body.data[0].id).not.toBe(made.body.id);
  });

  it('serves a template whose header and example row import as they are', async () => {
    const { key } = await tenant();
    const template = await server.rest('GET', '/v1/imports/template?resource=contacts', { key });
    expect(template.status, template.text).toBe(200);
    expect(template.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header] = template.text.split('\r\n');
    expect(header).toBe('firstName,lastName,email,company,phone,tags,paymentTermsDays');
    const done = await imported(key, 'resource=contacts', template.text);
    expect(done).toMatchObject({ status: 'completed', rowsCreated: 1, rowsRefused: 0 });
    const unknown = await server.rest('GET', '/v1/imports/template?resource=nope', { key });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.field).toBe('resource');
  });

  it("invoices: the resource's own rules (numbering, references) per row, in file order; a dry run takes no number", async () => {
    const { key } = await tenant();
    const contact = await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'billed@example.test' } });
    const line = { description: 'Work', quantity: 1, unitAmount: 10_000 };
    const file = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        JSON.stringify({
          contactId: i === 1 ? 'con_00000000000000000000000000' : contact.body.id,
          currency: 'EUR',
          lines: [line],
        }),
      ).join('\n');
    const dry = await imported(key, 'resource=invoices&dryRun=true', file(3), NDJSON);
    expect(dry).toMatchObject({ status: 'completed', rowsCreated: 2, rowsRefused: 1 });
    expect(dry.errors).toEqual([
      {
        row: 2,
        code: 'VALIDATION_ERROR',
        field: 'contactId',
        message: "'contactId': no contact with this id in the organization",
      },
    ]);
    const done = await imported(key, 'resource=invoices', file(4), NDJSON);
    expect(done).toMatchObject({ status: 'completed', rowsCreated: 3, rowsRefused: 1 });
    const invoices = await server.rest('GET', '/v1/finance/invoices?sort=createdAt', { key });
    expect(invoices.body.data.map((invoice: Row) => invoice.number)).toEqual([
      'INV-000001',
      'INV-000002',
      'INV-000003',
    ]);
    const upserted = await imported(
      key,
      'resource=invoices&mode=upsert&key=number',
      JSON.stringify({ number: 'INV-000002', notes: 'Changed' }),
      NDJSON,
    );
    expect(upserted).toMatchObject({ status: 'completed', rowsUpdated: 1, rowsCreated: 0 });
    const second = invoices.body.data[1] as Row;
    expect((await server.rest('GET', `/v1/finance/invoices/${String(second.id)}`, { key })).body.notes).toBe('Changed');
  });

  it('fails an unreadable CSV saying where', async () => {
    const { key } = await tenant();
    const done = await imported(key, 'resource=contacts', 'email,company\r\na@example.test,"unclosed\r\n');
    expect(done.status).toBe('failed');
    expect(done.failureReason).toMatch(/CSV/);
  });

  it('imports 5,000 contacts in batches, every one with its event', async () => {
    const { org, key } = await tenant();
    const lines = ['email,firstName,tags'];
    for (let i = 0; i < 5_000; i++) lines.push(`bulk-${i}@example.test,N${i},"[""t${i % 7}""]"`);
    const started = Date.now();
    const done = await imported(key, 'resource=contacts', lines.join('\r\n'));
    const seconds = (Date.now() - started) / 1000;
    expect(done).toMatchObject({ status: 'completed', rowsTotal: 5_000, rowsCreated: 5_000, rowsRefused: 0 });
    expect(await contactsOf(org.id)).toBe(5_000);
    expect(await eventsOf(org.id)).toBe(5_000);
    console.log(`imported 5,000 contacts in ${seconds.toFixed(1)} s (${Math.round(5_000 / seconds)} rows/s)`);
  });
});

describe('many rows written at once', () => {
  it("names each clash, with each other and with older records, by the API's 409; the rest go in", async () => {
    const { org, key } = await tenant();
    const older = await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'older@example.test' } });
    expect(older.status).toBe(201);
    const taken = await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'older@example.test' } });
    expect(taken.status).toBe(409);
    // 1,200 rows: three batches of 500; clashes inside a batch, with an older record, and across batches.
    const emails = Array.from({ length: 1_200 }, (_, i) => `many-${i}@example.test`);
    emails[4] = 'many-2@example.test'; // the same batch, an earlier row
    emails[10] = 'OLDER@example.test'; // an older record (stored lower-cased)
    emails[700] = 'many-3@example.test'; // an earlier batch
    emails[1_100] = 'many-700@example.test'; // row 701 was refused, so its key was never taken: this one goes in
    const file = ['email,firstName', ...emails.map((email, i) => `${email},N${i}`)].join('\r\n');
    const done = await imported(key, 'resource=contacts', file);
    const conflict = { code: 'CONFLICT', field: taken.body.error.field, message: taken.body.error.message };
    expect(done).toMatchObject({ status: 'completed', rowsTotal: 1_200, rowsCreated: 1_197, rowsRefused: 3 });
    expect(done.errors).toEqual([
      { row: 5, ...conflict },
      { row: 11, ...conflict },
      { row: 701, ...conflict },
    ]);
    expect(await contactsOf(org.id)).toBe(1 + 1_197);
    expect(await eventsOf(org.id)).toBe(1 + 1_197);
    const listed = await server.rest('GET', '/v1/crm/contacts?limit=1', { key });
    expect(listed.body.pagination.total).toBe(1 + 1_197);
    const first = await server.rest('GET', '/v1/crm/contacts?email=many-2@example.test', { key });
    expect(first.body.data.map((row: Row) => row.firstName)).toEqual(['N2']);
  });

  it("each row's event is its record as GET shows it, by the caller, in file order, to webhooks and the change feed", async () => {
    const { key } = await tenant();
    const receiver = await receivers();
    const hook = await server.rest('POST', '/v1/webhooks', {
      key,
      body: { url: receiver.url, events: ['contact.created'] },
    });
    expect(hook.status, hook.text).toBe(201);
    const direct = await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'direct@example.test' } });
    const file =
      'email,firstName,tags\r\nb1@example.test,B1,"[""x""]"\r\nb2@example.test,B2,\r\nb3@example.test,B3,\r\n';
    const done = await imported(key, 'resource=contacts', file);
    expect(done).toMatchObject({ status: 'completed', rowsCreated: 3 });

    const feed = await server.rest('GET', '/v1/changes?resources=contacts', { key });
    const changes = feed.body.data as { id: string; operation: string; object: Row; actor: Row }[];
    expect(changes.map((change) => [change.operation, change.object.email])).toEqual([
      ['created', 'direct@example.test'],
      ['created', 'b1@example.test'],
      ['created', 'b2@example.test'],
      ['created', 'b3@example.test'],
    ]);
    for (const change of changes.slice(1)) {
      expect(change.actor).toEqual(changes[0]!.actor);
      const shown = await server.rest('GET', `/v1/crm/contacts/${change.id}`, { key });
      expect(change.object).toEqual(shown.body);
    }
    expect(changes[1]!.object).toMatchObject({ firstName: 'B1', tags: ['x'], company: null });
    const deliveries = await receiver.waitFor(4, 20_000);
    const delivered = deliveries.map((delivery) => JSON.parse(delivery.body) as { data: { object: Row } });
    expect(delivered.map((body) => body.data.object.email).sort()).toEqual(
      ['b1@example.test', 'b2@example.test', 'b3@example.test', 'direct@example.test'].sort(),
    );
    expect(direct.status).toBe(201);
  });

  it('atomic: a clash in the bulk write rolls back every row, events included, and lists the clash', async () => {
    const { org, key } = await tenant();
    await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'kept@example.test' } });
    const [contactsBefore, eventsBefore] = [await contactsOf(org.id), await eventsOf(org.id)];
    const file = 'email\r\nfresh1@example.test\r\nkept@example.test\r\nfresh2@example.test\r\nfresh1@example.test\r\n';
    const done = await imported(key, 'resource=contacts&atomic=true', file);
    expect(done).toMatchObject({ status: 'failed', rowsCreated: 0, rowsRefused: 2 });
    expect((done.errors as Row[]).map((error) => [error.row, error.code, error.field])).toEqual([
      [2, 'CONFLICT', 'email'],
      [4, 'CONFLICT', 'email'],
    ]);
    expect(await contactsOf(org.id)).toBe(contactsBefore);
    expect(await eventsOf(org.id)).toBe(eventsBefore);
    const dry = await imported(key, 'resource=contacts&dryRun=true', file);
    expect(dry).toMatchObject({ status: 'completed', rowsCreated: 2, rowsRefused: 2 });
    expect(await contactsOf(org.id)).toBe(contactsBefore);
  });

  it('upsert: a key repeated in the batch updates the record its first row made; a refused first row leaves it free', async () => {
    const { key } = await tenant();
    const file = [
      { email: 'rep@example.test', firstName: 'One' },
      { email: 'REP@example.test', lastName: 'Two' },
      { email: 'free@example.test', paymentTermsDays: 9999 },
      { email: 'free@example.test', firstName: 'Free' },
      { email: 'rep@example.test', company: 'Three' },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n');
    const done = await imported(key, 'resource=contacts&format=ndjson&mode=upsert&key=email', file, NDJSON);
    expect(done).toMatchObject({ status: 'completed', rowsCreated: 2, rowsUpdated: 2, rowsRefused: 1 });
    expect((done.errors as Row[]).map((error) => [error.row, error.field])).toEqual([[3, 'paymentTermsDays']]);
    const rep = (await server.rest('GET', '/v1/crm/contacts?email=rep@example.test', { key })).body.data[0] as Row;
    expect(rep).toMatchObject({ firstName: 'One', lastName: 'Two', company: 'Three' });
    const free = (await server.rest('GET', '/v1/crm/contacts?email=free@example.test', { key })).body.data[0] as Row;
    expect(free).toMatchObject({ firstName: 'Free', paymentTermsDays: null });
    const events = await pool.query<{ type: string }>(
      `select type from "Event" where data->'object'->>'id' = $1 order by "createdAt", id`,
      [rep.id],
    );
    expect(events.rows.map((row) => row.type)).toEqual(['contact.created', 'contact.updated', 'contact.updated']);
  });

  it("deals: a reference that is not the organization's and a stage a deal cannot start in are the API's 400s", async () => {
    const { key } = await tenant();
    const contact = await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'owner@example.test' } });
    const stranger = await tenant();
    const foreign = await server.rest('POST', '/v1/crm/contacts', {
      key: stranger.key,
      body: { email: 'foreign@example.test' },
    });
    const rows = [
      { title: 'Good', currency: 'eur', contactId: contact.body.id },
      { title: 'Foreign', currency: 'EUR', contactId: foreign.body.id },
      { title: 'Won', currency: 'EUR', stage: 'won' },
      { title: 'No contact', currency: 'USD', amount: 500 },
    ];
    const direct = await Promise.all(
      rows.slice(1, 3).map((body) => server.rest('POST', '/v1/crm/deals', { key, body })),
    );
    expect(direct.map((res) => res.status)).toEqual([400, 400]);
    const done = await imported(
      key,
      'resource=deals&format=ndjson',
      rows.map((row) => JSON.stringify(row)).join('\n'),
      NDJSON,
    );
    expect(done).toMatchObject({ status: 'completed', rowsCreated: 2, rowsRefused: 2 });
    expect(done.errors).toEqual(
      direct.map((res, i) => ({
        row: i + 2,
        code: 'VALIDATION_ERROR',
        field: res.body.error.field,
        message: res.body.error.message,
      })),
    );
    const deals = await server.rest('GET', '/v1/crm/deals?sort=createdAt', { key });
    expect(deals.body.data.map((deal: Row) => [deal.title, deal.stage, deal.contactId, deal.currency])).toEqual([
      ['Good', 'lead', contact.body.id, 'EUR'],
      ['No contact', 'lead', null, 'USD'],
    ]);
  });

  it('holidays: a clash on a date field is named as the API names it', async () => {
    const { key } = await tenant(['hr:read', 'hr:write']);
    const older = await server.rest('POST', '/v1/hr/holidays', { key, body: { date: '2031-01-01', name: 'New year' } });
    expect(older.status, older.text).toBe(201);
    const taken = await server.rest('POST', '/v1/hr/holidays', { key, body: { date: '2031-01-01', name: 'Again' } });
    expect(taken.status).toBe(409);
    const file = 'date,name\r\n2031-01-01,Again\r\n2031-05-01,May day\r\n2031-05-01,Twice\r\n2031-12-25,Christmas\r\n';
    const done = await imported(key, 'resource=holidays', file);
    const conflict = { code: 'CONFLICT', field: taken.body.error.field, message: taken.body.error.message };
    expect(done).toMatchObject({ status: 'completed', rowsCreated: 2, rowsRefused: 2 });
    expect(done.errors).toEqual([
      { row: 1, ...conflict },
      { row: 3, ...conflict },
    ]);
  });

  it('prunes imports that ended more than IMPORT_RETENTION_DAYS ago; a running one stays however old', async () => {
    const { key } = await tenant();
    const old = await imported(key, 'resource=contacts', 'email\r\nold@example.test\r\n');
    const fresh = await imported(key, 'resource=contacts', 'email\r\nfresh@example.test\r\n');
    const stuck = await imported(key, 'resource=contacts', 'email\r\nstuck@example.test\r\n');
    const days = server.config.importRetentionDays + 1;
    await pool.query(
      `update "Import" set "createdAt" = now() - make_interval(days => $2), "completedAt" = now() - make_interval(days => $2)
       where id = $1`,
      [old.id, days],
    );
    await pool.query(
      `update "Import" set status = 'running', "createdAt" = now() - make_interval(days => $2), "completedAt" = null
       where id = $1`,
      [stuck.id, days],
    );
    const pruned = await prune({ pool, config: server.config });
    expect(pruned.imports).toBeGreaterThanOrEqual(1);
    expect((await server.rest('GET', `/v1/imports/${String(old.id)}`, { key })).status).toBe(404);
    expect((await server.rest('GET', `/v1/imports/${String(fresh.id)}`, { key })).status).toBe(200);
    expect((await server.rest('GET', `/v1/imports/${String(stuck.id)}`, { key })).status).toBe(200);
    await pool.query(`update "Import" set status = 'completed', "completedAt" = now() where id = $1`, [stuck.id]);
  });
});

describe('the CLI', () => {
  const ROOT = path.resolve(import.meta.dirname, '..');
  function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: server.databaseUrl, NODE_ENV: 'test' };
      for (const name of ['DATA_DIR', 'LOG_LEVEL', 'NODE_OPTIONS']) delete env[name];
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: ROOT, env });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  it('imports a file, waiting for the worker, and says what it refused; a wrong key names the option', async () => {
    const { org } = await tenant();
    const dir = await mkdtemp(path.join(tmpdir(), 'import-cli-'));
    const file = path.join(dir, 'contacts.csv');
    await writeFile(file, 'email,firstName\r\ncli@example.test,Cli\r\nnope,Bad\r\n');
    const done = await cli(['import', 'create', '--org', org.id, '--resource', 'contacts', '--file', file]);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain('Created 1, updated 0, refused 1 of 2 rows of contacts');
    expect(done.stdout).toContain("row 2 (email): 'email': must be a valid email address");
    expect(await contactsOf(org.id)).toBe(1);
    const wrong = await cli([
      'import',
      'create',
      '--org',
      org.id,
      '--resource',
      'contacts',
      '--file',
      file,
      '--mode',
      'upsert',
    ]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/--key/);
    await rm(dir, { recursive: true, force: true });
  }, 120_000);
});
