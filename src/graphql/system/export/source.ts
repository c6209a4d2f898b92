// What an export reads from: a source's rows, columns, filters, scope and money
// (sources.ts lists them).
import { z } from 'zod';
import type { Scope } from '../../../auth/scopes.js';
import type { SqlCondition } from '../../kit/list.js';
import { amountWithoutCurrency, type MoneyShape } from './amounts.js';

/** A column of the keyset past the table's (createdAt, id): what orders the rows one record unfolds into. */
export interface KeysetPart {
  sql: string;
  /** Its SQL type, for the parameter it is compared with. */
  type: string;
}

export interface ExportSource {
  name: string;
  /** The table whose rows are read, in keyset order (createdAt, id). */
  table: string;
  /** The FROM clause: the table, or the table and what each of its rows unfolds into (an invoice's lines). */
  from: string;
  /** After the table's (createdAt, id): orders the rows of one record (a line's number). */
  within?: KeysetPart;
  /** The row's fields, in order: the CSV header. */
  columns: readonly string[];
  /** The SELECT list of the row. */
  select: string;
  /** Validates the filters; an unknown one is refused. */
  filters: z.ZodType<Record<string, unknown>>;
  /** The scope a caller needs to export it: its area's read scope (finance:read for invoices); admin for events. */
  exportScope: Scope;
  /** The scope its rows are read with (a declared resource's area's); none: each row says (events). */
  readScope?: Scope;
  /** The fields needing a scope to be seen (an employee's salary): out of a file whose scopes lack it. */
  hidden: { name: string; scope: Scope }[];
  /** Where its amounts are and their currency (amounts: "decimal"); none: it has no money. */
  money?: MoneyShape;
  /** Why amounts cannot be written in major units, when they cannot (events' data is not typed). */
  noDecimal?: string;
  /** The organization's rows narrowed by the parsed filters ($1 is the organization), as `scopes` read them. */
  where(organizationId: string, filters: Record<string, unknown>, scopes: ReadonlySet<string>): SqlCondition;
  /** A row as `scopes` read it, when more than its hidden fields depend on them (an event's data). */
  visible?(row: Record<string, unknown>, scopes: ReadonlySet<string>): Record<string, unknown>;
}

/** The list schema's filters alone, closed: page, limit and sort mean nothing to a whole file. */
export function filtersOf(schema: z.ZodType): z.ZodType<Record<string, unknown>> {
  const { page: _page, limit: _limit, sort: _sort, ...filters } = (schema as z.ZodObject).shape;
  return z.strictObject(filters) as unknown as z.ZodType<Record<string, unknown>>;
}

/** Why a type's amounts cannot be written in major units: one has no currency beside it. */
export function decimalRefusal(name: string, money: MoneyShape | undefined): string | undefined {
  const lonely = money && amountWithoutCurrency(money);
  return lonely && `${name} holds amounts without a currency beside them (${lonely}): export them in minor units`;
}
