// Settings → API Keys: the organization's keys with their state, a mark on
// keys due for rotation, rotate (the new secret shown once) and revoke, each
// after a confirmation. Revoked keys are left out unless asked for ("Show
// revoked keys", in the URL); a rotated one names the key that replaced it.
import { useState } from 'preact/hooks';
import { graphql } from '../../api.js';
import { setQuery, useLocation } from '../../route.js';
import {
  CodeTags,
  ConfirmButton,
  ErrorMessage,
  formatDateTime,
  Link,
  Loaded,
  PageHeader,
  Pager,
  ShownOnce,
  StatusBadge,
  useQuery,
  useSubmit,
} from '../../ui.js';

/** The rotation period the specification recommends for API keys. */
export const ROTATE_AFTER_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  replacedBy: { id: string; name: string; prefix: string } | null;
}

export interface NewApiKey {
  id: string;
  name: string;
  key: string;
  secret: string;
}

const KEYS = `query ApiKeys($page: Int, $revoked: Boolean) {
  apiKeys(page: $page, limit: 20, sort: createdAt_desc, revoked: $revoked) {
    data { id name prefix scopes createdAt lastUsedAt expiresAt revokedAt replacedBy { id name prefix } }
    pagination { page limit total }
  }
}`;
const ROTATE = `mutation RotateApiKey($id: ID!) { rotateApiKey(id: $id) { id name key secret } }`;
const REVOKE = `mutation RevokeApiKey($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }`;

function status(key: ApiKey): { label: string; ok: boolean } {
  if (key.revokedAt) return { label: 'Revoked', ok: false };
  if (key.expiresAt && Date.parse(key.expiresAt) <= Date.now()) return { label: 'Expired', ok: false };
  return { label: 'Active', ok: true };
}

const dueForRotation = (key: ApiKey) =>
  status(key).ok && Date.now() - Date.parse(key.createdAt) > ROTATE_AFTER_DAYS * DAY_MS;

export function ApiKeysPage() {
  const { query } = useLocation();
  const page = Number(query.get('page')) || 1;
  const showRevoked = query.get('revoked') === 'shown';
  const keys = useQuery<{ apiKeys: { data: ApiKey[]; pagination: { page: number; limit: number; total: number } } }>(
    KEYS,
    { page, revoked: showRevoked ? null : false },
  );
  const [rotated, setRotated] = useState<NewApiKey>();
  const action = useSubmit(async (run: () => Promise<void>) => {
    await run();
    keys.reload();
  });
  const rotate = (key: ApiKey) =>
    action.submit(async () => {
      const { rotateApiKey } = await graphql<{ rotateApiKey: NewApiKey }>(ROTATE, { id: key.id });
      setRotated(rotateApiKey);
    });
  const revoke = (key: ApiKey) => action.submit(() => graphql(REVOKE, { id: key.id }).then(() => undefined));
  return (
    <>
      <PageHeader title="API Keys">
        <Link class="button" href="/settings/api-keys/new">
          New API key
        </Link>
      </PageHeader>
      <p class="muted">
        Keys call the REST and GraphQL APIs as <code>Authorization: Bearer &lt;key&gt;</code>. Rotate each key at least
        every {ROTATE_AFTER_DAYS} days.
      </p>
      {rotated && (
        <ShownOnce
          title={`New key and secret for ${rotated.name}`}
          values={[
            { label: 'Key', value: rotated.key },
            { label: 'Secret', value: rotated.secret },
          ]}
          onDone={() => setRotated(undefined)}
        />
      )}
      <ErrorMessage error={action.error} />
      <div class="checks">
        <label>
          <input
            type="checkbox"
            checked={showRevoked}
            onChange={(event) =>
              setQuery({ revoked: event.currentTarget.checked ? 'shown' : undefined, page: undefined })
            }
          />
          Show revoked keys
        </label>
      </div>
      <Loaded query={keys}>
        {({ apiKeys }) =>
          apiKeys.data.length ? (
            <>
              <div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th>Name</th>
                      <th>Prefix</th>
                      <th>Scopes</th>
                      <th>Created</th>
                      <th>Last used</th>
                      <th>Expires</th>
                      <th>Status</th>
                      <th>
                        <span class="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {apiKeys.data.map((key) => (
                      <KeyRow key={key.id} apiKey={key} onRotate={rotate} onRevoke={revoke} />
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager {...apiKeys.pagination} onPage={(next) => setQuery({ page: next })} />
            </>
          ) : (
            <p class="empty panel">{showRevoked ? 'No API keys yet.' : 'No active API key.'}</p>
          )
        }
      </Loaded>
    </>
  );
}

function KeyRow({
  apiKey: key,
  onRotate,
  onRevoke,
}: {
  apiKey: ApiKey;
  onRotate: (key: ApiKey) => Promise<void>;
  onRevoke: (key: ApiKey) => Promise<void>;
}) {
  const state = status(key);
  return (
    <tr data-key-id={key.id}>
      <th scope="row">{key.name}</th>
      <td>
        <code>{key.prefix}…</code>
      </td>
      <td>
        <CodeTags values={key.scopes} />
      </td>
      <td>
        {formatDateTime(key.createdAt)}
        {dueForRotation(key) && <span class="rotate-mark">Older than {ROTATE_AFTER_DAYS} days: rotate</span>}
      </td>
      <td>{formatDateTime(key.lastUsedAt)}</td>
      <td>{key.expiresAt ? formatDateTime(key.expiresAt) : 'Never'}</td>
      <td>
        <StatusBadge value={state.label.toLowerCase()} label={state.label} />
        {key.replacedBy && (
          <div class="muted">
            Replaced by {key.replacedBy.name} <code>{key.replacedBy.prefix}…</code>
          </div>
        )}
      </td>
      <td>
        {!key.revokedAt && (
          <div class="actions">
            <ConfirmButton
              class="secondary small"
              question={`Rotate "${key.name}"? The current key stops working at once; the new one is shown once.`}
              onConfirm={() => onRotate(key)}
            >
              Rotate<span class="visually-hidden"> {key.name}</span>
            </ConfirmButton>
            <ConfirmButton
              class="danger small"
              question={`Revoke "${key.name}"? Anything using it is refused from now on. This cannot be undone.`}
              onConfirm={() => onRevoke(key)}
            >
              Revoke<span class="visually-hidden"> {key.name}</span>
            </ConfirmButton>
          </div>
        )}
      </td>
    </tr>
  );
}
