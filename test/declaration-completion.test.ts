// What completing a declaration derives, without a database: a lifecycle's
// states from its type's oneOf field (a declaration whose field is not one fails
// at load, saying so), and each reference's relation fields from the resource it
// names, a self-reference naming the resource itself.
import { ObjectType } from 'type-graphql';
import { describe, expect, it } from 'vitest';
import { deals } from '../src/graphql/crm/deal/index.js';
import { DEAL_STAGES } from '../src/graphql/crm/deal/type.js';
import { invoices } from '../src/graphql/finance/invoice/index.js';
import { employees } from '../src/graphql/hr/employee/index.js';
import { leaveRequests } from '../src/graphql/hr/leave-request/index.js';
import { oneOf, Public } from '../src/graphql/kit/fields.js';
import { AREAS, completeDeclaration } from '../src/graphql/kit/resource.js';

@ObjectType()
class Gadget {
  @Public.id()
  id!: string;

  @Public.text()
  status!: string;

  @Public.of(oneOf(['new', 'used']))
  condition!: string;
}

const gadget = (field: string) => ({
  type: Gadget,
  idPrefix: 'gad',
  area: AREAS.crm,
  path: 'gadgets',
  list: deals.resource.list,
  lifecycle: { field, initial: 'new', editableIn: ['new'] as [string] },
});

describe('a declaration, completed', () => {
  it("reads the lifecycle's states from the type's oneOf field", () => {
    expect(deals.resource.lifecycle!.states).toEqual(DEAL_STAGES);
    expect(completeDeclaration(gadget('condition')).lifecycle!.states).toEqual(['new', 'used']);
  });

  it('fails at load when the lifecycle field is not a oneOf field of the type', () => {
    expect(() => completeDeclaration(gadget('status'))).toThrow(
      "Gadget's lifecycle field 'status' must be a public field of one of its states",
    );
    expect(() => completeDeclaration(gadget('colour'))).toThrow("Gadget's lifecycle field 'colour'");
  });

  it('derives the relation fields of a reference from the resource it names', () => {
    expect(leaveRequests.resource.references).toEqual({
      employeeId: {
        target: employees.resource,
        onDelete: 'cascade',
        name: 'employee',
        description: undefined,
        inverse: { name: 'leaveRequests', description: "The employee's leave requests, oldest first." },
      },
    });
    expect(invoices.resource.references.contactId!.inverse).toBeUndefined();
  });

  it("names the resource itself for 'self'", () => {
    const { managerId } = employees.resource.references;
    expect(managerId!.target).toBe(employees.resource);
    expect(managerId!.name).toBe('manager');
    expect(managerId!.inverse!.name).toBe('reports');
  });
});
