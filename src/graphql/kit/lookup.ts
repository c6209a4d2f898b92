// A lookup by id (`contact(id)`, `webhook(id)`) is nullable: a missing record is
// null at its own path with a NOT_FOUND error, so one missing record in a query
// that asks for several does not null the whole answer. REST still answers 404
// (it fails on any error of its operation).
export const lookupOptions = (noun: string) => ({
  nullable: true,
  description: `The ${noun} with this id; null, with a NOT_FOUND error, when the organization has none.`,
});
