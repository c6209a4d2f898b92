// The resources of the contract suite (test/contract.test.ts), shared with the suites
// that walk every write route (test/dry-run.test.ts): the system resources, written
// out, then every declared one read off its declaration. Records a create or an
// action must name are made in the key's organization with an admin key of it.
import { expect } from 'vitest';
import { operatorPrincipal } from '../../src/auth/principal.js';
import { sha256Hex } from '../../src/auth/secrets.js';
import { contractOf, type ResourceContract } from './contract.js';
import { declared, type RecordMaker } from './examples.js';
import type { ServerFixture } from './fixtures.js';

const v1 = (path: string) => `/v1${path}`;

/** Every resource of /v1, with bodies that work in the organization of the key given. */
export function contractResources(server: ServerFixture): ResourceContract[] {
  /** An admin key of each organization the suite made records in, by organization id. */
  const adminKeys = new Map<string, Promise<string>>();

  /** An admin key of the key's organization: it makes what a create names in any area (the key may hold one area). */
  async function adminKeyOf(key: string): Promise<string> {
    const [owner] = await server.prisma.$queryRawUnsafe<{ organizationId: string }[]>(
      'select "organizationId" from "ApiKey" where "keyHash" = $1',
      sha256Hex(key),
    );
    const organizationId = owner!.organizationId;
    if (!adminKeys.has(organizationId)) {
      const principal = operatorPrincipal(organizationId);
      const made = server.services.apiKeys.create(principal, { name: 'references', scopes: ['admin'] });
      adminKeys.set(
        organizationId,
        made.then((created) => created.key),
      );
    }
    return adminKeys.get(organizationId)!;
  }

  let madeForReferences = 0;

  /** Makes, in the key's organization, the records a declared resource's create or action must name. */
  function makerFor(key: string): RecordMaker {
    return {
      next: () => ++madeForReferences,
      async make(target, body) {
        const res = await server.rest('POST', v1(target.fullPath), { key: await adminKeyOf(key), body });
        expect(res.status, `creating in ${target.fullPath}: ${res.text}`).toBe(201);
        return res.body;
      },
      async act(target, id, step) {
        const at = v1(`${target.fullPath}/${id}/${step.path}`);
        const res = await server.rest('POST', at, { key: await adminKeyOf(key), body: step.body });
        expect(res.status, `${at}: ${res.text}`).toBe(200);
      },
    };
  }

  // One entry per resource; support/contract.ts says what each part means. The system
  // resources, written out; then every declared one, read off its declaration.
  return [
    {
      name: 'API keys',
      path: '/api-keys',
      idPrefix: 'key',
      scopes: { read: 'admin', write: 'admin' },
      create: { body: (n) => ({ name: `key ${n}`, scopes: ['crm:read'] }), status: 201, event: 'api_key.created' },
      update: null,
      delete: false,
      actions: [
        { name: 'rotate', status: 201, answers: 'a new record' },
        { name: 'revoke', status: 200, answers: 'the record' },
      ],
      graphql: { list: 'apiKeys', get: 'apiKey' },
    },
    {
      name: 'users',
      path: '/users',
      idPrefix: 'usr',
      scopes: { read: 'admin', write: 'admin' },
      create: {
        body: (n) => ({
          email: `user-${n}@example.test`,
          role: 'member',
          scopes: ['crm:read'],
          password: 'long password',
        }),
        status: 201,
        event: 'user.created',
      },
      update: { body: { name: 'Grace Hopper' }, event: 'user.updated' },
      delete: true,
      actions: [],
      graphql: { list: 'users', get: 'user' },
    },
    {
      name: 'webhooks',
      path: '/webhooks',
      idPrefix: 'whk',
      scopes: { read: 'admin', write: 'admin' },
      create: {
        body: (n) => ({ url: `http://127.0.0.1:9/hook-${n}`, events: ['contact.created'], description: `hook ${n}` }),
        status: 201,
        event: 'webhook.created',
      },
      update: { body: { description: 'Changed', events: ['deal.created', 'deal.closed'] }, event: 'webhook.updated' },
      delete: true,
      actions: [],
      graphql: { list: 'webhooks', get: 'webhook' },
    },
    {
      name: 'OAuth apps',
      path: '/oauth-apps',
      idPrefix: 'oap',
      scopes: { read: 'admin', write: 'admin' },
      create: {
        body: (n) => ({
          name: `App ${n}`,
          redirectUris: [`https://app-${n}.example.test/callback`],
          scopes: ['crm:read'],
        }),
        status: 201,
        event: 'oauth_app.created',
      },
      update: {
        body: { description: 'Changed', redirectUris: ['https://changed.example.test/cb'] },
        event: 'oauth_app.updated',
      },
      delete: true,
      // rotate-secret answers the record plus its new secret: test/oauth-apps.test.ts.
      actions: [],
      graphql: { list: 'oauthApps', get: 'oauthApp' },
    },
    // Every declared resource, from its declaration and examples: a new one joins by itself.
    ...declared().map((resource) => contractOf(resource, makerFor)),
  ];
}
