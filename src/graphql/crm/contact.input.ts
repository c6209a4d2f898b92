// Contact input: the GraphQL input types and the one validation schema for them.
// REST validates request bodies with these same schemas before executing.
import { Field, InputType } from 'type-graphql';
import { z } from 'zod';
import { hasNoNul, NUL_MESSAGE } from '../../validation.js';
import { pageSchema } from '../pagination.js';

const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine(hasNoNul, NUL_MESSAGE);
const email = z
  .string()
  .trim()
  .max(254, 'must be at most 254 characters')
  .pipe(z.email('must be a valid email address'))
  .transform((value) => value.toLowerCase());
const tags = z
  .array(text(64), 'must be an array of strings')
  .max(50, 'must have at most 50 tags')
  .transform((values) => [...new Set(values)]);

const optionalFields = {
  firstName: text(100),
  lastName: text(100),
  company: text(200),
  phone: z
    .string()
    .trim()
    .regex(/^\+?[0-9 ().\-/x]{3,40}$/i, 'must be a phone number of digits, spaces and + ( ) - . /'),
};

export const createContactSchema = z.strictObject({
  firstName: optionalFields.firstName.nullish(),
  lastName: optionalFields.lastName.nullish(),
  email,
  company: optionalFields.company.nullish(),
  phone: optionalFields.phone.nullish(),
  tags: tags.nullish(),
});

/** Partial update: omitted fields are kept, null clears an optional field. */
export const updateContactSchema = z.strictObject({
  firstName: optionalFields.firstName.nullish(),
  lastName: optionalFields.lastName.nullish(),
  email: email.optional(),
  company: optionalFields.company.nullish(),
  phone: optionalFields.phone.nullish(),
  tags: tags.nullish(),
});

export const CONTACT_SORT_FIELDS = ['createdAt', 'updatedAt', 'firstName', 'lastName', 'email', 'company'] as const;
export type ContactSortField = (typeof CONTACT_SORT_FIELDS)[number];

export const contactFilterSchema = pageSchema.extend({
  sort: z
    .enum([...CONTACT_SORT_FIELDS, ...CONTACT_SORT_FIELDS.map((name) => `-${name}` as const)], {
      message: `must be one of ${CONTACT_SORT_FIELDS.join(', ')}, optionally prefixed with -`,
    })
    .optional(),
  email: text(254).optional(),
  company: text(200).optional(),
  tag: text(64).optional(),
  q: text(200).optional(),
});

export type ContactFilter = z.output<typeof contactFilterSchema>;

@InputType()
export class CreateContactInput {
  @Field(() => String, { nullable: true })
  firstName?: string | null;

  @Field(() => String, { nullable: true })
  lastName?: string | null;

  @Field(() => String)
  email!: string;

  @Field(() => String, { nullable: true })
  company?: string | null;

  @Field(() => String, { nullable: true })
  phone?: string | null;

  @Field(() => [String], { nullable: true })
  tags?: string[] | null;
}

@InputType({ description: 'Fields sent are changed, omitted are kept, null clears.' })
export class UpdateContactInput {
  @Field(() => String, { nullable: true })
  firstName?: string | null;

  @Field(() => String, { nullable: true })
  lastName?: string | null;

  @Field(() => String, { nullable: true, description: 'Cannot be cleared.' })
  email?: string | null;

  @Field(() => String, { nullable: true })
  company?: string | null;

  @Field(() => String, { nullable: true })
  phone?: string | null;

  @Field(() => [String], { nullable: true })
  tags?: string[] | null;
}
