// Every event is written through the one insert (src/events/insert.ts) and
// every envelope built by the one builder (src/events/envelope.ts): no other
// module of src/ spells the insert or builds the envelope's `created` itself.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventRow, insertEvents } from '../src/events/insert.js';

const SRC = path.resolve(import.meta.dirname, '../src');

async function sources(): Promise<{ file: string; text: string }[]> {
  const entries = await readdir(SRC, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter(
      (file) => !file.includes(`${path.sep}generated${path.sep}`) && !file.includes(`${path.sep}client${path.sep}`),
    );
  return Promise.all(
    files.map(async (file) => ({ file: path.relative(SRC, file), text: await readFile(file, 'utf8') })),
  );
}

describe('event writers', () => {
  it('insert through src/events/insert.ts only', async () => {
    const spelled = (await sources()).filter(({ text }) => /insert\s+into\s+"Event"/i.test(text)).map((s) => s.file);
    expect(spelled).toEqual([path.join('events', 'insert.ts')]);
  });

  it('build the envelope in src/events/envelope.ts only', async () => {
    const building = (await sources())
      .filter(({ text }) => /created: Math\.floor|extract\(epoch from "Event"/.test(text))
      .map((s) => s.file);
    expect(building).toEqual([path.join('events', 'envelope.ts')]);
  });

  it('give data its one shape, with previousAttributes only on a change', () => {
    const row = eventRow({ id: '$1', organizationId: '$2', type: '$3', object: 'o', actorType: '$4', actorId: '$5' });
    expect(row).toBe(`select $1, $2, $3, jsonb_build_object('object', o), $4, $5::text`);
    const change = eventRow(
      {
        id: '$1',
        organizationId: '$2',
        type: '$3',
        object: 'o',
        previousAttributes: 'p',
        actorType: '$4',
        actorId: 'null',
      },
      'from record',
    );
    expect(change).toBe(
      `select $1, $2, $3, jsonb_build_object('object', o, 'previousAttributes', p), $4, null::text from record`,
    );
    expect(insertEvents([row, change])).toBe(
      `insert into "Event" (id, "organizationId", type, data, "actorType", "actorId") ${row} union all ${change}`,
    );
  });
});
