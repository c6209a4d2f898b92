// Idempotency-Key on POST (DECISIONS.md): a repeat with the same key and body
// gets the first answer again; the same key with another body is 409 CONFLICT.
// Keys are per organization and kept 24 hours. A request still running holds
// its key; if it died without answering, the key is free again after a minute.
import { createHash } from 'node:crypto';
import type { PrismaClient } from '../db/prisma.js';
import type { Request, Response } from 'express';
import { DomainError } from '../errors.js';
import { httpStatusOf, toDomainError } from './errors.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEEP_HOURS = 24;
const ABANDONED_AFTER_SECONDS = 60;

export type IdempotencyClaim = { kind: 'claimed' } | { kind: 'replay'; status: number; body: unknown };

export function requestHash(method: string, path: string, body: unknown): string {
  let json: string;
  try {
    json = JSON.stringify(body ?? null);
  } catch (error) {
    // JSON.parse reads any depth, JSON.stringify recurses: a body nested some
    // thousands of levels deep overflows its stack. No route takes such a body.
    if (error instanceof RangeError) throw new DomainError('VALIDATION_ERROR', 'The request body is nested too deeply');
    throw error;
  }
  return createHash('sha256').update(`${method} ${path}\n`).update(json).digest('hex');
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

export class IdempotencyStore {
  constructor(private readonly prisma: PrismaClient) {}

  /** Claims the key for this request, or returns the answer to replay; throws CONFLICT. */
  async claim(organizationId: string, key: string, hash: string): Promise<IdempotencyClaim> {
    const claimed = await this.prisma.$queryRaw<{ key: string }[]>`
      insert into "IdempotencyKey" ("organizationId", "key", "requestHash", "status")
      values (${organizationId}, ${key}, ${hash}, 'processing')
      on conflict ("organizationId", "key") do update
        set "requestHash" = excluded."requestHash", "status" = 'processing',
            "responseStatus" = null, "responseBody" = null, "createdAt" = now()
        where "IdempotencyKey"."createdAt" < now() - make_interval(hours => ${KEEP_HOURS})
           or ("IdempotencyKey"."status" = 'processing'
               and "IdempotencyKey"."createdAt" < now() - make_interval(secs => ${ABANDONED_AFTER_SECONDS}))
      returning "key"`;
    if (claimed.length) return { kind: 'claimed' };

    const existing = await this.prisma.idempotencyKey.findUnique({
      where: { organizationId_key: { organizationId, key } },
    });
    if (!existing) return this.claim(organizationId, key, hash); // deleted meanwhile: try again
    if (existing.requestHash !== hash) {
      throw new DomainError('CONFLICT', 'This Idempotency-Key was used with a different request', 'Idempotency-Key');
    }
    if (existing.status !== 'completed' || existing.responseStatus === null) {
      throw new DomainError('CONFLICT', 'A request with this Idempotency-Key is still in progress', 'Idempotency-Key');
    }
    const body = existing.responseBody === null ? undefined : (JSON.parse(existing.responseBody) as unknown);
    return { kind: 'replay', status: existing.responseStatus, body };
  }

  async complete(organizationId: string, key: string, status: number, body: unknown): Promise<void> {
    await this.prisma.idempotencyKey.update({
      where: { organizationId_key: { organizationId, key } },
      data: {
        status: 'completed',
        responseStatus: status,
        responseBody: body === undefined ? null : JSON.stringify(body),
      },
    });
  }

  /** Forgets keys past their 24 hours; returns how many. */
  async prune(): Promise<number> {
    return this.prisma.$executeRaw`
      delete from "IdempotencyKey" where "createdAt" < now() - make_interval(hours => ${KEEP_HOURS})`;
  }

  /** After a server fault the request may be retried with the same key. */
  async release(organizationId: string, key: string): Promise<void> {
    await this.prisma.idempotencyKey.deleteMany({ where: { organizationId, key, status: 'processing' } });
  }
}

export interface Answer {
  status: number;
  body: unknown;
}

/** Runs `answer` once per Idempotency-Key: repeats get the stored answer back. */
export async function answerOnce(
  store: IdempotencyStore,
  { organizationId, key, req, res }: { organizationId: string; key: string; req: Request; res: Response },
  answer: () => Promise<Answer>,
): Promise<Answer> {
  const claim = await store.claim(organizationId, key, requestHash(req.method, req.baseUrl + req.path, req.body));
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
    if (httpStatusOf(domain) >= 500) await store.release(organizationId, key);
    else await store.complete(organizationId, key, httpStatusOf(domain), { error: domain.toBody() });
    throw error;
  }
  await store.complete(organizationId, key, result.status, result.body);
  return result;
}
