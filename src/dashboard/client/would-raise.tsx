// What a form's mutation would raise, shown before it is sent ("This will raise
// invoice.paid"): the same mutation sent as a dry run (api.ts wouldRaise) a
// moment after the last edit, its answer read out by a polite live region. A
// refused dry run shows nothing: the form's own Save shows why, by its field.
import { useEffect, useRef, useState } from 'preact/hooks';
import { wouldRaise } from './api.js';

/** Edits closer together than this send one dry run. */
const SETTLE_MS = 250;

export function useWouldRaise(mutation: string) {
  const [raised, setRaised] = useState<string[]>();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const latest = useRef(0);
  useEffect(() => () => clearTimeout(timer.current), []);

  /** Previews the mutation with `variables()` as they are now; a throw (an amount not typed yet) clears it. */
  const preview = (variables: () => Record<string, unknown>) => {
    clearTimeout(timer.current);
    const asked = ++latest.current;
    let given: Record<string, unknown>;
    try {
      given = variables();
    } catch {
      setRaised(undefined);
      return;
    }
    timer.current = setTimeout(() => {
      const answer = (types: string[] | undefined) => asked === latest.current && setRaised(types);
      wouldRaise(mutation, given).then(answer, () => answer(undefined));
    }, SETTLE_MS);
  };
  return { raised, preview };
}

/** The live region: empty until a dry run has answered. */
export function WouldRaise({ raised }: { raised: string[] | undefined }) {
  return (
    <p class="hint would-raise" role="status" aria-live="polite">
      {raised?.length ? (
        <>
          This will raise{' '}
          {raised.flatMap((type, i) => [
            i === 0 ? '' : i === raised.length - 1 ? ' and ' : ', ',
            <code key={type}>{type}</code>,
          ])}
          .
        </>
      ) : null}
    </p>
  );
}
