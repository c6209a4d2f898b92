// The holiday as every transport shows it (GraphQL, REST, OpenAPI, events).
import { ObjectType } from 'type-graphql';
import { Public } from '../../kit/fields.js';

@ObjectType({
  simpleResolvers: true,
  description: 'A day the organization does not work, whatever its weekday: leave does not count it.',
})
export class Holiday {
  @Public.id()
  id!: string;

  @Public.date({ description: 'The day off; one holiday per date in the organization.' })
  date!: string;

  @Public.text()
  name!: string;

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}
