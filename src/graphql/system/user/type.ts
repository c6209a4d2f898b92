// A user as every transport shows it. The password hash is a column but not a
// public field, so no answer, list, event or OpenAPI schema can carry it.
import { ObjectType } from 'type-graphql';
import { USER_ROLES } from '../../../auth/user-scopes.js';
import { oneOf, Public } from '../../kit/fields.js';

@ObjectType({ simpleResolvers: true, description: 'A person who signs in to the dashboard and the OAuth consent.' })
export class User {
  @Public.id()
  id!: string;

  @Public.email({ description: 'The sign-in name: unique across all organizations; stored lower-cased.' })
  email!: string;

  @Public.text({ nullable: true })
  name!: string | null;

  @Public.of(oneOf(USER_ROLES), { description: '`admin` holds every scope; `member` holds `scopes`.' })
  role!: string;

  @Public.scopes({ description: "`['admin']` for an admin; a member's own scopes otherwise." })
  scopes!: string[];

  @Public.id({
    nullable: true,
    description:
      'The employee this user is (at most one user per employee): they cannot approve or reject ' +
      'their own leave requests and expenses.',
  })
  employeeId!: string | null;

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}
