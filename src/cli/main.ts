// Runs one CLI invocation: parse, open the database (attach or start), migrate,
// run the command, print one result, close everything; returns the exit status.
import { parseConfig, type Config } from '../config.js';
import { connectDatabase } from '../db/prisma.js';
import { createServices } from '../graphql/modules.js';
import { applyMigrations } from '../db/schema-engine.js';
import { UnknownCommandError, parseCommandLine, wantsJson, type CommandLine } from './args.js';
import type { Runner } from './command.js';
import { attachOrStartDatabase, type AttachedDatabase } from '../db/attach.js';
import { embeddedClusterExists } from '../db/server.js';
import { CliError, toCliError } from './errors.js';
import { USAGE } from './usage.js';

export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

const defaultIo: CliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env };

/** Resolves once the text is handed to the stream, so exiting afterwards loses nothing. */
export function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve) => {
    stream.write(text.endsWith('\n') ? text : `${text}\n`, () => resolve());
  });
}

export async function runCli(argv: readonly string[], io: CliIo = defaultIo): Promise<number> {
  const json = wantsJson(argv);
  const fail = async (error: unknown): Promise<number> => {
    const shown = toCliError(error);
    if (json) {
      await write(io.stderr, JSON.stringify(shown.toJSON()));
    } else {
      const hint =
        shown instanceof UnknownCommandError
          ? `\n${USAGE}`
          : shown.exitStatus === 2
            ? "run 'npm run cli -- help' for usage"
            : '';
      await write(io.stderr, `error: ${shown.message}${hint ? `\n${hint}` : ''}`);
    }
    if (shown.code === 'INTERNAL_ERROR' && error instanceof Error && error.stack && isVerbose(io.env)) {
      await write(io.stderr, error.stack);
    }
    return shown.exitStatus;
  };

  let commandLine: CommandLine;
  let runner: Runner;
  let config: Config;
  try {
    commandLine = parseCommandLine(argv);
    if (commandLine.kind === 'help') {
      await write(io.stdout, USAGE);
      return 0;
    }
    runner = commandLine.command.prepare(commandLine.flags, commandLine.lists);
    config = parseConfig(io.env);
    refuseNewDatabaseUnlessAsked(config, io.env, commandLine.createDatabase);
  } catch (error) {
    return fail(error);
  }

  // In --json mode stderr is kept for the error document; notes show at debug level only.
  const level = config.logLevel;
  const showInfo = !json && ['trace', 'debug', 'info'].includes(level);
  const showDebug = ['trace', 'debug'].includes(level);
  const note = (text: string) => (showInfo ? write(io.stderr, text) : Promise.resolve());
  const debug = (text: string) => void (showDebug && io.stderr.write(`${text.trimEnd()}\n`));

  let database: AttachedDatabase | undefined;
  let disconnect: (() => Promise<void>) | undefined;
  try {
    database = await attachOrStartDatabase(config, debug).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      throw new CliError('SERVICE_UNAVAILABLE', message, 1);
    });
    if (database.origin === 'started') {
      await note(`started the embedded PostgreSQL under ${config.dataDir} for this command (stopped when it ends)`);
    } else if (database.origin === 'attached') {
      debug(`using the embedded PostgreSQL already running on port ${config.embeddedPostgresPort}`);
    }
    const applied = await applyMigrations(database.directUrl);
    if (applied.length) await note(`applied migrations: ${applied.join(', ')}`);
    const clients = connectDatabase(database.url, 2, undefined, { pooled: database.pooled });
    disconnect = clients.disconnect;
    const output = await runner(createServices({ ...clients, config }), { stderr: io.stderr, json });
    await write(io.stdout, json ? JSON.stringify(output.json, null, 2) : output.text);
    return 0;
  } catch (error) {
    return fail(error);
  } finally {
    await disconnect?.().catch(() => {});
    await database?.close().catch((error: unknown) => debug(`stopping PostgreSQL failed: ${String(error)}`));
  }
}

/**
 * Without DATABASE_URL, a DATA_DIR that holds no database is most often not the
 * service's (another working directory, DATA_DIR unset): creating a database and an
 * organization there would succeed and leave the operator's keys where no server reads them.
 */
function refuseNewDatabaseUnlessAsked(config: Config, env: NodeJS.ProcessEnv, createDatabase: boolean): void {
  if (config.databaseUrl || createDatabase || embeddedClusterExists(config.dataDir)) return;
  const which = env.DATA_DIR?.trim() ? 'DATA_DIR' : 'DATA_DIR unset: .data in the working directory';
  throw new CliError(
    'CONFIG_ERROR',
    `no database under ${config.dataDir} (${which}) and no DATABASE_URL: set DATA_DIR to the service's ` +
      `data directory (or run the CLI where npm start runs), or DATABASE_URL to its database; ` +
      `--create-database creates a new embedded database there instead`,
    78,
  );
}

function isVerbose(env: NodeJS.ProcessEnv): boolean {
  return env.LOG_LEVEL === 'debug' || env.LOG_LEVEL === 'trace';
}
