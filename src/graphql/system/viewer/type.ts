// Who the caller is, for a page to show and to decide what it offers: GraphQL only.
import { Field, ObjectType } from 'type-graphql';
import { Organization } from '../organization/type.js';
import { User } from '../user/type.js';
import { CredentialTypeEnum, ScopeEnum } from '../../kit/wire-enums.js';

@ObjectType({ simpleResolvers: true, description: 'The caller: its user, organization and what it may do now.' })
export class Viewer {
  @Field(() => User, {
    nullable: true,
    description:
      "The signed-in user, or the user who made the API key or granted the token; null for an operator's key.",
  })
  user!: User | null;

  @Field(() => Organization)
  organization!: Organization;

  @Field(() => [ScopeEnum], { description: "The credential's effective scopes now (`admin` implies every scope)." })
  scopes!: string[];

  @Field(() => CredentialTypeEnum, { description: 'session, api_key, access_token or operator.' })
  credentialType!: string;
}
