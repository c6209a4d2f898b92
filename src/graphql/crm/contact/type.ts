// The Contact as every transport shows it: GraphQL type, REST body, OpenAPI
// schema and event data.object all come from these declarations.
import { ObjectType } from 'type-graphql';
import { Public } from '../../kit/fields.js';

@ObjectType({ simpleResolvers: true, description: 'A person in the CRM.' })
export class Contact {
  @Public.id()
  id!: string;

  @Public.text({ nullable: true })
  firstName!: string | null;

  @Public.text({ nullable: true })
  lastName!: string | null;

  @Public.email({ description: 'Unique within the organization; stored lower-cased.' })
  email!: string;

  @Public.text({ nullable: true })
  company!: string | null;

  @Public.text({ nullable: true })
  phone!: string | null;

  @Public.textList()
  tags!: string[];

  @Public.int({
    nullable: true,
    description:
      "Payment terms for this contact's invoices in days (0..3650); null: the organization's (GET /organization).",
  })
  paymentTermsDays!: number | null;

  @Public.timestamp()
  createdAt!: string;

  @Public.timestamp()
  updatedAt!: string;
}
