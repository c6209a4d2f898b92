// The deal pipeline as the dashboard shows it: GraphQL only, no REST route.
import { GraphQLSafeInt } from 'graphql-scalars';
import { Field, Int, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../kit/enums.js';
import { DEAL_STAGES, type DealStage } from '../deal/type.js';

// Deal.stage's enum, the same type.
const DealStageEnum = graphqlEnum('DealStage', DEAL_STAGES);

@ObjectType({ simpleResolvers: true, description: 'A sum of deal amounts in one currency.' })
export class CurrencyAmount {
  @Field(() => String, { description: 'ISO 4217 code, upper-case.' })
  currency!: string;

  @Field(() => GraphQLSafeInt, { description: 'Integer minor units, as Deal.amount.' })
  amount!: number;
}

@ObjectType({ simpleResolvers: true, description: 'The deals at one stage: how many, and their amounts per currency.' })
export class DealStageSummary {
  @Field(() => DealStageEnum)
  stage!: DealStage;

  @Field(() => Int)
  count!: number;

  @Field(() => [CurrencyAmount], { description: 'One per currency of these deals, by currency code.' })
  amounts!: CurrencyAmount[];
}
