// The Contact as every transport shows it: GraphQL type, REST body and event
// payload (data.object) all come from these fields.
import { Field, ID, ObjectType } from 'type-graphql';
import type { Contact as ContactRow } from '../../generated/prisma/client.js';
import { Pagination } from '../pagination.js';

@ObjectType({ simpleResolvers: true, description: 'A person in the CRM.' })
export class Contact {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { nullable: true })
  firstName!: string | null;

  @Field(() => String, { nullable: true })
  lastName!: string | null;

  @Field(() => String, { description: 'Unique within the organization; stored lower-cased.' })
  email!: string;

  @Field(() => String, { nullable: true })
  company!: string | null;

  @Field(() => String, { nullable: true })
  phone!: string | null;

  @Field(() => [String])
  tags!: string[];

  @Field(() => String, { description: 'ISO 8601 UTC timestamp.' })
  createdAt!: string;

  @Field(() => String, { description: 'ISO 8601 UTC timestamp.' })
  updatedAt!: string;
}

@ObjectType({ simpleResolvers: true })
export class ContactPage {
  @Field(() => [Contact])
  data!: Contact[];

  @Field(() => Pagination)
  pagination!: Pagination;
}

/** The public form of a contact row (REST body, GraphQL object, event payload). */
export function contactObject(row: ContactRow): Contact {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    company: row.company,
    phone: row.phone,
    tags: row.tags,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The GraphQL selection that yields exactly contactObject's fields. */
export const CONTACT_FIELDS = 'id firstName lastName email company phone tags createdAt updatedAt';
