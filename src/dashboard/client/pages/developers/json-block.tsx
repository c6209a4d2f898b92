// A JSON value shown whole, indented, as text (never markup), wrapping at any
// width: a delivery's payload, an event's data.
export function JsonBlock({ value }: { value: unknown }) {
  return (
    <pre class="code-block">
      <code>{JSON.stringify(value, null, 2)}</code>
    </pre>
  );
}
