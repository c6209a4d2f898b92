// User input and list arguments, each written once (see kit/inputs.ts, kit/list.ts).
// Rules that join role and scopes need the stored user on update: rules.ts.
import { z } from 'zod';
import { USER_ROLES } from '../../../auth/user-scopes.js';
import { defineInput, optional, required } from '../../kit/inputs.js';
import { defineList, filter, likePattern } from '../../kit/list.js';
import { email, password, scopeList, text } from '../../kit/values.js';
import { ScopeEnum } from '../../kit/wire-enums.js';

const role = z.enum(USER_ROLES, { message: `must be one of ${USER_ROLES.join(', ')}` });

/** A member may hold no scope at all (it signs in but can grant nothing). */
const memberScopes = scopeList();

const fields = defineInput('User', {
  email: required(email, { description: 'The sign-in name: unique across all organizations; cannot be cleared.' }),
  name: optional(text(200)),
  role: required(role, { description: '`admin` (every scope) or `member` (the scopes listed).' }),
  scopes: optional(memberScopes, {
    graphql: () => [ScopeEnum],
    description:
      "A member's scopes, each held by the caller; not `admin` (make the user an admin instead). " +
      "An admin's scopes are `['admin']`: omit them or send exactly that.",
  }),
  employeeId: optional(z.string('must be an employee id'), {
    description:
      'The employee this user is: an employee of the organization not linked to another user (409). ' + 'null unlinks.',
  }),
  // Required on create; on update optional and never null: a password can be changed, not cleared.
  password: required(password.meta({ writeOnly: true, format: 'password' }), {
    description: 'At least 8 characters; stored as a slow hash and never returned.',
  }),
});

/**
 * What the rules check of a new user's scopes (rules.ts, scopesFor), said
 * in the document: a member's are a list (required, never null, without
 * `admin`); an admin's are `['admin']`, null or left out.
 */
const scopesByRole = {
  allOf: [
    {
      if: { properties: { role: { const: 'member' } }, required: ['role'] },
      then: { required: ['scopes'], properties: { scopes: { type: 'array', items: { not: { const: 'admin' } } } } },
    },
    {
      if: { properties: { role: { const: 'admin' } }, required: ['role'] },
      then: { properties: { scopes: { anyOf: [{ type: 'null' }, { const: ['admin'] }] } } },
    },
  ],
};

export const userInput = { ...fields, create: fields.create.meta(scopesByRole) };

export const userList = defineList('User', {
  sort: ['createdAt', 'updatedAt', 'email', 'name'],
  filters: {
    role: filter(role, { description: 'Users of this role.', where: (p) => `"User".role = ${p}` }),
    q: filter(text(200), {
      description: 'Text search over email and name.',
      where: (p) => `("User".email ilike ${p} or "User".name ilike ${p})`,
      value: likePattern,
    }),
  },
});

/** A user's own password change: the current one (checked), and the new one under the same rules. */
export const changePasswordSchema = z.strictObject({
  currentPassword: z.string('must be a string').min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  newPassword: password,
});
