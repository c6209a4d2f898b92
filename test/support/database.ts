// A fresh database per test file, cloned from the migrated template.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { quoteIdentifier, withDatabaseName } from '../../src/db/database-url.js';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

async function admin<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabaseName(inject('postgresServerUrl'), 'postgres') });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `bp_test_${randomBytes(6).toString('hex')}`;
  const template = inject('templateDatabase');
  await admin(async (client) => {
    // Clones of one template can collide while another clone is starting: retry.
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`create database ${quoteIdentifier(name)} template ${quoteIdentifier(template)}`);
        return;
      } catch (error) {
        if (attempt >= 20 || !/being accessed by other users/.test(String(error))) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      }
    }
  });
  return {
    url: withDatabaseName(inject('postgresServerUrl'), name),
    drop: () =>
      admin(
        async (client) => void (await client.query(`drop database if exists ${quoteIdentifier(name)} with (force)`)),
      ),
  };
}
