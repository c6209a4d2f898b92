// Waiting for the worker to finish an export or an import, as a client would:
// polling GET /v1/exports/:id or /v1/imports/:id until it is done.
import { expect } from 'vitest';
import type { ServerFixture, TestResponse } from './fixtures.js';
import { eventually } from './receiver.js';

type Row = Record<string, unknown>;
/** The job as GET answers it (a response body: any). */
type Job = TestResponse['body'];

export interface FinishedOptions {
  /** 'answer': a failed job is an answer too (an import's refusals, an export past its bounds); else it fails the test. */
  failed?: 'answer' | 'refuse';
  timeoutMs?: number;
  /** Each answer seen while waiting, in order (to watch the progress). */
  seen?: Row[];
}

/** The export or import as GET shows it once the worker has completed it (or failed it, when asked). */
export function finishedJob(
  server: Pick<ServerFixture, 'rest'>,
  kind: 'exports' | 'imports',
  id: string,
  key: string,
  { failed = 'refuse', timeoutMs = 60_000, seen }: FinishedOptions = {},
): Promise<Job> {
  return eventually(async () => {
    const res = await server.rest('GET', `/v1/${kind}/${id}`, { key });
    expect(res.status, res.text).toBe(200);
    const job: Job = res.body;
    seen?.push(job);
    if (failed === 'refuse') expect(job.status, job.failureReason as string).not.toBe('failed');
    return job.status === 'completed' || job.status === 'failed' ? job : undefined;
  }, timeoutMs);
}
