// The Department as every transport shows it (GraphQL, REST, OpenAPI, events).
import { ObjectType } from 'type-graphql';
import { Public } from '../../kit/fields.js';

@ObjectType({ simpleResolvers: true, description: 'A unit of the organization: employees belong to one.' })
export class Department {
  @Public.id()
  id!: string;

  @Public.text()
  name!: string;

  @Public.text({ description: 'Unique within the organization; stored upper-case (`eng` is `ENG`).' })
  code!: string;

  @Public.id({ nullable: true, description: 'The employee who heads it: an employee of the organization.' })
  managerId!: string | null;

  @Public.id({
    nullable: true,
    description: 'The department it is part of; not itself, nor one of its own sub-departments.',
  })
  parentId!: string | null;

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}
