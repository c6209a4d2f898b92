// Departments (issue 25, People and access): a unique code per organization, a
// manager who is an employee, a parent department without cycles, deleted only
// once nobody belongs to it; employees name theirs by departmentId and show its
// name as `department`; and the migration that turned the free-text department
// into departments, run over seeded rows.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { quoteIdentifier, withDatabaseName } from '../src/db/database-url.js';
import { useServer, type TestOrg, type TestResponse } from './support/fixtures.js';

const server = useServer({ RATE_LIMIT_MAX: '1000000' });
let org: TestOrg;
let key: string;
let foreignKey: string;

beforeAll(async () => {
  org = await server.org();
  key = await org.key(['hr:read', 'hr:write']);
  foreignKey = await (await server.org()).key(['hr:read', 'hr:write']);
});

type Body = Record<string, unknown> & { id: string };
let counter = 0;

async function department(body: Record<string, unknown> = {}, withKey = key): Promise<Body> {
  const n = ++counter;
  const res = await server.rest('POST', '/v1/hr/departments', {
    key: withKey,
    body: { name: `Department ${n}`, code: `D${n}`, ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function hire(body: Record<string, unknown> = {}, withKey = key): Promise<Body> {
  const n = ++counter;
  const res = await server.rest('POST', '/v1/hr/employees', {
    key: withKey,
    body: { firstName: 'Ada', lastName: `Lovelace ${n}`, email: `ada-${n}@example.test`, ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const put = (id: string, body: unknown, withKey = key) =>
  server.rest('PUT', `/v1/hr/departments/${id}`, { key: withKey, body });
const get = async (id: string) => (await server.rest('GET', `/v1/hr/departments/${id}`, { key })).body;

function expectRefused(res: TestResponse, status: number, code: string, field?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error.code).toBe(code);
  if (field) expect(res.body.error.field).toBe(field);
}

async function eventsAbout(id: string): Promise<{ type: string; data: { object: Body } }[]> {
  const res = await server.rest('GET', `/v1/events?objectId=${id}&limit=100`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

describe('POST /v1/hr/departments', () => {
  it('creates a department with its code upper-cased, and raises department.created with it', async () => {
    const head = await hire();
    const res = await server.rest('POST', '/v1/hr/departments', {
      key,
      body: { name: 'Research', code: ' res-1 ', managerId: head.id },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^dep_[0-9a-z]{26}$/),
      name: 'Research',
      code: 'RES-1',
      managerId: head.id,
      parentId: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await eventsAbout(res.body.id)).toEqual([
      expect.objectContaining({ type: 'department.created', data: { object: res.body } }),
    ]);
  });

  it('refuses a code the organization already has (409 naming code), whatever its case, on create and update', async () => {
    const taken = await department({ code: 'OPS' });
    const again = await server.rest('POST', '/v1/hr/departments', { key, body: { name: 'Other', code: 'ops' } });
    expectRefused(again, 409, 'CONFLICT', 'code');
    const other = await department();
    expectRefused(await put(other.id, { code: 'Ops' }), 409, 'CONFLICT', 'code');
    expect((await get(other.id)).code).toBe(other.code);
    // Another organization may use it.
    await department({ code: 'OPS' }, foreignKey);
    expect((await get(taken.id)).code).toBe('OPS');
  });

  it('refuses a bad code, and a manager or parent that is not the organization’s (400 naming the field)', async () => {
    for (const code of ['', 'has space', '-lead', 'x'.repeat(21)]) {
      const res = await server.rest('POST', '/v1/hr/departments', { key, body: { name: 'X', code } });
      expectRefused(res, 400, 'VALIDATION_ERROR', 'code');
    }
    const foreignEmployee = await hire({}, foreignKey);
    const foreignDepartment = await department({}, foreignKey);
    const withManager = await server.rest('POST', '/v1/hr/departments', {
      key,
      body: { name: 'X', code: `M${++counter}`, managerId: foreignEmployee.id },
    });
    expectRefused(withManager, 400, 'VALIDATION_ERROR', 'managerId');
    const notAnEmployee = await server.rest('POST', '/v1/hr/departments', {
      key,
      body: { name: 'X', code: `M${++counter}`, managerId: 'dep_00000000000000000000000000' },
    });
    expectRefused(notAnEmployee, 400, 'VALIDATION_ERROR', 'managerId');
    const withParent = await server.rest('POST', '/v1/hr/departments', {
      key,
      body: { name: 'X', code: `P${++counter}`, parentId: foreignDepartment.id },
    });
    expectRefused(withParent, 400, 'VALIDATION_ERROR', 'parentId');
    const mine = await department();
    expectRefused(await put(mine.id, { managerId: foreignEmployee.id }), 400, 'VALIDATION_ERROR', 'managerId');
  });
});

describe('parents', () => {
  it('refuses the department itself and any of its sub-departments however deep (400 naming parentId)', async () => {
    const company = await department({ name: 'Company' });
    const engineering = await department({ name: 'Engineering', parentId: company.id });
    const platform = await department({ name: 'Platform', parentId: engineering.id });
    for (const parentId of [company.id, engineering.id, platform.id]) {
      const res = await put(company.id, { parentId });
      expectRefused(res, 400, 'VALIDATION_ERROR', 'parentId');
      expect(res.body.error.message).toMatch(/sub-departments/);
    }
    expectRefused(await put(engineering.id, { parentId: platform.id }), 400, 'VALIDATION_ERROR', 'parentId');
    expect(await get(company.id)).toEqual(company);
    expect((await eventsAbout(company.id)).map((event) => event.type)).toEqual(['department.created']);
    // A move that makes no cycle is fine: Platform moves up under Company.
    const moved = await put(platform.id, { parentId: company.id });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.parentId).toBe(company.id);
    const children = await server.rest('GET', `/v1/hr/departments?parentId=${company.id}&sort=name`, { key });
    expect(children.body.data.map((d: Body) => d.name)).toEqual(['Engineering', 'Platform']);
  });
});

describe('DELETE /v1/hr/departments/:id', () => {
  it('refuses while an employee or a sub-department belongs to it (409), then deletes with department.deleted', async () => {
    const sales = await department({ name: 'Sales' });
    const emea = await department({ name: 'Sales EMEA', parentId: sales.id });
    const seller = await hire({ departmentId: sales.id });

    const withBoth = await server.rest('DELETE', `/v1/hr/departments/${sales.id}`, { key });
    expectRefused(withBoth, 409, 'CONFLICT');
    expect(withBoth.body.error.message).toMatch(/Employees or sub-departments still belong/);
    // The employee leaves: the sub-department still holds it.
    const moved = await server.rest('PUT', `/v1/hr/employees/${seller.id}`, { key, body: { departmentId: null } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ departmentId: null, department: null });
    expectRefused(await server.rest('DELETE', `/v1/hr/departments/${sales.id}`, { key }), 409, 'CONFLICT');

    const removed = await server.rest('DELETE', `/v1/hr/departments/${emea.id}`, { key });
    expect(removed.status, removed.text).toBe(204);
    expect((await server.rest('DELETE', `/v1/hr/departments/${sales.id}`, { key })).status).toBe(204);
    expect((await server.rest('GET', `/v1/hr/departments/${sales.id}`, { key })).status).toBe(404);
    const events = await eventsAbout(sales.id);
    expect(events.map((event) => event.type)).toEqual(['department.created', 'department.deleted']);
    expect(events[1]!.data.object).toEqual(sales);
  });
});

describe('employees and their department', () => {
  it('shows the department’s name as `department`, following a rename; filters by departmentId and name', async () => {
    const lab = await department({ name: 'Lab' });
    const other = await department({ name: 'Other' });
    const [a, b] = [await hire({ departmentId: lab.id }), await hire({ departmentId: lab.id })];
    await hire({ departmentId: other.id });
    expect(a).toMatchObject({ departmentId: lab.id, department: 'Lab' });

    expect((await put(lab.id, { name: 'Laboratory' })).status).toBe(200);
    const read = await server.rest('GET', `/v1/hr/employees/${a.id}`, { key });
    expect(read.body.department).toBe('Laboratory');
    const listed = await server.rest('GET', `/v1/hr/employees?departmentId=${lab.id}`, { key });
    expect(listed.body.data.map((e: Body) => e.id)).toEqual([a.id, b.id]);
    expect(listed.body.data.map((e: Body) => e.department)).toEqual(['Laboratory', 'Laboratory']);
    const byName = await server.rest('GET', '/v1/hr/employees?department=LABORATORY', { key });
    expect(byName.body.data.map((e: Body) => e.id)).toEqual([a.id, b.id]);
  });

  it('refuses another organization’s department (400 naming departmentId) and `department` as a field to set', async () => {
    const foreign = await department({}, foreignKey);
    const res = await server.rest('POST', '/v1/hr/employees', {
      key,
      body: { firstName: 'A', lastName: 'B', email: `x-${++counter}@example.test`, departmentId: foreign.id },
    });
    expectRefused(res, 400, 'VALIDATION_ERROR', 'departmentId');
    const named = await server.rest('POST', '/v1/hr/employees', {
      key,
      body: { firstName: 'A', lastName: 'B', email: `y-${++counter}@example.test`, department: 'Sales' },
    });
    expectRefused(named, 400, 'VALIDATION_ERROR', 'department');
    // A record read with GET can be sent back as it is: `department` at its own value passes.
    const lab = await department({ name: 'Back' });
    const employee = await hire({ departmentId: lab.id });
    const { id: _id, ...asRead } = employee;
    const sentBack = await server.rest('PUT', `/v1/hr/employees/${employee.id}`, { key, body: asRead });
    expect(sentBack.status, sentBack.text).toBe(200);
  });

  it('reads the relations through GraphQL: manager, parent, sub-departments, employees, and back', async () => {
    const boss = await hire({ firstName: 'Boss' });
    const top = await department({ name: 'Top', managerId: boss.id });
    const sub = await department({ name: 'Sub', parentId: top.id });
    const member = await hire({ departmentId: sub.id });
    const res = await server.gql(
      `query ($id: ID!, $employee: ID!, $boss: ID!) {
        department(id: $id) {
          name manager { firstName } parent { name }
          subDepartments { data { name } pagination { total } } employees { data { id } }
        }
        employee(id: $employee) { department departmentRecord { code parent { name } } }
        boss: employee(id: $boss) { managedDepartments { data { name } } }
      }`,
      { id: sub.id, employee: member.id, boss: boss.id },
      { key },
    );
    expect(res.errors, res.text).toBeUndefined();
    expect(res.data.department).toEqual({
      name: 'Sub',
      manager: null,
      parent: { name: 'Top' },
      subDepartments: { data: [], pagination: { total: 0 } },
      employees: { data: [{ id: member.id }] },
    });
    expect(res.data.employee).toEqual({
      department: 'Sub',
      departmentRecord: { code: sub.code, parent: { name: 'Top' } },
    });
    expect(res.data.boss.managedDepartments.data).toEqual([{ name: 'Top' }]);
    const top2 = await server.gql(
      `query ($id: ID!) { department(id: $id) { manager { firstName } } }`,
      { id: top.id },
      { key },
    );
    expect(top2.data.department.manager).toEqual({ firstName: 'Boss' });
  });
});

describe('the migration of the free-text department', () => {
  const MIGRATIONS = path.resolve('prisma/migrations');
  const MINE = '20261127230000_people_and_access';

  async function admin<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: withDatabaseName(inject('postgresServerUrl'), 'postgres') });
    await client.connect();
    try {
      return await use(client);
    } finally {
      await client.end();
    }
  }

  it('makes one department per organization and name (trimmed, any case), codes them, links every employee', async () => {
    const name = `bp_dept_migration_${process.pid}_${Date.now()}`;
    await admin((client) => client.query(`create database ${quoteIdentifier(name)}`));
    const db = new pg.Client({ connectionString: withDatabaseName(inject('postgresServerUrl'), name) });
    await db.connect();
    try {
      const names = (await readdir(MIGRATIONS)).filter((entry) => /^\d{14}_/.test(entry)).sort();
      expect(names).toContain(MINE);
      for (const migration of names.filter((entry) => entry < MINE)) {
        await db.query(await readFile(path.join(MIGRATIONS, migration, 'migration.sql'), 'utf8'));
      }
      // Two organizations, employees as the free-text field left them.
      await db.query(
        `insert into "Organization" (id, name, "updatedAt") values ('org_a', 'A', now()), ('org_b', 'B', now())`,
      );
      const rows: [string, string, string | null][] = [
        ['emp_a1', 'org_a', 'Research'],
        ['emp_a2', 'org_a', ' research '],
        ['emp_a3', 'org_a', 'Research'],
        ['emp_a4', 'org_a', 'RESEARCH'],
        ['emp_a5', 'org_a', 'Sales'],
        ['emp_a6', 'org_a', 'Accounts'],
        ['emp_a7', 'org_a', null],
        ['emp_b1', 'org_b', 'research'],
      ];
      for (const [id, organization, department] of rows) {
        await db.query(
          `insert into "Employee" (id, "organizationId", "firstName", "lastName", email, department, "updatedAt")
           values ($1, $2, 'F', 'L', $1 || '@example.test', $3, now())`,
          [id, organization, department],
        );
      }

      await db.query(await readFile(path.join(MIGRATIONS, MINE, 'migration.sql'), 'utf8'));

      const { rows: departments } = await db.query<{ id: string; organizationId: string; name: string; code: string }>(
        `select id, "organizationId", name, code from "Department" order by "organizationId", code`,
      );
      // By organization: named as most employees wrote it, coded in the order of the names (accounts, research, sales).
      expect(departments.map(({ organizationId, name, code }) => [organizationId, name, code])).toEqual([
        ['org_a', 'Accounts', 'DEP-001'],
        ['org_a', 'Research', 'DEP-002'],
        ['org_a', 'Sales', 'DEP-003'],
        ['org_b', 'research', 'DEP-001'],
      ]);
      for (const { id } of departments) expect(id).toMatch(/^dep_[0-9a-z]{26}$/);
      expect(new Set(departments.map(({ id }) => id)).size).toBe(4);

      const byName = new Map(departments.map((d) => [`${d.organizationId}/${d.name}`, d.id]));
      const { rows: employees } = await db.query<{ id: string; departmentId: string | null }>(
        `select id, "departmentId" from "Employee" order by id`,
      );
      expect(employees).toEqual([
        { id: 'emp_a1', departmentId: byName.get('org_a/Research') },
        { id: 'emp_a2', departmentId: byName.get('org_a/Research') },
        { id: 'emp_a3', departmentId: byName.get('org_a/Research') },
        { id: 'emp_a4', departmentId: byName.get('org_a/Research') },
        { id: 'emp_a5', departmentId: byName.get('org_a/Sales') },
        { id: 'emp_a6', departmentId: byName.get('org_a/Accounts') },
        { id: 'emp_a7', departmentId: null },
        { id: 'emp_b1', departmentId: byName.get('org_b/research') },
      ]);
      // The free text is gone, and the list totals count the new departments (3 and 1).
      const column = await db.query(
        `select 1 from information_schema.columns where table_name = 'Employee' and column_name = 'department'`,
      );
      expect(column.rows).toEqual([]);
      const { rows: counts } = await db.query<{ organizationId: string; count: number }>(
        `select "organizationId", sum(count)::int as count from "RecordCount" where "tableName" = 'Department'
         group by "organizationId" order by "organizationId"`,
      );
      expect(counts).toEqual([
        { organizationId: 'org_a', count: 3 },
        { organizationId: 'org_b', count: 1 },
      ]);
    } finally {
      await db.end();
      await admin((client) => client.query(`drop database if exists ${quoteIdentifier(name)} with (force)`));
    }
  });
});
