// The organization's settings: GET /v1/organization for any credential of it,
// PUT /v1/organization for an admin (partial: name, an IANA timeZone, a
// working week of distinct ISO weekdays), organization.updated with the
// previous values, the same over GraphQL (organization, updateOrganization,
// Viewer.organization), and every refusal a 400 or 403 naming what is wrong.
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer, type TestOrg, type TestResponse } from './support/fixtures.js';

const server = useServer({ RATE_LIMIT_MAX: '1000000' });

function expectError(res: TestResponse, status: number, code: string, field?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error).toMatchObject({ code, ...(field && { field }) });
}

interface EventBody {
  type: string;
  data: { object: Record<string, unknown>; previousAttributes?: Record<string, unknown> };
  actor: { type: string; id: string | null };
}

async function organizationEvents(key: string, id: string): Promise<EventBody[]> {
  const res = await server.rest('GET', '/v1/events?type=organization.updated&limit=100', { key });
  expect(res.status, res.text).toBe(200);
  return (res.body.data as EventBody[]).filter((event) => event.data.object.id === id);
}

describe('GET /v1/organization', () => {
  it('answers the organization to any credential of it, with the defaults: UTC, Monday to Friday', async () => {
    const org = await server.org('Analytical Engines');
    for (const scopes of [['crm:read'], ['finance:write'], ['admin']] as const) {
      const res = await server.rest('GET', '/v1/organization', { key: await org.key([...scopes]) });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({
        id: org.id,
        name: 'Analytical Engines',
        timeZone: 'UTC',
        workingDays: [1, 2, 3, 4, 5],
        // Printed on invoices (PUT sets them): none until then.
        legalName: null,
        address: null,
        taxId: null,
        paymentTermsDays: 30,
      });
    }
    expect((await server.rest('GET', '/v1/organization')).status).toBe(401);
  });
});

describe('PUT /v1/organization', () => {
  let org: TestOrg;
  let admin: string;
  beforeAll(async () => {
    org = await server.org('Settings');
    admin = await org.key(['admin']);
  });
  const put = (body: unknown, key = admin) => server.rest('PUT', '/v1/organization', { key, body });

  it('changes what is sent, keeps the rest, and raises organization.updated with the previous values', async () => {
    const res = await put({ timeZone: 'Europe/Paris', workingDays: [5, 1, 2] });
    expect(res.status, res.text).toBe(200);
    // The working week comes back in weekday order.
    expect(res.body).toEqual({
      id: org.id,
      name: 'Settings',
      timeZone: 'Europe/Paris',
      workingDays: [1, 2, 5],
      legalName: null,
      address: null,
      taxId: null,
      paymentTermsDays: 30,
    });
    expect((await server.rest('GET', '/v1/organization', { key: admin })).body).toEqual(res.body);

    const renamed = await put({ name: 'Settings Ltd' });
    expect(renamed.body).toEqual({ ...res.body, name: 'Settings Ltd' });

    const events = await organizationEvents(admin, org.id);
    expect(events.map(({ data, actor }) => ({ data, actor: actor.type }))).toEqual([
      {
        data: { object: res.body, previousAttributes: { timeZone: 'UTC', workingDays: [1, 2, 3, 4, 5] } },
        actor: 'api_key',
      },
      { data: { object: renamed.body, previousAttributes: { name: 'Settings' } }, actor: 'api_key' },
    ]);

    // The same values again change nothing and raise nothing; the id sent back as read passes.
    const same = await put({ ...renamed.body });
    expect(same.status, same.text).toBe(200);
    expect(await organizationEvents(admin, org.id)).toHaveLength(2);
  });

  it('takes a time zone name in any case and stores it as IANA writes it; UTC too', async () => {
    expect((await put({ timeZone: 'america/new_york' })).body.timeZone).toBe('America/New_York');
    expect((await put({ timeZone: 'UTC' })).body.timeZone).toBe('UTC');
  });

  it.each([
    ['timeZone', { timeZone: 'Mars/Olympus_Mons' }],
    ['timeZone', { timeZone: '+01:00' }],
    ['timeZone', { timeZone: '' }],
    ['timeZone', { timeZone: null }],
    ['timeZone', { timeZone: 1 }],
    ['workingDays', { workingDays: [] }],
    ['workingDays', { workingDays: [1, 1, 2] }],
    ['workingDays', { workingDays: 'weekdays' }],
    ['workingDays', { workingDays: null }],
    ['workingDays.0', { workingDays: [0] }],
    ['workingDays.1', { workingDays: [1, 8] }],
    ['workingDays.0', { workingDays: [1.5] }],
    ['name', { name: '' }],
    ['id', { id: 'org_00000000000000000000000000' }],
    ['notASetting', { notASetting: true }],
  ])('refuses a bad %s with a 400 naming it, and changes nothing', async (field, body) => {
    const before = (await server.rest('GET', '/v1/organization', { key: admin })).body;
    expectError(await put(body), 400, 'VALIDATION_ERROR', field);
    expect((await server.rest('GET', '/v1/organization', { key: admin })).body).toEqual(before);
  });

  it('is for admins only: 403 naming admin to any other scope', async () => {
    const hr = await org.key(['hr:read', 'hr:write', 'crm:write', 'finance:write']);
    const res = await put({ timeZone: 'Asia/Tokyo' }, hr);
    expectError(res, 403, 'FORBIDDEN');
    expect(res.body.error.message).toContain('admin');
    expect((await server.rest('GET', '/v1/organization', { key: hr })).body.timeZone).not.toBe('Asia/Tokyo');
  });

  it("changes the caller's organization only", async () => {
    const other = await server.org('Other');
    const otherKey = await other.key(['admin']);
    expect((await put({ workingDays: [1, 2, 3, 4, 5, 6] }, otherKey)).status).toBe(200);
    expect((await server.rest('GET', '/v1/organization', { key: admin })).body.workingDays).not.toEqual([
      1, 2, 3, 4, 5, 6,
    ]);
    expect(await organizationEvents(admin, other.id)).toEqual([]);
  });
});

describe('GraphQL', () => {
  it('reads organization and Viewer.organization, and changes it with updateOrganization (admin)', async () => {
    const org = await server.org('Graph');
    const admin = await org.key(['admin']);
    const member = await org.key(['hr:read']);
    const updated = await server.gql(
      `mutation { updateOrganization(input: { timeZone: "Asia/Kolkata", workingDays: [7, 1, 2, 3, 4] }) {
        id timeZone workingDays } }`,
      {},
      { key: admin },
    );
    expect(updated.errors, updated.text).toBeUndefined();
    expect(updated.data.updateOrganization).toEqual({
      id: org.id,
      timeZone: 'Asia/Kolkata',
      workingDays: [1, 2, 3, 4, 7],
    });

    const read = await server.gql(
      `{ organization { name timeZone workingDays } viewer { organization { id timeZone workingDays } } }`,
      {},
      { key: member },
    );
    expect(read.errors, read.text).toBeUndefined();
    expect(read.data).toEqual({
      organization: { name: 'Graph', timeZone: 'Asia/Kolkata', workingDays: [1, 2, 3, 4, 7] },
      viewer: { organization: { id: org.id, timeZone: 'Asia/Kolkata', workingDays: [1, 2, 3, 4, 7] } },
    });

    const refused = await server.gql(
      `mutation { updateOrganization(input: { name: "Mine" }) { id } }`,
      {},
      { key: member },
    );
    expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const invalid = await server.gql(
      `mutation { updateOrganization(input: { timeZone: "Nowhere/Land" }) { id } }`,
      {},
      { key: admin },
    );
    expect(invalid.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_ERROR', field: 'timeZone' });
  });
});
