import 'reflect-metadata';
// The dashboard's catalogue (src/dashboard/catalogue.ts): what the record pages
// are built from, read off the declarations and the schema, for a few
// resources; what a viewer's scopes leave of it; and the page's data block.
import { describe, expect, it } from 'vitest';
import '../src/graphql/modules.js';
import { declaredResources } from '../src/graphql/kit/declared.js';
import { getSchema } from '../src/graphql/schema.js';
import { buildCatalogue, catalogueFor, LABEL_FIELDS } from '../src/dashboard/catalogue.js';
import type { Catalogue, CatalogueResource } from '../src/dashboard/catalogue-shape.js';
import { jsonInScript } from '../src/dashboard/page.js';

const catalogue: Catalogue = buildCatalogue(declaredResources(), await getSchema());
const entry = (key: string): CatalogueResource => {
  const found = catalogue.find((candidate) => candidate.key === key);
  if (!found) throw new Error(`no ${key} in the catalogue`);
  return found;
};
const field = (key: string, name: string) => entry(key).fields.find((candidate) => candidate.name === name);
const input = (key: string, name: string) => entry(key).input?.find((candidate) => candidate.name === name);

describe('the catalogue of the declared resources', () => {
  it('holds every declared resource, at its REST path without /v1', () => {
    expect(catalogue.map((e) => e.key).sort()).toEqual([...declaredResources().keys()].sort());
    for (const [key, resource] of declaredResources()) expect(entry(key).path).toBe(resource.fullPath);
  });

  it('contacts: area, names, fields by kind, the create input, the search, the deals that name one', () => {
    const contacts = entry('contacts');
    expect(contacts.area).toEqual({ title: 'CRM', read: 'crm:read', write: 'crm:write' });
    expect(contacts.noun).toEqual(['contact', 'contacts']);
    expect(contacts.graphql).toMatchObject({
      type: 'Contact',
      one: 'contact',
      many: 'contacts',
      create: 'createContact',
      update: 'updateContact',
      delete: 'deleteContact',
      createInput: 'CreateContactInput',
      updateInput: 'UpdateContactInput',
      sort: 'ContactSort',
    });
    expect(contacts.graphql.sortValues).toContain('createdAt_desc');
    expect(contacts.graphql.sortValues).toContain('lastName');
    expect(field('contacts', 'email')).toMatchObject({ kind: 'email', nullable: false });
    expect(field('contacts', 'tags')).toMatchObject({ kind: 'textList' });
    expect(field('contacts', 'createdAt')).toMatchObject({ kind: 'timestamp' });
    expect(input('contacts', 'email')).toMatchObject({ kind: 'text', required: true, clearable: false });
    expect(input('contacts', 'company')).toMatchObject({ required: false, clearable: true });
    expect(contacts.list.find((a) => a.name === 'q')).toEqual({ name: 'q', type: 'String', kind: 'search' });
    expect(contacts.inverses).toContainEqual({ name: 'deals', resource: 'deals', field: 'contactId' });
    expect(contacts.label).toEqual([['firstName', 'lastName'], ['email']]);
  });

  it("deals: money, the stage's states and those a create may start at, the contact as a reference", () => {
    const deals = entry('deals');
    expect(field('deals', 'amount')).toMatchObject({ kind: 'money' });
    expect(field('deals', 'contactId')).toMatchObject({ kind: 'id', reference: 'contacts' });
    expect(input('deals', 'stage')).toMatchObject({
      kind: 'enum',
      values: ['lead', 'qualified', 'proposal', 'negotiation', 'won', 'lost'],
      createValues: ['lead', 'qualified', 'proposal', 'negotiation'],
    });
    expect(input('deals', 'contactId')).toMatchObject({ reference: 'contacts', required: false });
    expect(deals.references).toEqual([{ name: 'contact', field: 'contactId', resource: 'contacts' }]);
    expect(deals.lifecycle).toMatchObject({ field: 'stage', initial: 'lead' });
    expect(deals.lifecycle!.editableIn).not.toContain('won');
    expect(deals.list.find((a) => a.name === 'contactId')).toMatchObject({ kind: 'reference', reference: 'contacts' });
    expect(deals.label).toEqual([['title']]);
  });

  it('leave requests: the lifecycle, its actions with the states they start from, an action input', () => {
    const leave = entry('leave-requests');
    expect(leave.noun).toEqual(['leave request', 'leave requests']);
    expect(leave.lifecycle).toMatchObject({ field: 'status', initial: 'requested', editableIn: ['requested'] });
    expect(leave.actions.map((a) => [a.name, a.label, a.from, a.mutation])).toEqual([
      ['approve', 'Approve', ['requested'], 'approveLeaveRequest'],
      ['reject', 'Reject', ['requested'], 'rejectLeaveRequest'],
      ['cancel', 'Cancel', ['requested', 'approved'], 'cancelLeaveRequest'],
    ]);
    expect(leave.actions[1]!.input).toEqual({
      type: 'RejectLeaveRequestInput',
      optional: true,
      fields: [{ name: 'reason', kind: 'text', required: false }],
    });
    expect(leave.graphql.delete).toBeUndefined();
    expect(entry('employees').inverses).toContainEqual({
      name: 'leaveRequests',
      resource: 'leave-requests',
      field: 'employeeId',
    });
  });

  it("invoices: lines as objects with their money, the overdue flag, no delete; a record action's input", () => {
    const invoices = entry('invoices');
    const lines = field('invoices', 'lines')!;
    expect(lines.kind).toBe('objects');
    expect(lines.item!.fields.find((f) => f.name === 'unitAmount')).toMatchObject({ kind: 'money' });
    expect(lines.item!.selection).toContain('unitAmount');
    expect(input('invoices', 'lines')).toMatchObject({ kind: 'objects', required: true });
    expect(input('invoices', 'lines')!.item!.fields.find((f) => f.name === 'unitAmount')).toMatchObject({
      kind: 'money',
      required: true,
    });
    expect(invoices.list.find((a) => a.name === 'overdue')).toEqual({
      name: 'overdue',
      type: 'Boolean',
      kind: 'boolean',
    });
    expect(invoices.list.find((a) => a.name === 'from')).toMatchObject({ kind: 'date', type: 'Date' });
    expect(invoices.graphql.delete).toBeUndefined();
    expect(invoices.actions.map((a) => [a.name, a.from])).toEqual([
      ['open', ['draft']],
      ['void', ['draft', 'open']],
    ]);
    expect(invoices.label).toEqual([['number']]);
    const refund = entry('payments').actions.find((a) => a.name === 'refund')!;
    expect(refund.from).toBeUndefined();
    expect(refund.input!.fields).toEqual([
      { name: 'amount', kind: 'money', required: true },
      { name: 'reason', kind: 'text', required: true },
    ]);
  });

  it('departments: a reference another module adds (the manager), and its inverse on employees', () => {
    expect(entry('departments').references).toContainEqual({
      name: 'manager',
      field: 'managerId',
      resource: 'employees',
    });
    expect(field('departments', 'managerId')).toMatchObject({ reference: 'employees' });
    expect(entry('employees').inverses).toContainEqual({
      name: 'managedDepartments',
      resource: 'departments',
      field: 'managerId',
    });
    expect(entry('departments').references).toContainEqual({
      name: 'parent',
      field: 'parentId',
      resource: 'departments',
    });
  });

  it('payroll runs: deleted only while draft; updateOnly and createOnly inputs marked', () => {
    expect(entry('payroll-runs').lifecycle!.deletableIn).toEqual(['draft']);
    expect(entry('payroll-runs').graphql.delete).toBe('deletePayrollRun');
    expect(input('attendance', 'clockOut')).toMatchObject({ updateOnly: true, kind: 'timestamp' });
    expect(input('attendance', 'employeeId')).toMatchObject({ createOnly: true, reference: 'employees' });
  });

  it('each label written here names fields its declaration’s SQL reads', () => {
    for (const [key, groups] of Object.entries(LABEL_FIELDS)) {
      const declared = declaredResources().get(key)!.label!;
      const sql = declared.sql('t');
      for (const name of groups.flat()) expect(sql, `${key}.${name}`).toMatch(new RegExp(`"t"\\."?${name}\\b`));
    }
  });
});

describe("what a viewer's scopes leave of it", () => {
  const keys = (scopes: string[]) => catalogueFor(catalogue, declaredResources(), new Set(scopes)).map((e) => e.key);

  it('the areas the scopes read, every one for an admin', () => {
    expect(keys(['crm:read'])).toEqual(['contacts', 'deals']);
    expect(keys(['admin'])).toHaveLength(catalogue.length);
    expect(keys(['hr:read'])).toContain('employees');
    expect(keys(['hr:read'])).not.toContain('payroll-runs');
    expect(keys(['hr:read', 'hr:payroll'])).toContain('payroll-runs');
  });

  it('without hr:payroll an employee has no salary or currency, to read or to set', () => {
    const [employees] = catalogueFor(catalogue, declaredResources(), new Set(['hr:read'])).filter(
      (e) => e.key === 'employees',
    );
    expect(employees!.fields.map((f) => f.name)).not.toContain('salary');
    expect(employees!.input!.map((f) => f.name)).not.toContain('salary');
    expect(employees!.input!.map((f) => f.name)).not.toContain('currency');
    const full = catalogueFor(catalogue, declaredResources(), new Set(['hr:read', 'hr:payroll'])).find(
      (e) => e.key === 'employees',
    );
    expect(full!.fields.map((f) => f.name)).toContain('salary');
  });
});

describe("the page's data block", () => {
  it('cannot end its script element or open a comment, whatever a value holds', () => {
    const block = jsonInScript({ text: '</script><script>alert(1)</script><!-- & \u2028' }).toString();
    expect(block).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(block)).toEqual({ text: '</script><script>alert(1)</script><!-- & \u2028' });
  });
});
