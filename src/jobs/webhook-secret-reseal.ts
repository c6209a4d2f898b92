// Seals every stored webhook secret again under the current server key, in the
// current form: secrets written before key ids existed (v1), and those under a
// previous master key after a rotation. The worker runs it when it starts; it is
// done once the log says nothing was left, and then the previous key can go.
// Each row is changed only if nobody changed it meanwhile (a rotation), so
// several workers starting together do no harm.
import type pg from 'pg';
import type { Logger } from '../logger.js';
import type { WebhookSecrets } from './webhook-secrets.js';

const BATCH = 500;

export interface Resealed {
  resealed: number;
  /** Rows that no configured key opens: left as they are, and logged. */
  unreadable: number;
}

interface Row {
  id: string;
  secretEncrypted: string;
  previousSecretEncrypted: string | null;
}

export async function resealWebhookSecrets(pool: pg.Pool, secrets: WebhookSecrets, logger: Logger): Promise<Resealed> {
  const result: Resealed = { resealed: 0, unreadable: 0 };
  const prefix = secrets.currentPrefix();
  const stale = (sealed: string | null) => sealed !== null && !sealed.startsWith(prefix);
  let after = '';
  for (;;) {
    const { rows } = await pool.query<Row>(
      `select id, "secretEncrypted", "previousSecretEncrypted" from "Webhook"
       where id > $1 and (left("secretEncrypted", length($2)) <> $2 or left("previousSecretEncrypted", length($2)) <> $2)
       order by id limit ${BATCH}`,
      [after, prefix],
    );
    for (const row of rows) {
      let current: string;
      let previous: string | null;
      try {
        const reseal = (sealed: string) =>
          stale(sealed) ? secrets.seal(row.id, secrets.open(row.id, sealed)) : sealed;
        current = reseal(row.secretEncrypted);
        previous = row.previousSecretEncrypted === null ? null : reseal(row.previousSecretEncrypted);
      } catch (error) {
        result.unreadable++;
        logger.error({ webhookId: row.id, error: (error as Error).message }, 'webhook secret cannot be opened');
        continue;
      }
      const { rowCount } = await pool.query(
        `update "Webhook" set "secretEncrypted" = $2, "previousSecretEncrypted" = $3
         where id = $1 and "secretEncrypted" = $4 and "previousSecretEncrypted" is not distinct from $5`,
        [row.id, current, previous, row.secretEncrypted, row.previousSecretEncrypted],
      );
      result.resealed += rowCount ?? 0;
    }
    if (rows.length < BATCH) return result;
    after = rows[rows.length - 1]!.id;
  }
}
