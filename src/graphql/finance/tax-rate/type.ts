// The tax rate as every transport shows it (GraphQL, REST, OpenAPI, events). Its
// percentage is a NUMERIC(7,4) column shown as its shortest decimal string, so
// "8.875" reads back as given and is never a binary float.
import { ObjectType } from 'type-graphql';
import { z } from 'zod';
import { Public, type FieldKind } from '../../kit/fields.js';
import { canonicalPercentage } from '../percentage.js';

/** A percentage column: exact to 4 decimals, read as its shortest decimal string ("19", "8.875"). */
const percentage: FieldKind = {
  graphql: () => String,
  schema: () => z.string(),
  sql: (column) => `trim_scale(${column})::text`,
  fromRow: (value) => canonicalPercentage(String(value)),
  column: 'NUMERIC(7,4)',
};

@ObjectType({
  simpleResolvers: true,
  description:
    'A tax applied to invoice lines: a percentage of the line’s amount, added to it (exclusive) or included in it.',
})
export class TaxRate {
  @Public.id()
  id!: string;

  @Public.text({ description: 'What invoices show for the tax: "VAT", "Sales tax (NY)".' })
  name!: string;

  @Public.text({ nullable: true })
  description!: string | null;

  @Public.of(percentage, {
    description:
      'Percent as a decimal string, at most 4 decimals ("19", "8.875"); fixed when the rate is created ' +
      '(make another rate for another percentage).',
  })
  percentage!: string;

  @Public.boolean({
    description:
      'Whether line amounts include the tax (true) or it is added on top (false); fixed when the rate is created.',
  })
  inclusive!: boolean;

  @Public.boolean({ description: 'Only an active rate can be put on a new or edited invoice line.' })
  active!: boolean;

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}
