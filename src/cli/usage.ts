import { SCOPES } from '../auth/scopes.js';
import { MAX_EXPIRES_IN_DAYS } from './api-key-commands.js';

export const USAGE = `Usage: npm run --silent cli -- <command> [options] [--json]

Operator commands. The database is DATABASE_URL when set; otherwise the embedded
PostgreSQL under DATA_DIR (default .data) on EMBEDDED_PG_PORT (default 54329): the
one a running server (npm start) already started, or else one started for the
command and stopped when it ends. A DATA_DIR without a database is refused unless
--create-database is given. Pending migrations are applied first.

Commands:
  org create --name <name> --admin-email <email> --admin-password <password> [--with-key]
      Create an organization and its first admin user; with --with-key also an
      \`admin\` API key made by that user (key and secret shown only this once).
      JSON: {"organization": {"id", "name"}, "user": {"id", "email"}}, and with
            --with-key "apiKey": as api-key create

  api-key create --org <id> --name <name> --scopes "<scope> ..." [--expires-in-days <days>]
      Create an API key for an organization. Scopes are separated by spaces or
      commas: ${SCOPES.join(' ')}.
      Without --expires-in-days (1 to ${MAX_EXPIRES_IN_DAYS}) the key does not expire.
      The key and its secret are shown only this once.
      JSON: {"id", "name", "key", "secret", "prefix", "scopes", "expiresAt", "createdAt"}

  api-key list --org <id>
      List an organization's API keys, oldest first (never the keys or secrets).
      JSON: an object {"data": [...]}, each item
            {"id", "name", "prefix", "scopes", "expiresAt", "lastUsedAt", "revokedAt", "createdAt"}

  api-key revoke --id <id>
      Revoke an API key; running servers refuse it from then on.
      JSON: the revoked key, as in api-key list.

  api-key rotate --id <id> [--expires-in-days <days>]
      Replace a key: a new key and secret with the same name and scopes (and the
      old expiry unless --expires-in-days is given); the old key is revoked at once.
      JSON: as api-key create, plus "replaces": the old key's id.

  oauth-client create --org <id> --name <name> [--description <text>]
      --redirect-uri <uri> [--redirect-uri <uri> ...] --scopes "<scope> ..." [--public]
      Register an OAuth app (client) of an organization. Redirect URIs are absolute
      URLs without a fragment, matched exactly. --scopes is the most a user can
      grant the app. Every new app requires PKCE (S256) at /oauth/authorize; an
      admin can turn that off for a confidential app (PUT /v1/oauth-apps/<id>
      {"requirePkce": false}). --public: an app that cannot keep a secret (PKCE
      always required, no secret issued). The client secret is shown only this once.
      JSON: {"id", "clientId", "clientSecret"} (clientSecret null for --public)

  export create --org <id> --resource <name> --format csv|json [--amounts minor|decimal] [--bom]
                [--filters '<json>'] [--out <file>]
      Export a resource's rows (contacts, deals, employees, ..., invoice-lines, events;
      as POST /v1/exports), wait for the worker to write the file (a progress bar on
      a terminal, a line a second otherwise; npm start or npm run worker must be
      running), then download it to --out (default <resource>-<id>.csv|ndjson).
      --filters: the resource's list filters as a JSON object. --amounts decimal:
      money in major units (107.10); --bom: a UTF-8 byte order mark first (csv, Excel).
      JSON: the export as GET /v1/exports/<id> shows it, plus "file": the path written.

  import create --org <id> --resource <name> --file <path> [--format csv|ndjson]
                [--mode create|upsert] [--key <unique field>] [--dry-run] [--atomic]
      Import a CSV (a header row of API field names) or NDJSON file into a resource
      (contacts, deals, employees, invoices, ...; as POST /v1/imports), wait for the
      worker to apply it (a progress bar on a terminal, a line a second otherwise;
      npm start or npm run worker must be running), then say what it created, updated
      and refused (row, field, message). --format defaults from the file's extension.
      --mode upsert --key email: a row whose email matches a record updates it.
      --dry-run: validate every row and write nothing. --atomic: all rows or none.
      The rows' events name the operator (system) as their actor.
      JSON: the import as GET /v1/imports/<id> shows it. Exit 1 if it failed.

  help, --help, -h
      Show this text.

Options:
  --create-database
          Without DATABASE_URL, create a new embedded database under DATA_DIR when it
          holds none. Without it the CLI refuses (exit 78): an empty DATA_DIR is most
          often not the service's (run the CLI where npm start runs, or set DATA_DIR).
  --json  Print exactly one JSON document on stdout. Timestamps are ISO 8601 (UTC);
          expiresAt, lastUsedAt and revokedAt are null when unset. On failure
          nothing is printed on stdout and stderr holds one JSON document:
          {"error": {"code", "message", "field"?}}, where field names the option at fault.
          Without --json, results are text and errors are "error: <message>" on stderr.

Exit status:
  0   success
  1   the command failed: unknown organization or key, conflict (an admin email
      already in use), database unreachable
  2   the command line is wrong: unknown command or option, missing or invalid value
  78  invalid configuration in the environment
`;
