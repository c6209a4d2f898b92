// One GraphQL field asked for many arguments at once: `leaveBalances` for each
// row of the inbox. The API has no list form of it, so each request asks for a
// few under aliases (the server allows 15 aliases a document; 10 keeps well
// under it and its token limit), and the requests go out together.
import { useEffect, useState } from 'preact/hooks';
import { graphql } from '../../api.js';
import { asApiError, type Query } from '../../ui.js';
import type { ApiError } from '../../api.js';

const PER_REQUEST = 10;

export interface BatchedField {
  /** The Query field: `leaveBalances`. */
  field: string;
  /** Its arguments and their GraphQL types: `{ employeeId: 'ID!', date: 'Date' }`. */
  args: Record<string, string>;
  /** What to select of it. */
  selection: string;
}

/** The document asking for `field` once per argument set, aliased a0, a1, … */
export function batchDocument(spec: BatchedField, count: number): string {
  const names = Object.keys(spec.args);
  const declared: string[] = [];
  const fields: string[] = [];
  for (let i = 0; i < count; i++) {
    declared.push(...names.map((name) => `$a${i}_${name}: ${spec.args[name]}`));
    const passed = names.map((name) => `${name}: $a${i}_${name}`).join(', ');
    fields.push(`a${i}: ${spec.field}(${passed}) { ${spec.selection} }`);
  }
  return `query Batch(${declared.join(', ')}) { ${fields.join(' ')} }`;
}

/** The field's answer for each argument set, in their order. */
export async function batched<T>(spec: BatchedField, argSets: Record<string, unknown>[]): Promise<T[]> {
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < argSets.length; i += PER_REQUEST) chunks.push(argSets.slice(i, i + PER_REQUEST));
  const answers = await Promise.all(
    chunks.map(async (chunk) => {
      const variables: Record<string, unknown> = {};
      chunk.forEach((set, i) => Object.entries(set).forEach(([name, value]) => (variables[`a${i}_${name}`] = value)));
      const data = await graphql<Record<string, T>>(batchDocument(spec, chunk.length), variables);
      return chunk.map((_, i) => data[`a${i}`]!);
    }),
  );
  return answers.flat();
}

/**
 * `batched` as a hook: the answers by each argument set's key (its JSON),
 * asked again when the sets change, or `refresh` does (the same sets whose
 * answers a change made elsewhere may have moved). Repeated sets are asked once.
 */
export function useBatched<T>(
  spec: BatchedField,
  argSets: Record<string, unknown>[],
  refresh: unknown = 0,
): Query<Map<string, T>> {
  const keys = [...new Set(argSets.map((set) => JSON.stringify(set)))];
  const joined = keys.join('\n');
  const [state, setState] = useState<{ data?: Map<string, T>; error?: ApiError; loading: boolean }>({
    loading: true,
  });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let current = true;
    if (!keys.length) {
      setState({ data: new Map(), loading: false });
      return;
    }
    setState((previous) => ({ data: previous.data, loading: true }));
    batched<T>(
      spec,
      keys.map((key) => JSON.parse(key) as Record<string, unknown>),
    ).then(
      (answers) => current && setState({ data: new Map(keys.map((key, i) => [key, answers[i]!])), loading: false }),
      (error: unknown) => current && setState({ error: asApiError(error), loading: false }),
    );
    return () => void (current = false);
  }, [joined, generation, refresh]);
  const reload = () => setGeneration((n) => n + 1);
  // Nothing to load quietly here: a refresh is a reload.
  return { ...state, reload, refresh: reload };
}

/** The key `useBatched` files an argument set's answer under. */
export const batchKey = (set: Record<string, unknown>) => JSON.stringify(set);
