// The organization as GraphQL shows it to its own members (Viewer.organization):
// GraphQL only, no REST operation reads it.
import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType({ simpleResolvers: true, description: 'The organization (tenant) a credential belongs to.' })
export class Organization {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;
}
