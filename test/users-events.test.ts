// What a change of a user raises, and what a change to nothing does: users are
// declared on the kit, and their events and refusals are those of the hand-written
// service before it (data.object the answer, previousAttributes what changed).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { useServer, type TestOrg } from './support/fixtures.js';

const server = useServer();
let org: TestOrg;
let admin: string;

beforeAll(async () => {
  org = await server.org();
  admin = await org.key(['admin']);
});

type Body = Record<string, unknown>;
interface EventBody {
  type: string;
  data: { object: Body; previousAttributes?: Body };
}

let counter = 0;
const member = (scopes: string[]): Body => ({
  email: `events-${++counter}@users.example.com`,
  role: 'member',
  scopes,
  password: 'correct horse battery staple',
});

async function send(method: string, path: string, body?: unknown) {
  const res = await server.rest(method, `/v1${path}`, { key: admin, body });
  expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
  return res.body as Body;
}

/** The user's events, oldest first. */
async function historyOf(id: string): Promise<EventBody[]> {
  const res = await server.rest('GET', `/v1/events?objectId=${id}&limit=100`, { key: admin });
  expect(res.status, res.text).toBe(200);
  return res.body.data as EventBody[];
}

describe('a user change that changes nothing', () => {
  it('PUT {"scopes": null} on a member with no scopes answers it as it is and raises no user.updated', async () => {
    const user = await send('POST', '/users', member([]));
    const same = await send('PUT', `/users/${user.id}`, { scopes: null });
    expect(same).toEqual(user);
    const adminUser = await send('POST', '/users', { ...member([]), role: 'admin', scopes: undefined });
    expect(await send('PUT', `/users/${adminUser.id}`, { role: 'admin', scopes: null })).toEqual(adminUser);
    expect((await historyOf(user.id as string)).map((event) => event.type)).toEqual(['user.created']);
    expect((await historyOf(adminUser.id as string)).map((event) => event.type)).toEqual(['user.created']);
  });

  it('is still refused (403) to a caller lacking some of the user’s scopes', async () => {
    const user = await send('POST', '/users', member(['crm:read', 'hr:read']));
    const crmCaller: Principal = {
      organizationId: org.id,
      scopes: new Set(['crm:read', 'crm:write']),
      credential: { type: 'api_key', id: 'key_test' },
    };
    for (const input of [{}, { email: user.email }, { scopes: ['crm:read', 'hr:read'] }]) {
      await expect(server.services.users.update(crmCaller, user.id as string, input)).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: expect.stringContaining('hr:read'),
      });
    }
  });
});

describe('the events of a user', () => {
  it('carry the answers: created, updated with what changed (a password: updatedAt only), deleted as it was', async () => {
    const created = await send('POST', '/users', member(['crm:read']));
    const cleared = await send('PUT', `/users/${created.id}`, { scopes: null, name: 'Named' });
    const passworded = await send('PUT', `/users/${created.id}`, { password: 'another long password' });
    expect(passworded).toEqual({ ...cleared, updatedAt: expect.any(String) });
    await send('DELETE', `/users/${created.id}`);
    const history = await historyOf(created.id as string);
    expect(history.map((event) => event.type)).toEqual([
      'user.created',
      'user.updated',
      'user.updated',
      'user.deleted',
    ]);
    expect(history[0]!.data).toEqual({ object: created });
    expect(history[1]!.data).toEqual({
      object: cleared,
      previousAttributes: { name: null, scopes: ['crm:read'], updatedAt: created.updatedAt },
    });
    expect(history[2]!.data).toEqual({ object: passworded, previousAttributes: { updatedAt: cleared.updatedAt } });
    expect(history[3]!.data).toEqual({ object: passworded });
  });
});
