// A local copy kept in sync from the change feed (GET /v1/changes), resuming
// after a kill: the copy and the cursor it has reached are written together,
// atomically (a new file renamed over the old), after each page. A kill between
// two pages loses nothing: the next start asks again from the saved cursor.
//
//   BASE=http://127.0.0.1:3000 KEY=bpk_... node docs/examples/change-consumer.mjs [copy.json]
//
// Node 20 or later, no dependencies. The copy: { cursor, records: { contacts: { con_…: {…} }, … } }.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

const base = process.env.BASE ?? 'http://127.0.0.1:3000';
const key = process.env.KEY;
const file = process.argv[2] ?? 'copy.json';
if (!key) throw new Error('set KEY to an API key with the read scopes of the resources to copy');

function load() {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return { cursor: null, records: {} };
  }
}

function save(copy) {
  writeFileSync(`${file}.tmp`, JSON.stringify(copy));
  renameSync(`${file}.tmp`, file);
}

const copy = load();
for (;;) {
  const query = new URLSearchParams({ limit: '100', wait: '30', ...(copy.cursor && { after: copy.cursor }) });
  const response = await fetch(`${base}/v1/changes?${query}`, { headers: { authorization: `Bearer ${key}` } });
  const body = await response.json();
  if (response.status === 410) throw new Error(`${body.error.message} (start again from an export)`);
  if (!response.ok) throw new Error(`${response.status}: ${JSON.stringify(body.error)}`);
  for (const change of body.data) {
    const records = (copy.records[change.resource] ??= {});
    if (change.operation === 'deleted') delete records[change.id];
    else records[change.id] = change.object;
  }
  copy.cursor = body.next;
  save(copy);
  if (body.data.length) console.log(`${body.data.length} changes applied, up to ${body.next}`);
}
