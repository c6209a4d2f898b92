/** Drops arguments the caller did not give (or gave as null), so defaults apply. */
export function givenArgs<T extends object>(args: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(args).filter(([, value]) => value !== undefined && value !== null),
  ) as Partial<T>;
}
