// A form's fields as a GraphQL input: trimmed text, and on an edit an emptied
// optional field sent as null (the API's "null clears"), so clearing works.
export function formInput(
  form: HTMLFormElement,
  fields: readonly string[],
  { clearEmpty }: { clearEmpty: boolean },
): Record<string, string | null> {
  const data = new FormData(form);
  const input: Record<string, string | null> = {};
  for (const name of fields) {
    const value = data.get(name);
    const text = typeof value === 'string' ? value.trim() : '';
    if (text) input[name] = text;
    else if (clearEmpty) input[name] = null;
  }
  return input;
}

/** `a, b ,c` → ['a', 'b', 'c']. */
export const splitList = (text: string | null | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
