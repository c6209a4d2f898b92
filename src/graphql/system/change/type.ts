import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';
import { DateTime } from '../../kit/date-time.js';
import { graphqlEnum } from '../../kit/enums.js';
import { EventActor } from '../event/type.js';

export const CHANGE_OPERATIONS = ['created', 'updated', 'deleted'] as const;

const ChangeOperationEnum = graphqlEnum('ChangeOperation', CHANGE_OPERATIONS, {
  description: 'What a change did to its record (an action such as invoice.paid is an update).',
});

@ObjectType({ simpleResolvers: true, description: 'One committed change of a record, in the feed’s order.' })
export class Change {
  @Field(() => String, { description: 'Read after this change with `after`.' })
  cursor!: string;

  @Field(() => String, { description: 'The resource’s REST name: contacts, invoices, …' })
  resource!: string;

  @Field(() => ID, { description: 'The record’s id.' })
  id!: string;

  @Field(() => ChangeOperationEnum)
  operation!: string;

  @Field(() => GraphQLJSONObject, { description: 'The record after the change; for a delete, as it was.' })
  object!: Record<string, unknown>;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'On updates: the previous values of what changed.' })
  previousAttributes!: Record<string, unknown> | null;

  @Field(() => EventActor, { description: 'Who made the change.' })
  actor!: EventActor;

  @Field(() => DateTime, { description: 'When the change was made (its transaction’s time).' })
  at!: string;
}

@ObjectType({ simpleResolvers: true, description: 'A page of the change feed.' })
export class ChangePage {
  @Field(() => [Change])
  data!: Change[];

  @Field(() => String, { description: 'The cursor to read on from (`after`), also when this page is empty.' })
  next!: string;
}
