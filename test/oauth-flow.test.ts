// The authorization code flow end to end, by hand (fetch and forms): sign in,
// consent, code, token, API call, refresh, revoke.
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer, type TestOrg } from './support/fixtures.js';
import { authorizeUrl, Browser, createApp, createUser, pkcePair, tokenRequest, type TestApp, type TestUser } from './support/oauth.js';

const server = useServer({ RATE_LIMIT_MAX: '100000' });
let org: TestOrg;
let app: TestApp;
let user: TestUser;

beforeAll(async () => {
  org = await server.org();
  app = await createApp(server, org.id);
  user = await createUser(server, org.id);
});

describe('the code flow', () => {
  it('signs in, consents, exchanges the code and reads contacts with the token', async () => {
    const browser = new Browser(server.url);
    const { verifier, challenge } = pkcePair();
    const back = await browser.authorize(
      authorizeUrl({
        client_id: app.clientId,
        redirect_uri: app.redirectUri,
        response_type: 'code',
        scope: 'crm:read',
        state: 'xyz',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
      user,
    );
    expect(back.origin + back.pathname).toBe(app.redirectUri);
    expect(back.searchParams.get('state')).toBe('xyz');
    const code = back.searchParams.get('code')!;
    expect(code).toMatch(/^bpac_/);
    const res = await tokenRequest(server, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: app.redirectUri,
      client_id: app.clientId,
      client_secret: app.clientSecret!,
      code_verifier: verifier,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'crm:read' });
    const contacts = await server.rest('GET', '/v1/crm/contacts', { key: res.body.access_token });
    expect(contacts.status, contacts.text).toBe(200);
  });
});
