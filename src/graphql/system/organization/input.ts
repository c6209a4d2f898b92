// What PUT /organization and updateOrganization take: each setting optional
// (partial); the calendar settings are not clearable, the details printed on
// documents are (null); the rules here are the only ones.
import { Field, InputType, Int } from 'type-graphql';
import { z } from 'zod';
import { paymentTermsDays } from '../../finance/terms/days.js';
import { text } from '../../kit/values.js';

/**
 * Whether Intl knows the zone: any IANA name or link, in any case (Asia/Kolkata
 * as well as Asia/Calcutta; Intl.supportedValuesOf lists only CLDR's canonical
 * names, which leave out many that people use). Offsets (+01:00) are not zones.
 */
function knownToIntl(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** An IANA time zone name; the service stores it as the database spells it (service.ts). */
export const timeZone = z
  .string('must be an IANA time zone name, e.g. Europe/Paris')
  .trim()
  .max(100, 'must be an IANA time zone name, e.g. Europe/Paris')
  .refine(knownToIntl, 'must be an IANA time zone name, e.g. Europe/Paris');

export const workingDays = z
  .array(
    z
      .int('must hold ISO weekdays, 1 Monday to 7 Sunday')
      .min(1, 'must hold ISO weekdays, 1 Monday to 7 Sunday')
      .max(7, 'must hold ISO weekdays, 1 Monday to 7 Sunday'),
    'must be an array of ISO weekdays',
  )
  .min(1, 'must name at least one working day')
  .refine((days) => new Set(days).size === days.length, 'must not name a day twice')
  .transform((days) => [...days].sort((a, b) => a - b))
  .meta({ uniqueItems: true });

export const updateOrganizationSchema = z.strictObject({
  name: text(200).optional().describe('What the organization is called.'),
  timeZone: timeZone
    .optional()
    .describe('An IANA time zone name (Europe/Paris, America/New_York, UTC): where its days begin and end.'),
  workingDays: workingDays
    .optional()
    .describe('Its working week: distinct ISO weekdays, 1 Monday .. 7 Sunday; at least one.'),
  legalName: text(200)
    .nullable()
    .optional()
    .describe('Its registered name, printed on invoices and credit notes instead of `name`; null clears it.'),
  address: text(500)
    .nullable()
    .optional()
    .describe('Its postal address as printed on documents, lines separated by newlines; null clears it.'),
  taxId: text(50)
    .nullable()
    .optional()
    .describe('Its tax or VAT registration number, printed on documents; null clears it.'),
  paymentTermsDays: paymentTermsDays
    .optional()
    .describe("Its default payment terms: days from an invoice's issue date to its due date, 0 to 3650."),
});

@InputType('UpdateOrganizationInput', { description: 'The settings to change; omitted ones are kept.' })
export class UpdateOrganizationInput {
  @Field(() => String, { nullable: true })
  name?: string;

  @Field(() => String, { nullable: true, description: 'An IANA time zone name.' })
  timeZone?: string;

  @Field(() => [Int], { nullable: true, description: 'Distinct ISO weekdays, 1 Monday .. 7 Sunday.' })
  workingDays?: number[];

  @Field(() => String, { nullable: true, description: 'Its registered name on documents; null clears it.' })
  legalName?: string | null;

  @Field(() => String, { nullable: true, description: 'Its postal address on documents; null clears it.' })
  address?: string | null;

  @Field(() => String, { nullable: true, description: 'Its tax or VAT number on documents; null clears it.' })
  taxId?: string | null;

  @Field(() => Int, { nullable: true, description: 'Default payment terms in days, 0 to 3650.' })
  paymentTermsDays?: number;
}
