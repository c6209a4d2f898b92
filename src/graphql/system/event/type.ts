import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { EventTypeEnum } from '../../kit/wire-enums.js';

@ObjectType({ simpleResolvers: true, description: 'Something that happened, as webhooks deliver it.' })
export class Event {
  @Field(() => ID)
  id!: string;

  @Field(() => EventTypeEnum)
  type!: string;

  @Field(() => Int, { description: 'Unix time in seconds.' })
  created!: number;

  @Field(() => GraphQLJSONObject, { description: '{ object, previousAttributes? }' })
  data!: Record<string, unknown>;
}
