// What a run_import job carries, shared by the import service (which queues it
// with the import, in its transaction) and the task (run-import.ts).
export const RUN_IMPORT = 'run_import';
/** graphile-worker's attempts: a crash resumes after the last committed batch (or starts again: atomic, dry run). */
export const IMPORT_JOB_MAX_ATTEMPTS = 3;

export interface ImportJob {
  importId: string;
}

/** The SQL expression that queues the import whose id is `idExpression`. */
export const addImportJobSql = (idExpression: string) =>
  `graphile_worker.add_job('${RUN_IMPORT}', json_build_object('importId', ${idExpression}), max_attempts => ${IMPORT_JOB_MAX_ATTEMPTS})`;
