// The receivables aging report as GraphQL and REST show it (computed, never stored):
// what open invoices still owe, by currency and contact, in buckets of days past due.
import { ObjectType } from 'type-graphql';
import { objectList, objectOf, Public } from '../../kit/fields.js';

@ObjectType({
  simpleResolvers: true,
  description: 'Amounts due (integer minor units) by days past the due date, as of the report date.',
})
export class AgingBuckets {
  @Public.money({ description: 'Not yet past due: due on or after the report date.' })
  current!: number;

  @Public.money({ description: '1 to 30 days past due.' })
  days1to30!: number;

  @Public.money({ description: '31 to 60 days past due.' })
  days31to60!: number;

  @Public.money({ description: '61 to 90 days past due.' })
  days61to90!: number;

  @Public.money({ description: 'More than 90 days past due.' })
  over90!: number;
}

@ObjectType({ simpleResolvers: true, description: "One contact's amounts due in one currency." })
export class AgingContact {
  @Public.id()
  contactId!: string;

  @Public.text({ description: 'First and last name, else email (as exports name a contact).' })
  contactName!: string;

  @Public.money({ description: 'The sum of its buckets.' })
  total!: number;

  @Public.of(objectOf(AgingBuckets))
  buckets!: AgingBuckets;
}

@ObjectType({ simpleResolvers: true, description: 'The amounts due in one currency.' })
export class AgingCurrency {
  @Public.text({ description: 'ISO 4217 code.' })
  currency!: string;

  @Public.money({ description: "The sum of the open invoices' amountDue in this currency." })
  total!: number;

  @Public.of(objectOf(AgingBuckets))
  buckets!: AgingBuckets;

  @Public.of(objectList(AgingContact), { description: 'The contacts that owe something, by name.' })
  contacts!: AgingContact[];
}

@ObjectType({
  simpleResolvers: true,
  description:
    'Receivables aging: the amountDue of the open invoices issued on or before asOf, as they stand now, by ' +
    'currency and contact, bucketed by days past their due date at asOf.',
})
export class ReceivablesAging {
  @Public.date({ description: "The report date; default today in the organization's time zone." })
  asOf!: string;

  @Public.of(objectList(AgingCurrency), { description: 'One per currency with something due, by code.' })
  currencies!: AgingCurrency[];
}
