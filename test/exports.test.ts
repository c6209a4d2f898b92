import 'reflect-metadata';
// Exports (issue 16): asked for over REST and GraphQL, written by the worker in
// keyset batches into PostgreSQL, downloaded as RFC 4180 CSV or NDJSON.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prune } from '../src/jobs/prune.js';
import { finishedJob } from './support/file-jobs.js';
import { useServer, type ServerFixture } from './support/fixtures.js';
import { useWorker } from './support/receiver.js';

type Row = Record<string, unknown>;

function useDb(server: ServerFixture): () => pg.Pool {
  let pool: pg.Pool | undefined;
  beforeAll(() => void (pool = new pg.Pool({ connectionString: server.databaseUrl, max: 2 })));
  afterAll(async () => pool?.end());
  return () => pool!;
}

const ndjson = (text: string): Row[] =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Row);

/** What a CSV cell holds for a REST value (format.ts): JSON text for arrays, '' for null, ' before a formula. */
function csvCell(value: unknown): string {
  if (value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  const text = String(value);
  return typeof value === 'string' && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

describe('without a worker: requests, validation, tenancy', () => {
  const server = useServer({ RATE_LIMIT_MAX: '1000000' });
  let key: string;
  let other: string;
  beforeAll(async () => {
    key = await (await server.org()).key(['admin']);
    other = await (await server.org()).key(['admin']);
  });

  it('answers 202 with the export pending, lists and shows it; the download is 409 until completed', async () => {
    const created = await server.rest('POST', '/v1/exports', { key, body: { resource: 'contacts', format: 'csv' } });
    expect(created.status, created.text).toBe(202);
    expect(created.body).toMatchObject({
      resource: 'contacts',
      format: 'csv',
      filters: {},
      status: 'pending',
      rowsWritten: 0,
      rowsTotal: null,
      size: 0,
      completedAt: null,
    });
    expect(created.body.id).toMatch(/^xpt_/);
    const shown = await server.rest('GET', `/v1/exports/${created.body.id}`, { key });
    expect(shown.body).toEqual(created.body);
    const listed = await server.rest('GET', '/v1/exports', { key });
    expect(listed.body.data).toEqual([created.body]);
    const download = await server.rest('GET', `/v1/exports/${created.body.id}/download`, { key });
    expect(download.status).toBe(409);
    expect(download.body.error.code).toBe('CONFLICT');
  });

  it('refuses an unknown resource, a bad filter, an unknown filter and a bad format, naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ resource: 'secrets', format: 'csv' }, 'resource'],
      [{ resource: 'deals', format: 'csv', filters: { stage: 'nope' } }, 'filters.stage'],
      [{ resource: 'contacts', format: 'csv', filters: { page: 2 } }, 'filters.page'],
      [{ resource: 'events', format: 'json', filters: { type: 'no.such' } }, 'filters.type'],
      [{ resource: 'contacts', format: 'xlsx' }, 'format'],
    ];
    for (const [body, field] of cases) {
      const res = await server.rest('POST', '/v1/exports', { key, body });
      expect(res.status, res.text).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field });
    }
    const unknown = await server.rest('POST', '/v1/exports', { key, body: { resource: 'secrets', format: 'csv' } });
    // The message lists what is declared now.
    expect(unknown.body.error.message).toMatch(/contacts.*deals.*employees.*events.*payroll-runs/);
  });

  it("keeps another organization's exports out of reach (404) and needs the resource's read scope (403)", async () => {
    const created = await server.rest('POST', '/v1/exports', { key, body: { resource: 'deals', format: 'json' } });
    expect((await server.rest('GET', `/v1/exports/${created.body.id}`, { key: other })).status).toBe(404);
    expect((await server.rest('GET', `/v1/exports/${created.body.id}/download`, { key: other })).status).toBe(404);
    expect((await server.rest('GET', '/v1/exports', { key: other })).body.data).toEqual([]);
    // Issue 26: no longer admin only; a crm:read key exports the CRM, not finance nor the events.
    const reader = await (await server.org()).key(['crm:read']);
    for (const resource of ['invoices', 'events']) {
      const refused = await server.rest('POST', '/v1/exports', { key: reader, body: { resource, format: 'csv' } });
      expect(refused.status, refused.text).toBe(403);
    }
    const allowed = await server.rest('POST', '/v1/exports', {
      key: reader,
      body: { resource: 'deals', format: 'csv' },
    });
    expect(allowed.status, allowed.text).toBe(202);
  });

  it('is in GraphQL with the same checks', async () => {
    const created = await server.gql(
      `mutation ($input: CreateExportInput!) { createExport(input: $input) { id status resource format filters } }`,
      { input: { resource: 'contacts', format: 'json', filters: { company: 'Acme' } } },
      { key },
    );
    expect(created.errors).toBeUndefined();
    expect(created.data.createExport).toMatchObject({ status: 'pending', filters: { company: 'Acme' } });
    const shown = await server.gql(
      `query ($id: ID!) { export(id: $id) { id status } }`,
      {
        id: created.data.createExport.id,
      },
      { key },
    );
    expect(shown.data.export.status).toBe('pending');
    const bad = await server.gql(
      `mutation { createExport(input: {resource: "nothing", format: csv}) { id } }`,
      {},
      { key },
    );
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'resource' });
  });
});

describe('through the worker', () => {
  const server = useServer({ RATE_LIMIT_MAX: '1000000' });
  useWorker(server);
  const db = useDb(server);

  const completed = (key: string, id: string) => finishedJob(server, 'exports', id, key, { timeoutMs: 120_000 });

  async function exportOf(
    key: string,
    body: Row,
  ): Promise<{ export: Row; file: string; type: string | null; disposition: string | null }> {
    const created = await server.rest('POST', '/v1/exports', { key, body });
    expect(created.status, created.text).toBe(202);
    const done = await completed(key, created.body.id as string);
    const res = await server.rest('GET', `/v1/exports/${created.body.id}/download`, { key });
    expect(res.status, res.text.slice(0, 200)).toBe(200);
    return {
      export: done,
      file: res.text,
      type: res.headers.get('content-type'),
      disposition: res.headers.get('content-disposition'),
    };
  }

  it('exports 100,000 contacts row for row in CSV and JSON, showing progress while running, and raises export.completed', async () => {
    const org = await server.org();
    const key = await org.key(['admin']);
    // Seven contacts per createdAt: batches of 1,000 end inside a run of equal timestamps (the id breaks ties).
    await db().query(
      `insert into "Contact" (id, "organizationId", email, "firstName", "lastName", company, phone, tags, "createdAt", "updatedAt")
       select 'con_' || lpad(to_hex(i), 26, '0'), $1, 'c' || i || '@bulk.example', 'First ' || i,
              case when i % 2 = 0 then null else 'Last, "' || i || '"' end, 'Co ' || (i % 13),
              '+1555' || i, case when i % 3 = 0 then array['x', 'y'] else array[]::text[] end,
              timestamptz '2024-01-01 00:00:00Z' + (i / 7) * interval '1 second', now()
       from generate_series(1, 100000) as i`,
      [org.id],
    );

    // CSV, watching it run.
    const created = await server.rest('POST', '/v1/exports', { key, body: { resource: 'contacts', format: 'csv' } });
    const seen: Row[] = [];
    await finishedJob(server, 'exports', created.body.id as string, key, { timeoutMs: 120_000, seen });
    const running = seen.find(
      (s) => s.status === 'running' && (s.rowsWritten as number) > 0 && (s.rowsWritten as number) < 100_000,
    );
    expect(running, JSON.stringify(seen.map((s) => [s.status, s.rowsWritten]))).toMatchObject({ rowsTotal: 100_000 });
    const csvExport = seen.at(-1)!;
    expect(csvExport).toMatchObject({ rowsWritten: 100_000, rowsTotal: 100_000, failureReason: null });
    const csv = await server.rest('GET', `/v1/exports/${created.body.id}/download`, { key });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="contacts-${created.body.id}.csv"`);
    expect(Buffer.byteLength(csv.text)).toBe(csvExport.size);

    const json = await exportOf(key, { resource: 'contacts', format: 'json' });
    expect(json.type).toBe('application/x-ndjson');
    const rows = ndjson(json.file);
    expect(rows).toHaveLength(100_000);
    // In keyset order, each row as generated.
    rows.forEach((row, index) => {
      const i = index + 1;
      if (row.id !== `con_${i.toString(16).padStart(26, '0')}` || row.email !== `c${i}@bulk.example`) {
        throw new Error(`row ${index} is ${JSON.stringify(row)}`);
      }
    });
    // Exactly the REST objects: the first and last pages of the list.
    const first = await server.rest('GET', '/v1/crm/contacts?limit=100', { key });
    expect(rows.slice(0, 100)).toEqual(first.body.data);
    const last = await server.rest('GET', '/v1/crm/contacts?limit=100&page=1000', { key });
    expect(rows.slice(-100)).toEqual(last.body.data);

    // The CSV, parsed back, is the same rows cell for cell.
    const records = parseCsv(csv.text, { relax_column_count: false }) as string[][];
    const [header, ...cells] = records;
    expect(header).toEqual(Object.keys(rows[0]!));
    expect(cells).toHaveLength(100_000);
    cells.forEach((record, index) => {
      const expected = header!.map((column) => csvCell(rows[index]![column]));
      if (JSON.stringify(record) !== JSON.stringify(expected)) {
        throw new Error(`CSV row ${index}: ${JSON.stringify(record)} != ${JSON.stringify(expected)}`);
      }
    });
    expect(cells[0]![header!.indexOf('phone')]).toBe("'+15551");

    // export.completed, with the export as GET shows it.
    const events = await server.rest('GET', '/v1/events?type=export.completed', { key });
    const event = events.body.data.find((e: { data: { object: Row } }) => e.data.object.id === created.body.id);
    expect(event.data.object).toEqual(csvExport);
  }, 240_000);

  it('quotes commas, quotes and line breaks and neutralises formulas (RFC 4180)', async () => {
    const key = await (await server.org()).key(['admin']);
    const tricky = [
      { email: 'a@example.test', firstName: 'Comma, Inc', lastName: 'Say "hi"', company: 'Line\nbreak\r\nhere' },
      { email: 'b@example.test', firstName: '=HYPERLINK("http://evil")', lastName: '@SUM(A1)', company: '-2+3' },
    ];
    for (const body of tricky) expect((await server.rest('POST', '/v1/crm/contacts', { key, body })).status).toBe(201);
    const { file } = await exportOf(key, { resource: 'contacts', format: 'csv' });
    expect(file).toContain('"Comma, Inc","Say ""hi""",a@example.test,"Line\nbreak\r\nhere"');
    expect(file).toContain(`"'=HYPERLINK(""http://evil"")",'@SUM(A1),b@example.test,'-2+3`);
    const records = parseCsv(file, { columns: true }) as Row[];
    expect(records.map((r) => [r.firstName, r.lastName, r.company])).toEqual([
      ['Comma, Inc', 'Say "hi"', 'Line\nbreak\r\nhere'],
      [`'=HYPERLINK("http://evil")`, "'@SUM(A1)", "'-2+3"],
    ]);
    const json = ndjson((await exportOf(key, { resource: 'contacts', format: 'json' })).file);
    expect(json.map((r) => r.firstName)).toEqual(['Comma, Inc', '=HYPERLINK("http://evil")']);
  });

  it("holds only the organization's rows, narrowed by the filters", async () => {
    const a = await (await server.org()).key(['admin']);
    const b = await (await server.org()).key(['admin']);
    for (const [key, email, company] of [
      [a, 'a1@example.test', 'Acme'],
      [a, 'a2@example.test', 'Other'],
      [b, 'b1@example.test', 'Acme'],
    ]) {
      expect((await server.rest('POST', '/v1/crm/contacts', { key: key!, body: { email, company } })).status).toBe(201);
    }
    const all = ndjson((await exportOf(a, { resource: 'contacts', format: 'json' })).file);
    expect(all.map((r) => r.email)).toEqual(['a1@example.test', 'a2@example.test']);
    const acme = await exportOf(a, { resource: 'contacts', format: 'json', filters: { company: 'acme' } });
    expect(ndjson(acme.file).map((r) => r.email)).toEqual(['a1@example.test']);
    expect(acme.export).toMatchObject({ rowsTotal: 1, rowsWritten: 1, filters: { company: 'acme' } });
    const events = ndjson(
      (await exportOf(b, { resource: 'events', format: 'json', filters: { type: 'contact.created' } })).file,
    );
    expect(events.map((e) => (e.data as { object: Row }).object.email)).toEqual(['b1@example.test']);
    expect(Object.keys(events[0]!)).toEqual(['id', 'type', 'created', 'data', 'actor']);
    // An empty export is a header alone.
    const none = await exportOf(b, { resource: 'employees', format: 'csv' });
    expect(none.file.split('\r\n')[0]).toMatch(/^id,/);
    expect(none.export).toMatchObject({ rowsTotal: 0, rowsWritten: 0 });
  });

  it('prunes exports past EXPORT_RETENTION_DAYS with their files, and goes with its organization', async () => {
    const org = await server.org();
    const key = await org.key(['admin']);
    await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'p@example.test' } });
    const old = await exportOf(key, { resource: 'contacts', format: 'csv' });
    const fresh = await exportOf(key, { resource: 'contacts', format: 'json' });
    await db().query(`update "Export" set "createdAt" = now() - interval '8 days' where id = $1`, [old.export.id]);
    const pruned = await prune({ pool: db(), config: server.config });
    expect(pruned.exports).toBeGreaterThanOrEqual(1);
    expect((await server.rest('GET', `/v1/exports/${old.export.id}`, { key })).status).toBe(404);
    const chunks = await db().query(`select count(*)::int as n from "ExportChunk" where "exportId" = $1`, [
      old.export.id,
    ]);
    expect(chunks.rows[0].n).toBe(0);
    expect((await server.rest('GET', `/v1/exports/${fresh.export.id}/download`, { key })).status).toBe(200);

    await db().query(`delete from "Organization" where id = $1`, [org.id]);
    const left = await db().query(`select count(*)::int as n from "ExportChunk" where "exportId" = $1`, [
      fresh.export.id,
    ]);
    expect(left.rows[0].n).toBe(0);
  });
});

describe('npm run cli -- export create', () => {
  const server = useServer({ RATE_LIMIT_MAX: '1000000' });
  useWorker(server);
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

  it('waits for the worker, then writes the file; a wrong resource names the option', async () => {
    const org = await server.org();
    const key = await org.key(['admin']);
    for (const email of ['x@example.test', 'y@example.test']) {
      expect((await server.rest('POST', '/v1/crm/contacts', { key, body: { email } })).status).toBe(201);
    }
    const dir = await mkdtemp(path.join(tmpdir(), 'export-cli-'));
    const out = path.join(dir, 'contacts.ndjson');
    const done = await cli([
      'export',
      'create',
      '--org',
      org.id,
      '--resource',
      'contacts',
      '--format',
      'json',
      '--out',
      out,
      '--json',
    ]);
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ status: 'completed', rowsWritten: 2, file: out });
    expect(ndjson(await readFile(out, 'utf8')).map((row) => row.email)).toEqual(['x@example.test', 'y@example.test']);

    const wrong = await cli([
      'export',
      'create',
      '--org',
      org.id,
      '--resource',
      'nothing',
      '--format',
      'csv',
      '--json',
    ]);
    expect(wrong.code).toBe(2);
    expect(JSON.parse(wrong.stderr).error).toMatchObject({ code: 'VALIDATION_ERROR', field: '--resource' });
    await rm(dir, { recursive: true, force: true });
  }, 120_000);

  it('writes amounts in major units and a byte order mark with --amounts decimal --bom (issue 26)', async () => {
    const org = await server.org();
    const key = await org.key(['admin']);
    const contact = await server.rest('POST', '/v1/crm/contacts', { key, body: { email: 'k@example.test' } });
    const invoice = await server.rest('POST', '/v1/finance/invoices', {
      key,
      body: {
        contactId: contact.body.id,
        currency: 'KWD',
        lines: [{ description: 'A', quantity: 1, unitAmount: 10_710 }],
      },
    });
    expect(invoice.status, invoice.text).toBe(201);
    const dir = await mkdtemp(path.join(tmpdir(), 'export-cli-'));
    const out = path.join(dir, 'invoice-lines.csv');
    const args = ['export', 'create', '--org', org.id, '--resource', 'invoice-lines', '--format', 'csv'];
    const done = await cli([...args, '--amounts', 'decimal', '--bom', '--out', out, '--json']);
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ amounts: 'decimal', bom: true, rowsWritten: 1 });
    const bytes = await readFile(out);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [row] = parseCsv(bytes.subarray(3), { columns: true }) as Row[];
    expect(row).toMatchObject({ currency: 'KWD', unitAmount: '10.710', lineTotal: '10.710' });

    const wrong = await cli([...args, '--amounts', 'cents', '--json']);
    expect(wrong.code).toBe(2);
    expect(JSON.parse(wrong.stderr).error).toMatchObject({ code: 'VALIDATION_ERROR', field: '--amounts' });
    await rm(dir, { recursive: true, force: true });
  }, 120_000);
});
