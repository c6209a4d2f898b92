// Users on the kit: who signs in to the dashboard and the OAuth consent, and with
// which rights; `admin` only. What is theirs (roles and scopes, the last admin, the
// employee link, the password, what a change ends) is in rules.ts; the signed-in
// user's own password change in service.ts.
import { USER_EVENTS } from '../../../events/system-events.js';
import { ID_PREFIX } from '../../../ids.js';
import { defineResource } from '../../kit/define-resource.js';
import { defineModule } from '../../kit/module.js';
import { systemArea } from '../../kit/resource.js';
import { userInput, userList } from './input.js';
import { userRules } from './rules.js';
import { UserService } from './service.js';
import { User } from './type.js';

export const users = defineResource({
  type: User,
  idPrefix: ID_PREFIX.user,
  system: true,
  area: systemArea('Users'),
  path: 'users',
  names: { one: 'user', many: 'users' },
  input: userInput,
  list: userList,
  operations: { delete: true },
  // Sign-in is by email, so the address is unique across organizations; the message does not say where it is used.
  unique: {
    email: 'A user with this email already exists',
    employeeId: 'Another user of the organization is this employee',
  },
  events: USER_EVENTS,
  rules: userRules,
  conflicts: {
    update: 'The change would leave the organization without an admin',
    delete: 'The last admin of the organization cannot be deleted',
  },
  descriptions: {
    create:
      '`email` must be unused in every organization (sign-in is by email). The password is never returned. ' +
      "A member's scopes must each be held by the caller; an admin needs an `admin` caller.",
    update:
      'Partial: fields sent are changed, omitted are kept, null clears `name` (and `scopes` to none). ' +
      'Making an admin a member needs its `scopes` in the same request; the last admin cannot be demoted (409).',
    delete:
      'Deletes the user for good, with its sessions and OAuth grants. The API keys it created are revoked at once ' +
      '(they stay listed, with `revokedAt` and no creator). The last admin cannot be deleted (409).',
  },
});

export const userModule = defineModule({
  ...users.module,
  services: { users: (deps) => new UserService(users.resource, deps) },
});
