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

/** One line per event type: what happened (the dashboard's webhook form shows it). */
export const EVENT_DESCRIPTIONS: Record<EventType, string> = {
  'contact.created': 'A contact was created.',
  'contact.updated': 'A contact was changed.',
  'deal.created': 'A deal was created.',
  'deal.stage_changed': "A deal's stage changed (previousAttributes.stage holds the old one).",
  'deal.closed': 'A deal was won or lost.',
  'invoice.created': 'An invoice was created.',
  'invoice.paid': 'An invoice was paid in full.',
  'payment.received': 'A payment was recorded against an invoice.',
  'expense.submitted': 'An expense was submitted for approval.',
  'expense.approved': 'An expense was approved.',
  'expense.rejected': 'An expense was rejected.',
  'expense.reimbursed': 'An approved expense was reimbursed.',
  'employee.created': 'An employee was added.',
  'employee.updated': "An employee's record was changed.",
  'employee.terminated': 'An employee was terminated.',
  'employee.reinstated': 'A terminated employee was reinstated.',
  'attendance.logged': 'An employee clocked in or out.',
  'attendance.updated': 'An attendance record was corrected.',
  'leave.requested': 'A leave request was made.',
  'leave.updated': 'A pending leave request was changed.',
  'leave.approved': 'A leave request was approved.',
  'leave.rejected': 'A leave request was rejected.',
  'leave.cancelled': 'A leave request was cancelled.',
  'payroll.processed': 'A payroll run was processed.',
  'user.logged_in': 'A user signed in.',
  'api_key.created': 'An API key was created.',
  'export.completed': 'A data export finished and can be downloaded.',
};

export const EVENT_AREAS = ['crm', 'hr', 'finance', 'system'] as const;

export type EventArea = (typeof EVENT_AREAS)[number];

/** The area of an event type: that of its read scope (`crm:read` -> crm), system for admin-only ones. */
export function eventAreaOf(type: EventType): EventArea {
  const scope: string = EVENT_TYPES[type];
  return scope === 'admin' ? 'system' : (scope.split(':')[0] as EventArea);
}

/** The event types a holder of these scopes may read. */
export function readableEventTypes(scopes: ReadonlySet<string>): EventType[] {
  return (Object.keys(EVENT_TYPES) as EventType[]).filter(
    (type) => scopes.has('admin') || scopes.has(EVENT_TYPES[type]),
  );
}
