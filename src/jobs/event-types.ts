// The event types of the specification (section 6) and the scope needed to read
// each: an area's read scope, or admin for system events (DECISIONS.md).
import type { Scope } from '../auth/scopes.js';

export const EVENT_TYPES = {
  'contact.created': 'crm:read',
  'contact.updated': 'crm:read',
  'deal.created': 'crm:read',
  'deal.stage_changed': 'crm:read',
  'deal.closed': 'crm:read',
  'invoice.created': 'finance:read',
  'invoice.paid': 'finance:read',
  'payment.received': 'finance:read',
  'expense.submitted': 'finance:read',
  'expense.approved': 'finance:read',
  'expense.rejected': 'finance:read',
  'expense.reimbursed': 'finance:read',
  'employee.created': 'hr:read',
  'employee.updated': 'hr:read',
  'employee.terminated': 'hr:read',
  'employee.reinstated': 'hr:read',
  'attendance.logged': 'hr:read',
  'attendance.updated': 'hr:read',
  'leave.requested': 'hr:read',
  'leave.updated': 'hr:read',
  'leave.approved': 'hr:read',
  'leave.rejected': 'hr:read',
  'leave.cancelled': 'hr:read',
  'payroll.processed': 'hr:read',
  'user.logged_in': 'admin',
  'api_key.created': 'admin',
  'export.completed': 'admin',
} as const satisfies Record<string, Scope>;

export type EventType = keyof typeof EVENT_TYPES;

/** The event types a holder of these scopes may read. */
export function readableEventTypes(scopes: ReadonlySet<string>): EventType[] {
  return (Object.keys(EVENT_TYPES) as EventType[]).filter(
    (type) => scopes.has('admin') || scopes.has(EVENT_TYPES[type]),
  );
}
