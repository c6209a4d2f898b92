// The embedded PostgreSQL's errors (embedded-postgres.ts), its own module so start-up code can tell them apart.
/** A problem an operator fixes (a taken port, a data directory in use): one line, no stack. */
export class EmbeddedPostgresError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddedPostgresError';
  }
}
