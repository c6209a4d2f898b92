// The organization as its members see it: GraphQL (`organization`,
// Viewer.organization), GET and PUT /organization, and the organization.updated
// event's data.object.
import { Int, ObjectType } from 'type-graphql';
import { z } from 'zod';
import { FIELD_KINDS, Public, type FieldKind } from '../../kit/fields.js';

/** ISO weekdays, 1 Monday .. 7 Sunday (a smallint[] column). */
const weekdaysKind: FieldKind = {
  ...FIELD_KINDS.int,
  graphql: () => [Int],
  schema: () => z.array(z.int().min(1).max(7)),
  column: 'SMALLINT[]',
};

@ObjectType({ simpleResolvers: true, description: 'The organization (tenant) a credential belongs to.' })
export class Organization {
  @Public.id()
  id!: string;

  @Public.text()
  name!: string;

  @Public.text({
    description:
      'IANA time zone of its calendar days (attendance days, notice periods, "today", leave conflicts); default UTC.',
  })
  timeZone!: string;

  @Public.of(weekdaysKind, {
    description: 'Its working week: ISO weekdays, 1 Monday .. 7 Sunday, in order; default [1, 2, 3, 4, 5].',
  })
  workingDays!: number[];

  @Public.text({ nullable: true, description: 'Its registered name, printed on documents instead of `name`.' })
  legalName!: string | null;

  @Public.text({ nullable: true, description: 'Its postal address on documents, lines separated by newlines.' })
  address!: string | null;

  @Public.text({ nullable: true, description: 'Its tax or VAT registration number on documents.' })
  taxId!: string | null;

  @Public.int({
    description:
      "Its default payment terms in days (0..3650; default 30): an invoice's dueDate is its issueDate plus the " +
      "invoice's own terms, else its contact's, else these.",
  })
  paymentTermsDays!: number;
}
