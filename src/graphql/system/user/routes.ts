import { resourceRoutes } from '../../kit/resource-routes.js';
import { userInput, userList } from './input.js';
import { User } from './type.js';

export const userRoutes = resourceRoutes({
  path: '/users',
  tag: 'Users',
  type: User,
  noun: ['user', 'users'],
  list: userList,
  input: userInput,
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
  conflicts: {
    create: 'A user with this email already exists',
    update: 'The email is taken, or the change would leave the organization without an admin',
    delete: 'The last admin of the organization cannot be deleted',
  },
});
