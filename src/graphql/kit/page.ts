// page/limit arguments and the pagination object of list responses (docs/decisions.md, "REST":
// page >= 1, default 1; limit 1..100, default 50; out of range is a 400 naming it).
import { Field, Int, ObjectType, type ClassType } from 'type-graphql';
import { z } from 'zod';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

/** The largest page number or timestamp a GraphQL Int carries. */
export const MAX_INT = 2_147_483_647;

/**
 * A whole number from a query string ("42") or a GraphQL Int (42). Only plain
 * digits count: "0x2", "1e2" and " 7" are refused rather than reinterpreted.
 */
export function wholeNumber(message: string) {
  return z.preprocess(
    (value) => (typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value),
    z.number(message).int(message),
  );
}

const pageNumber = 'must be an integer of at least 1';
const limitNumber = `must be an integer from 1 to ${MAX_LIMIT}`;

export const pageSchema = z.object({
  page: wholeNumber(pageNumber)
    .pipe(z.number().min(1, pageNumber).max(MAX_INT, `must be at most ${MAX_INT}`))
    .default(1)
    // The preprocess step hides the bounds from z.toJSONSchema: state them for OpenAPI.
    .meta({ type: 'integer', minimum: 1, maximum: MAX_INT, default: 1, description: 'Page number, from 1.' }),
  limit: wholeNumber(limitNumber)
    .pipe(z.number().min(1, limitNumber).max(MAX_LIMIT, limitNumber))
    .default(DEFAULT_LIMIT)
    .meta({ type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: 'Page size.' }),
});

export type PageRequest = z.output<typeof pageSchema>;

@ObjectType({ simpleResolvers: true })
export class Pagination {
  @Field(() => Int, { description: 'Current page number, from 1.' })
  page!: number;

  @Field(() => Int, { description: 'Page size used.' })
  limit!: number;

  @Field(() => Int, { description: 'Total number of items.' })
  total!: number;

  @Field(() => Int, { description: 'Total number of pages.' })
  pages!: number;
}

export function paginationOf({ page, limit }: PageRequest, total: number): Pagination {
  return { page, limit, total, pages: Math.ceil(total / limit) };
}

export function pageWindow({ page, limit }: PageRequest): { skip: number; take: number } {
  return { skip: (page - 1) * limit, take: limit };
}

/** A list answer: one page of records and the pagination object. */
export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

const pageTypes = new Map<ClassType, ClassType>();

/** The GraphQL type `<Item>Page { data: [Item!]! pagination: Pagination! }`, one per item type; call it at module load. */
export function PageOf<T extends object>(item: ClassType<T>): ClassType<Page<T>> {
  let type = pageTypes.get(item);
  if (!type) {
    @ObjectType(`${item.name}Page`, { simpleResolvers: true })
    class ItemPage {
      @Field(() => [item])
      data!: T[];

      @Field(() => Pagination)
      pagination!: Pagination;
    }
    type = ItemPage;
    pageTypes.set(item, type);
  }
  return type as ClassType<Page<T>>;
}
