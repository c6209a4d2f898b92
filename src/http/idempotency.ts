// Idempotency-Key on POST (docs/decisions.md, "REST"): a repeat with the same key and body
// gets the first answer again; the same key with another body is 409 CONFLICT.
// Keys are per credential (the API key, or the OAuth app and user) and kept 24
// hours: the same key from another credential is a new request. Answers can hold
// secrets shown once (a new API key, client or webhook secret), so every stored
// answer is sealed under a subkey of the server key and bound to its organization,
// credential and key; the request is identified by an HMAC, not a plain hash, as
// bodies can hold passwords. A request still running holds its key; if it died
// without answering, the key is free again after a minute.
import { createHmac } from 'node:crypto';
import type { PrismaClient } from '../db/prisma.js';
import type { ServerResponse } from 'node:http';
import { Sealer } from '../auth/sealing.js';
import type { ServerKeyRing } from '../auth/server-keys.js';
import { DomainError } from '../errors.js';
import { httpStatusOf, toDomainError } from './errors.js';
import { pathOf, type HttpRequest } from './exchange.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEEP_HOURS = 24;
const ABANDONED_AFTER_SECONDS = 60;

export type IdempotencyClaim = { kind: 'claimed' } | { kind: 'replay'; status: number; body: unknown };

/** Whose key it is: one organization's credential, and the key it sent. */
export interface IdempotencyScope {
  organizationId: string;
  /** credentialHolder(principal): src/auth/principal.ts. */
  credential: string;
  key: string;
}

export interface IdempotentRequest {
  method: string;
  path: string;
  body: unknown;
}

export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || value.length > 255 || !/^[\x21-\x7e]+$/.test(value)) {
    throw new DomainError(
      'VALIDATION_ERROR',
      'Idempotency-Key must be 1 to 255 visible ASCII characters',
      'Idempotency-Key',
    );
  }
  return value;
}

/** The text of a request that its hash covers; 400 for a body too deep to serialise. */
function requestText({ method, path, body }: IdempotentRequest): string {
  try {
    return `${method} ${path}\n${JSON.stringify(body ?? null)}`;
  } catch (error) {
    // JSON.parse reads any depth, JSON.stringify recurses: a body nested some
    // thousands of levels deep overflows its stack. No route takes such a body.
    if (error instanceof RangeError) throw new DomainError('VALIDATION_ERROR', 'The request body is nested too deeply');
    throw error;
  }
}

export class IdempotencyStore {
  private readonly answers: Sealer;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly keys: ServerKeyRing,
  ) {
    this.answers = new Sealer(keys, 'idempotency-answer');
  }

  /** `<key id>.<hex HMAC>` of the request under the subkey of that server key (the current one by default). */
  requestHash(text: string, keyId = this.keys.current.id): string {
    const mac = createHmac('sha256', this.keys.subkey('idempotency-request', keyId)).update(text, 'utf8');
    return `${keyId}.${mac.digest('hex')}`;
  }

  /** Claims the key for this request, or returns the answer to replay; throws CONFLICT. */
  async claim(scope: IdempotencyScope, request: IdempotentRequest): Promise<IdempotencyClaim> {
    const text = requestText(request);
    const { organizationId, credential, key } = scope;
    const hash = this.requestHash(text);
    const claimed = await this.prisma.$queryRaw<{ key: string }[]>`
      insert into "IdempotencyKey" ("organizationId", "credential", "key", "requestHash", "status")
      values (${organizationId}, ${credential}, ${key}, ${hash}, 'processing')
      on conflict ("organizationId", "credential", "key") do update
        set "requestHash" = excluded."requestHash", "status" = 'processing',
            "responseStatus" = null, "responseSealed" = null, "createdAt" = now()
        where "IdempotencyKey"."createdAt" < now() - make_interval(hours => ${KEEP_HOURS})
           or ("IdempotencyKey"."status" = 'processing'
               and "IdempotencyKey"."createdAt" < now() - make_interval(secs => ${ABANDONED_AFTER_SECONDS}))
      returning "key"`;
    if (claimed.length) return { kind: 'claimed' };

    const existing = await this.prisma.idempotencyKey.findUnique({
      where: { organizationId_credential_key: { organizationId, credential, key } },
    });
    if (!existing) return this.claim(scope, request); // deleted meanwhile: try again
    if (!this.sameRequest(existing.requestHash, text, hash)) {
      throw new DomainError('CONFLICT', 'This Idempotency-Key was used with a different request', 'Idempotency-Key');
    }
    if (existing.status !== 'completed' || existing.responseStatus === null) {
      throw new DomainError('CONFLICT', 'A request with this Idempotency-Key is still in progress', 'Idempotency-Key');
    }
    const body =
      existing.responseSealed === null
        ? undefined
        : (JSON.parse(this.answers.open(existing.responseSealed, contextOf(scope))) as unknown);
    return { kind: 'replay', status: existing.responseStatus, body };
  }

  async complete(scope: IdempotencyScope, status: number, body: unknown): Promise<void> {
    const { organizationId, credential, key } = scope;
    await this.prisma.idempotencyKey.update({
      where: { organizationId_credential_key: { organizationId, credential, key } },
      data: {
        status: 'completed',
        responseStatus: status,
        responseSealed: body === undefined ? null : this.answers.seal(JSON.stringify(body), contextOf(scope)),
      },
    });
  }

  /** Forgets keys past their 24 hours; returns how many. */
  async prune(): Promise<number> {
    return this.prisma.$executeRaw`
      delete from "IdempotencyKey" where "createdAt" < now() - make_interval(hours => ${KEEP_HOURS})`;
  }

  /** After a server fault the request may be retried with the same key. */
  async release({ organizationId, credential, key }: IdempotencyScope): Promise<void> {
    await this.prisma.idempotencyKey.deleteMany({ where: { organizationId, credential, key, status: 'processing' } });
  }

  /** A hash made under a previous server key is compared under that key: a rotation breaks no retry. */
  private sameRequest(stored: string, text: string, hash: string): boolean {
    if (stored === hash) return true;
    const keyId = stored.slice(0, stored.indexOf('.'));
    return keyId !== this.keys.current.id && this.keys.has(keyId) && stored === this.requestHash(text, keyId);
  }
}

/** The associated data of a stored answer: it opens for this organization, credential and key only. */
function contextOf({ organizationId, credential, key }: IdempotencyScope): string {
  return JSON.stringify([organizationId, credential, key]);
}

export interface Answer {
  status: number;
  body: unknown;
}

/** Runs `answer` once per Idempotency-Key and credential: repeats get the stored answer back. */
export async function answerOnce(
  store: IdempotencyStore,
  { scope, req, res }: { scope: IdempotencyScope; req: HttpRequest; res: ServerResponse },
  answer: () => Promise<Answer>,
): Promise<Answer> {
  const claim = await store.claim(scope, { method: req.method!, path: req.baseUrl + pathOf(req), body: req.body });
  if (claim.kind === 'replay') {
    res.setHeader('Idempotent-Replayed', 'true');
    return { status: claim.status, body: claim.body ?? undefined };
  }
  let result: Answer;
  try {
    result = await answer();
  } catch (error) {
    const domain = toDomainError(error);
    // A client error is the answer to this request; a server fault may be retried.
    if (httpStatusOf(domain) >= 500) await store.release(scope);
    else await store.complete(scope, httpStatusOf(domain), { error: domain.toBody() });
    throw error;
  }
  await store.complete(scope, result.status, result.body);
  return result;
}
