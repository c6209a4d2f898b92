// The scopes of the specification (section 5) and what each area needs.
export const SCOPES = [
  'crm:read',
  'crm:write',
  'hr:read',
  'hr:write',
  'hr:payroll',
  'finance:read',
  'finance:write',
  'admin',
] as const;

export type Scope = (typeof SCOPES)[number];

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'crm:read': 'Read CRM contacts and deals.',
  'crm:write': 'Create and update CRM data.',
  'hr:read': 'Read employee data.',
  'hr:write': 'Manage employees and attendance.',
  'hr:payroll': 'Read and change salaries, compensation, pay components and payroll runs.',
  'finance:read': 'View financial records.',
  'finance:write': 'Create invoices and transactions.',
  admin: 'Full administrative access.',
};

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** `admin` implies every scope. */
export function hasScope(granted: ReadonlySet<string>, needed: Scope): boolean {
  return granted.has(needed) || granted.has('admin');
}

/** Parses a space- or comma-separated scope list; throws on an unknown name. */
export function parseScopes(text: string): Scope[] {
  const names = [...new Set(text.split(/[\s,]+/).filter(Boolean))];
  const unknown = names.filter((name) => !isScope(name));
  if (unknown.length) throw new Error(`unknown scope ${unknown.join(', ')} (known: ${SCOPES.join(' ')})`);
  return names as Scope[];
}
