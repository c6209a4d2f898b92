// npm run docs:events: writes the event catalogue's table into README.md (src/events/readme-table.ts).
import 'reflect-metadata';
import { readFile, writeFile } from 'node:fs/promises';
import { withEventTable } from '../src/events/readme-table.js';

const path = new URL('../README.md', import.meta.url);
const before = await readFile(path, 'utf8');
const after = withEventTable(before);
await writeFile(path, after);
console.log(before === after ? 'README.md: the event table was up to date' : 'README.md: event table rewritten');
