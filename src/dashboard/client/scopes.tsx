// The scopes a viewer may hand on (to a key, to a member): an admin every one,
// a member its own. The names and descriptions are the API's own list.
import { SCOPE_DESCRIPTIONS, SCOPES } from '../../auth/scopes.js';
import type { Viewer } from './section.js';

export function grantableScopes(viewer: Viewer): string[] {
  return viewer.scopes.includes('admin') ? [...SCOPES] : SCOPES.filter((scope) => viewer.scopes.includes(scope));
}

/** A group of scope checkboxes, with the API's message for `scopes` beside it. */
export function ScopeChecks({
  scopes,
  checked = [],
  error,
  legend = 'Scopes',
}: {
  scopes: readonly string[];
  checked?: readonly string[];
  error?: string;
  legend?: string;
}) {
  return (
    <fieldset class={`checks${error ? ' invalid' : ''}`} aria-describedby={error ? 'scopes-error' : undefined}>
      <legend>{legend}</legend>
      {scopes.map((scope) => (
        <label key={scope}>
          <input type="checkbox" name="scopes" value={scope} defaultChecked={checked.includes(scope)} />
          <span>
            <code>{scope}</code>{' '}
            <span class="muted">{SCOPE_DESCRIPTIONS[scope as keyof typeof SCOPE_DESCRIPTIONS] ?? ''}</span>
          </span>
        </label>
      ))}
      {error && (
        <p class="field-error" id="scopes-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
