// The start-up failures an operator fixes (the data directory in use, the embedded
// PostgreSQL failing to start, the database unreachable, the metrics port taken): each is reported as its
// one-line message, without a stack; anything else is a bug and logged in full.
import { DatabaseUnavailableError } from './attach.js';
import { DataDirInUseError } from './data-dir-lock.js';
import { EmbeddedPostgresError } from './embedded-postgres.js';
import { MetricsListenError } from '../metrics/server.js';

export function isOperatorProblem(error: unknown): error is Error {
  return (
    error instanceof DataDirInUseError ||
    error instanceof EmbeddedPostgresError ||
    error instanceof DatabaseUnavailableError ||
    error instanceof MetricsListenError
  );
}
