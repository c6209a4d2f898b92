// A database that lives for one task (`npm run migration:create` migrates one
// to compare it with the declarations): created on the server of `url`, dropped
// afterwards whatever happened.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { quoteIdentifier, withDatabaseName } from './database-url.js';

async function onServer(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabaseName(url, 'postgres') });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Runs `use` with the URL of a new, empty database on the server of `url`. */
export async function withScratchDatabase<T>(url: string, use: (scratchUrl: string) => Promise<T>): Promise<T> {
  const name = quoteIdentifier(`bp_scratch_${randomBytes(6).toString('hex')}`);
  await onServer(url, `create database ${name}`);
  try {
    return await use(withDatabaseName(url, name.slice(1, -1)));
  } finally {
    await onServer(url, `drop database if exists ${name} with (force)`);
  }
}
