// What a run_export job carries, shared by the export service (which queues it
// with the export, in one statement) and the task (run-export.ts).
export const RUN_EXPORT = 'run_export';
/** graphile-worker's attempts: a crash or database trouble starts the file again; the last failure is kept. */
export const EXPORT_JOB_MAX_ATTEMPTS = 3;

export interface ExportJob {
  exportId: string;
}

/** The SQL expression that queues the export whose id is `idExpression`. */
export const addExportJobSql = (idExpression: string) =>
  `graphile_worker.add_job('${RUN_EXPORT}', json_build_object('exportId', ${idExpression}), max_attempts => ${EXPORT_JOB_MAX_ATTEMPTS})`;
