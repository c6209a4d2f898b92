// page/limit/after arguments and the pagination object of list responses (docs/decisions.md, "REST":
// page >= 1, default 1; limit 1..100, default 50; out of range is a 400 naming it; "Cursor pages":
// `after` takes the cursor of `pagination.next` and pages by key, flat at any depth).
import { Field, Int, ObjectType, type ClassType } from 'type-graphql';
import { z } from 'zod';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

/** The largest page number or timestamp a GraphQL Int carries. */
export const MAX_INT = 2_147_483_647;

/** Longer than any cursor the service makes (kit/cursor.ts): a longer `after` is refused unread. */
export const MAX_CURSOR_LENGTH = 512;

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
    // Not defaulted here: a list tells a page asked for from none (refused beside `after`); 1 when neither.
    .optional()
    // The preprocess step hides the bounds from z.toJSONSchema: state them (and the default) for OpenAPI.
    .meta({ type: 'integer', minimum: 1, maximum: MAX_INT, default: 1, description: 'Page number, from 1.' }),
  limit: wholeNumber(limitNumber)
    .pipe(z.number().min(1, limitNumber).max(MAX_LIMIT, limitNumber))
    .default(DEFAULT_LIMIT)
    .meta({ type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: 'Page size.' }),
  after: z
    .string('must be the cursor of a previous page (pagination.next)')
    .min(1, 'must be the cursor of a previous page (pagination.next)')
    .max(MAX_CURSOR_LENGTH, 'must be the cursor of a previous page (pagination.next)')
    .optional()
    .meta({
      description:
        "The page after this cursor (a previous page's `pagination.next`), with the same sort and filters: as fast at any depth as the first page. Not with `page`.",
    }),
});

export type PageRequest = z.output<typeof pageSchema>;

/** A filtered list counts its matches up to here exactly; past it, `total` says "at least" (totalExact false). */
export const COUNT_CAP = 1_000;
/** "1,000", written without Intl: its first use at start paged in ICU's data (docs/decisions.md, "A lighter process"). */
const COUNT_CAP_TEXT = String(COUNT_CAP).replace(/\B(?=(\d{3})+$)/g, ',');

@ObjectType({ simpleResolvers: true })
export class Pagination {
  @Field(() => Int, { nullable: true, description: 'Current page number, from 1; null on a page reached by `after`.' })
  page!: number | null;

  @Field(() => Int, { description: 'Page size used.' })
  limit!: number;

  @Field(() => Int, {
    description: 'Total number of items; with `totalExact` false, a lower bound (a filter matching very many).',
  })
  total!: number;

  @Field(() => Int, { description: 'Total number of pages (of `total`).' })
  pages!: number;

  @Field(() => Boolean, {
    description: `Whether \`total\` is exact: false when a filtered list matches more than ${COUNT_CAP_TEXT} (then counted to there).`,
  })
  totalExact!: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'The cursor of the next page, for `after`; null on the last page.',
  })
  next!: string | null;
}

/** What a page knows beside its request: the total (and whether it is exact) and the next page's cursor. */
export interface PageFacts {
  total: number;
  totalExact?: boolean;
  next?: string | null;
}

export function paginationOf(
  { page, limit, after }: PageRequest,
  { total, totalExact = true, next = null }: PageFacts,
): Pagination {
  return { page: after ? null : (page ?? 1), limit, total, pages: Math.ceil(total / limit), totalExact, next };
}

/** Where a page starts: by offset for `page`; at the cursor's key for `after` (the statement's condition). */
export function pageWindow({ page, limit, after }: Pick<PageRequest, 'page' | 'limit'> & { after?: string }): {
  skip: number;
  take: number;
} {
  return { skip: after ? 0 : ((page ?? 1) - 1) * limit, take: limit };
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
