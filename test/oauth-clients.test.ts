// The code flow driven by independent client libraries against the real
// server, through the real sign-in and consent pages: openid-client (v6,
// form-encoded, PKCE, discovery from RFC 8414 metadata, the RFC 9207 `iss`
// check) and simple-oauth2 (JSON bodies, as the specification shows).
import * as oidc from 'openid-client';
import { AuthorizationCode, ClientCredentials } from 'simple-oauth2';
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer, type TestOrg } from './support/fixtures.js';
import {
  Browser,
  createApp,
  createKeyWithSecret,
  createUser,
  pkcePair,
  type TestApp,
  type TestUser,
} from './support/oauth.js';

const server = useServer({ RATE_LIMIT_MAX: '100000' });
let org: TestOrg;
let user: TestUser;

beforeAll(async () => {
  org = await server.org();
  user = await createUser(server, org.id);
});

/** What the browser part of the flow ends with: the URL the app's redirect URI receives. */
async function userApproves(url: string): Promise<URL> {
  const path = url.slice(server.url.length);
  expect(url.startsWith(server.url)).toBe(true);
  return new Browser(server.url).authorize(path, user);
}

describe('openid-client v6 (form-encoded, PKCE)', () => {
  let app: TestApp;
  let config: oidc.Configuration;

  beforeAll(async () => {
    app = await createApp(server, org.id, { scopes: ['crm:read', 'crm:write'] });
    // Discovery reads /.well-known/oauth-authorization-server; plain http is loopback only, hence allowInsecureRequests.
    config = await oidc.discovery(
      new URL(server.url),
      app.clientId,
      undefined,
      oidc.ClientSecretPost(app.clientSecret!),
      {
        algorithm: 'oauth2',
        execute: [oidc.allowInsecureRequests],
      },
    );
  });

  it('discovers the server, runs the code flow with PKCE and calls the API', async () => {
    expect(config.serverMetadata().code_challenge_methods_supported).toEqual(['S256']);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: app.redirectUri,
      scope: 'crm:read',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    const callback = await userApproves(url.href);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.scope).toBe('crm:read');
    const res = await oidc.fetchProtectedResource(
      config,
      tokens.access_token,
      new URL(`${server.url}/v1/crm/contacts`),
      'GET',
    );
    expect(res.status).toBe(200);

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);

    const introspection = await oidc.tokenIntrospection(config, refreshed.access_token);
    expect(introspection).toMatchObject({ active: true, scope: 'crm:read', client_id: app.clientId });
    await oidc.tokenRevocation(config, refreshed.access_token);
    expect((await oidc.tokenIntrospection(config, refreshed.access_token)).active).toBe(false);
  });

  it('with HTTP Basic client authentication', async () => {
    const basic = await oidc.discovery(
      new URL(server.url),
      app.clientId,
      undefined,
      oidc.ClientSecretBasic(app.clientSecret!),
      { algorithm: 'oauth2', execute: [oidc.allowInsecureRequests] },
    );
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(basic, {
      redirect_uri: app.redirectUri,
      scope: 'crm:read crm:write',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const tokens = await oidc.authorizationCodeGrant(basic, await userApproves(url.href), {
      pkceCodeVerifier: verifier,
    });
    expect(tokens.scope).toBe('crm:read crm:write');
  });

  it('as a public client (no secret)', async () => {
    const publicApp = await createApp(server, org.id, { clientType: 'public' });
    const publicConfig = await oidc.discovery(new URL(server.url), publicApp.clientId, undefined, oidc.None(), {
      algorithm: 'oauth2',
      execute: [oidc.allowInsecureRequests],
    });
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(publicConfig, {
      redirect_uri: publicApp.redirectUri,
      scope: 'crm:read',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const tokens = await oidc.authorizationCodeGrant(publicConfig, await userApproves(url.href), {
      pkceCodeVerifier: verifier,
    });
    expect(tokens.access_token).toMatch(/^bpat_/);
  });

  it('reports a wrong verifier as the server said it: invalid_grant', async () => {
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: app.redirectUri,
      scope: 'crm:read',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const callback = await userApproves(url.href);
    const failure = await oidc
      .authorizationCodeGrant(config, callback, { pkceCodeVerifier: oidc.randomPKCECodeVerifier() })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(oidc.ResponseBodyError);
    expect((failure as oidc.ResponseBodyError).error).toBe('invalid_grant');
  });

  it('client_credentials with an API key and its secret', async () => {
    const key = await createKeyWithSecret(server, org.id, ['crm:read']);
    const keyConfig = await oidc.discovery(
      new URL(server.url),
      key.key,
      undefined,
      oidc.ClientSecretBasic(key.secret),
      {
        algorithm: 'oauth2',
        execute: [oidc.allowInsecureRequests],
      },
    );
    const tokens = await oidc.clientCredentialsGrant(keyConfig);
    expect(tokens.scope).toBe('crm:read');
    expect(tokens.refresh_token).toBeUndefined();
  });
});

describe('simple-oauth2 (JSON bodies, credentials in the body)', () => {
  let app: TestApp;
  let client: AuthorizationCode;

  beforeAll(async () => {
    app = await createApp(server, org.id, { scopes: ['crm:read', 'crm:write'] });
    client = new AuthorizationCode({
      client: { id: app.clientId, secret: app.clientSecret! },
      auth: {
        tokenHost: server.url,
        tokenPath: '/oauth/token',
        authorizePath: '/oauth/authorize',
        revokePath: '/oauth/revoke',
      },
      options: { authorizationMethod: 'body', bodyFormat: 'json' },
    });
  });

  it('runs the code flow with PKCE, refreshes and revokes', async () => {
    const { verifier, challenge } = pkcePair();
    const url = client.authorizeURL({
      redirect_uri: app.redirectUri,
      scope: ['crm:read', 'crm:write'],
      state: 'simple-state',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    } as Parameters<AuthorizationCode['authorizeURL']>[0]);
    const callback = await userApproves(url);
    expect(callback.searchParams.get('state')).toBe('simple-state');
    const accessToken = await client.getToken({
      code: callback.searchParams.get('code')!,
      redirect_uri: app.redirectUri,
      code_verifier: verifier,
    } as Parameters<AuthorizationCode['getToken']>[0]);
    expect(accessToken.token).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'crm:read crm:write',
      access_token: expect.stringMatching(/^bpat_/),
      refresh_token: expect.stringMatching(/^bprt_/),
    });
    const bearer = accessToken.token.access_token as string;
    expect((await server.rest('GET', '/v1/crm/contacts', { key: bearer })).status).toBe(200);

    const refreshed = await accessToken.refresh({ scope: 'crm:read' });
    expect(refreshed.token.scope).toBe('crm:read');
    const newBearer = refreshed.token.access_token as string;
    expect(
      (await server.rest('POST', '/v1/crm/contacts', { key: newBearer, body: { email: 'a@example.test' } })).status,
    ).toBe(403);

    await refreshed.revokeAll();
    expect((await server.rest('GET', '/v1/crm/contacts', { key: newBearer })).status).toBe(401);
    await expect(refreshed.refresh()).rejects.toMatchObject({ output: { statusCode: 400 } });
  });

  it('sees a wrong secret refused (invalid_client)', async () => {
    const wrong = new AuthorizationCode({
      client: { id: app.clientId, secret: 'bpcs_wrong' },
      auth: { tokenHost: server.url },
      options: { authorizationMethod: 'body', bodyFormat: 'json' },
    });
    const error = await wrong
      .getToken({ code: 'bpac_x', redirect_uri: app.redirectUri })
      .catch((e: { data?: { payload?: unknown } }) => e);
    expect((error as { data: { payload: { error: string } } }).data.payload).toMatchObject({ error: 'invalid_client' });
  });

  it('client_credentials with an API key, in a JSON body', async () => {
    const key = await createKeyWithSecret(server, org.id, ['crm:read', 'crm:write']);
    const cc = new ClientCredentials({
      client: { id: key.key, secret: key.secret },
      auth: { tokenHost: server.url },
      options: { authorizationMethod: 'body', bodyFormat: 'json' },
    });
    const token = await cc.getToken({ scope: 'crm:read' });
    expect(token.token).toMatchObject({ token_type: 'Bearer', scope: 'crm:read' });
    expect((await server.rest('GET', '/v1/crm/contacts', { key: token.token.access_token as string })).status).toBe(
      200,
    );
  });
});
