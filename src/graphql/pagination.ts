// page/limit arguments and the pagination object of list responses (DECISIONS.md:
// page >= 1, default 1; limit 1..100, default 50; out of range is a 400 naming it).
import { Field, Int, ObjectType } from 'type-graphql';
import { z } from 'zod';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

export const pageSchema = z.object({
  page: z.coerce.number().int().min(1, 'must be an integer of at least 1').default(1),
  limit: z.coerce
    .number()
    .int()
    .min(1, `must be an integer from 1 to ${MAX_LIMIT}`)
    .max(MAX_LIMIT, `must be an integer from 1 to ${MAX_LIMIT}`)
    .default(DEFAULT_LIMIT),
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
