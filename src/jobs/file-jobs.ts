// A background job with a file (an export, an import): a graphile-worker task per
// record, queued in the statement or transaction that makes the record, and one
// way to end it. What a job carries is shared by the service (which queues it)
// and the task (run-export.ts, run-import.ts).
import type { Task } from 'graphile-worker';
import type { Logger } from '../logger.js';

/** graphile-worker's attempts: a crash or database trouble runs the job again; the last failure is kept. */
const FILE_JOB_MAX_ATTEMPTS = 3;

export interface FileJobQueue {
  /** The task's name. */
  task: string;
  /** The payload's one field: the record's id. */
  idField: string;
  /** The SQL expression that queues the job of the record whose id is `idExpression`. */
  addSql(idExpression: string): string;
}

function fileJobQueue(task: string, idField: string): FileJobQueue {
  return {
    task,
    idField,
    addSql: (idExpression) =>
      `graphile_worker.add_job('${task}', json_build_object('${idField}', ${idExpression}), max_attempts => ${FILE_JOB_MAX_ATTEMPTS})`,
  };
}

/** A crash or database trouble starts the file again. */
export const EXPORT_JOBS = fileJobQueue('run_export', 'exportId');
/** A crash resumes after the last committed batch (or starts again: atomic, dry run). */
export const IMPORT_JOBS = fileJobQueue('run_import', 'importId');

export interface FileJobTask {
  queue: FileJobQueue;
  /** 'export', 'import': in the log and the reason an internal error leaves. */
  noun: string;
  /** What the caller does after an internal error: "Create it again." */
  again: string;
  logger: Logger;
  run(id: string): Promise<unknown>;
  /** A failure no retry mends: the job fails at once with its message. */
  refused(error: unknown): error is Error;
  /** Ends the record as failed, with the reason. */
  fail(id: string, reason: string): Promise<void>;
}

/**
 * The task: runs the job; a refusal fails it at once, saying why; anything else is
 * logged and retried by graphile-worker, and after the last attempt fails it.
 */
export function fileJobTask({ queue, noun, again, logger, run, refused, fail }: FileJobTask): Task {
  return async (payload, helpers) => {
    const id = (payload as Record<string, string>)[queue.idField]!;
    try {
      await run(id);
    } catch (error) {
      if (refused(error)) {
        await fail(id, error.message);
        return;
      }
      logger.error({ err: error, [queue.idField]: id, attempt: helpers.job.attempts }, `${noun} failed`);
      if (helpers.job.attempts < helpers.job.max_attempts) throw error;
      await fail(id, `The ${noun} failed; an internal error was logged. ${again}`);
    }
  };
}
