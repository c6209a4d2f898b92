// Small helpers for PostgreSQL connection strings and databases.
import pg from 'pg';

export function withDatabaseName(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Creates `database` on the server of `serverUrl` unless it exists. */
export async function ensureDatabase(serverUrl: string, database: string, template?: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabaseName(serverUrl, 'postgres') });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (!rowCount) {
      const from = template ? ` template ${quoteIdentifier(template)}` : '';
      await client.query(`create database ${quoteIdentifier(database)}${from}`);
    }
  } finally {
    await client.end();
  }
}
