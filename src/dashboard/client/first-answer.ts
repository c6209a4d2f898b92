// The answer to the page's first query, when the server wrote it into a full
// load's page (src/dashboard/first-answer.ts: a list's first page): taken once,
// by the first query asking exactly that operation with exactly those variables,
// instead of a round trip to /graphql. Gone at the first navigation, so a page
// opened later always asks for fresh data.
import type { FirstAnswer } from '../first-answer.js';
import { pageData } from './page-data.js';
import { toWireValues } from './wire-values.js';

let unused = pageData<FirstAnswer | undefined>('first-answer', undefined);

/** The data of the page's answer to `query` with these variables (as JSON), once; else undefined. */
export function takeFirstAnswer<T>(query: string, variables: string): T | undefined {
  if (!unused || unused.query !== query || JSON.stringify(unused.variables) !== variables) return undefined;
  const { data } = unused;
  unused = undefined;
  // As api.ts reads any answer.
  return toWireValues(data as T);
}

/** Called when the address changes: the answer was for the page as it was loaded. */
export function discardFirstAnswer(): void {
  unused = undefined;
}
