// The scopes as checkboxes, each with its description (the server's list).
import { SCOPES, SCOPE_DESCRIPTIONS } from '../../../../auth/scopes.js';

export function ScopeChoices({ legend, error, checked = [] }: { legend: string; error?: string; checked?: string[] }) {
  return (
    <fieldset class="checks" aria-describedby={error ? 'scopes-error' : undefined}>
      <legend>{legend}</legend>
      {SCOPES.filter((scope) => scope !== 'admin').map((scope) => (
        <label key={scope}>
          <input type="checkbox" name="scopes" value={scope} defaultChecked={checked.includes(scope)} />
          <span>
            <code>{scope}</code> <span class="muted">{SCOPE_DESCRIPTIONS[scope]}</span>
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
