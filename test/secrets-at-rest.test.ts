// No table holds a secret, password or token in clear. The flows that issue
// secrets run as integrators run them (REST with Idempotency-Keys, the OAuth
// code flow with its sign-in session, refresh, client credentials, webhook
// deliveries), every issued value is collected, and then every row of every
// table of the database (the service's and graphile-worker's) is read as text
// and searched for each of them.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useServer } from './support/fixtures.js';
import { createApp, obtainCode, PASSWORD, tokenRequest } from './support/oauth.js';
import { useReceivers, useWorker } from './support/receiver.js';

const server = useServer({ RATE_LIMIT_MAX: '100000' });
const receiver = useReceivers();
useWorker(server);

/** Every value the service issued or was given that must never be stored as it is. */
const issued = new Set<string>();
function secret(value: unknown): string {
  expect(typeof value, `an issued secret: ${String(value)}`).toBe('string');
  const text = value as string;
  issued.add(text);
  // The random part alone too: a prefix stripped and stored would be no better.
  const random = text.replace(/^[a-z]+_/, '');
  if (random.length >= 16) issued.add(random);
  return text;
}

function succeeded(res: { status: number; text: string }) {
  expect(res.status, res.text).toBeGreaterThanOrEqual(200);
  expect(res.status, res.text).toBeLessThan(300);
}

let sequence = 0;
function idempotent(key: string, body: unknown = {}) {
  return { key, body, headers: { 'Idempotency-Key': `at-rest-${++sequence}` } };
}

describe('secrets at rest', () => {
  it('no issued secret, password or token is found in any column of any table', async () => {
    const org = await server.org();
    const admin = await org.key(['admin']);
    secret(admin);

    // API keys: create and rotate, each under an Idempotency-Key, and replayed.
    const keyBody = { name: 'at rest', scopes: ['crm:read'] };
    const created = await server.rest('POST', '/v1/api-keys', idempotent(admin, keyBody));
    succeeded(created);
    secret(created.body.key);
    secret(created.body.secret);
    const rotated = await server.rest('POST', `/v1/api-keys/${created.body.id}/rotate`, idempotent(admin));
    succeeded(rotated);
    secret(rotated.body.key);
    secret(rotated.body.secret);

    // A user with a password, created under an Idempotency-Key.
    const password = secret(`${PASSWORD} at rest ${Date.now()}`);
    const email = `at-rest-${Date.now()}@example.test`;
    const user = await server.rest('POST', '/v1/users', idempotent(admin, { email, password, role: 'admin' }));
    succeeded(user);

    // OAuth apps: create and rotate the secret.
    const appBody = { name: 'At rest', redirectUris: ['https://app.example.test/callback'], scopes: ['crm:read'] };
    const app = await server.rest('POST', '/v1/oauth-apps', idempotent(admin, appBody));
    succeeded(app);
    secret(app.body.clientSecret);
    const appRotated = await server.rest('POST', `/v1/oauth-apps/${app.body.id}/rotate-secret`, idempotent(admin));
    succeeded(appRotated);
    secret(appRotated.body.clientSecret);

    // Webhooks: create and rotate the signing secret, then a delivery signed with it.
    const target = await receiver();
    const hookBody = { url: target.url, events: ['contact.created'] };
    const hook = await server.rest('POST', '/v1/webhooks', idempotent(admin, hookBody));
    succeeded(hook);
    secret(hook.body.secret);
    const hookRotated = await server.rest('POST', `/v1/webhooks/${hook.body.id}/rotate-secret`, idempotent(admin));
    succeeded(hookRotated);
    secret(hookRotated.body.secret);
    const contact = await server.rest('POST', '/v1/crm/contacts', { key: admin, body: { email: 'rest@example.test' } });
    expect(contact.status).toBe(201);
    await target.waitFor(1, 20_000);

    // The OAuth code flow: the sign-in session, the code, the tokens, a refresh.
    const oauthApp = await createApp(server, org.id);
    secret(oauthApp.clientSecret);
    const { code, verifier, browser } = await obtainCode(server, oauthApp, { email, password });
    for (const value of browser.cookies.values()) if (value.length >= 16) secret(value);
    secret(code);
    const tokens = await tokenRequest(server, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: oauthApp.redirectUri,
      client_id: oauthApp.clientId,
      client_secret: oauthApp.clientSecret!,
      code_verifier: verifier,
    });
    succeeded(tokens);
    secret(tokens.body.access_token);
    secret(tokens.body.refresh_token);
    const refreshed = await tokenRequest(server, {
      grant_type: 'refresh_token',
      refresh_token: tokens.body.refresh_token,
      client_id: oauthApp.clientId,
      client_secret: oauthApp.clientSecret!,
    });
    succeeded(refreshed);
    secret(refreshed.body.access_token);
    secret(refreshed.body.refresh_token);
    // Client credentials: an API key and its secret exchanged for a token.
    const client = await tokenRequest(server, {
      grant_type: 'client_credentials',
      client_id: rotated.body.key,
      client_secret: rotated.body.secret,
    });
    succeeded(client);
    secret(client.body.access_token);

    const found = await searchEveryTable(server.databaseUrl, [...issued]);
    expect(found).toEqual([]);
  });
});

/** Where any of `needles` occurs: "table: needle" for each hit, over every row of every table. */
async function searchEveryTable(databaseUrl: string, needles: string[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ name: string }>(
      `select format('%I.%I', table_schema, table_name) as name from information_schema.tables
        where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
    );
    expect(tables.length).toBeGreaterThan(10);
    const found: string[] = [];
    for (const { name } of tables) {
      // A row as text holds every column; bytea columns show as hex, so search that form too.
      const { rows } = await client.query<{ row: string }>(`select t::text as row from ${name} t`);
      for (const { row } of rows) {
        for (const needle of needles) {
          if (row.includes(needle) || row.includes(Buffer.from(needle).toString('hex'))) {
            found.push(`${name}: ${needle}`);
          }
        }
      }
    }
    return found;
  } finally {
    await client.end();
  }
}
