// What an operator command is (its options, and the runner it prepares from
// them) and the option checks the commands share.
import { parseScopes } from '../auth/scopes.js';
import type { Services } from '../graphql/modules.js';
import { CliError, invalidOption, notFoundError } from './errors.js';

export interface CommandOutput {
  json: unknown;
  text: string;
}

/** What a long command may show while it runs (progress on stderr). */
export interface CommandIo {
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** --json: stderr is kept for the error document (a terminal still gets a progress bar). */
  json: boolean;
}

export type Runner = (services: Services, io: CommandIo) => Promise<CommandOutput>;

export type Flags = Readonly<Record<string, string | undefined>>;
/** The values of repeatable options, in the order given. */
export type Lists = Readonly<Record<string, readonly string[]>>;

export interface Command {
  /** Two words: `org create`. */
  name: string;
  /** The value options it accepts (besides --json and --help), switches and repeatable ones included. */
  options: readonly string[];
  /** Of options, those given once per value. */
  repeatable?: readonly string[];
  /** Of options, those without a value. */
  switches?: readonly string[];
  prepare(flags: Flags, lists: Lists): Runner;
}

export function required(flags: Flags, option: string, { trim = true } = {}): string {
  const raw = flags[option];
  const value = trim ? raw?.trim() : raw;
  if (value === undefined || value === '') throw invalidOption(`--${option}`, 'is required');
  return value;
}

/** --scopes as scope names; a CliError naming the option when one is unknown. */
export function scopesOption(flags: Flags) {
  try {
    return parseScopes(required(flags, 'scopes'));
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError('VALIDATION_ERROR', `--scopes: ${(error as Error).message}`, 2, '--scopes');
  }
}

export async function requireOrganization(services: Services, id: string): Promise<void> {
  if (!(await services.organizations.exists(id))) throw notFoundError(`organization ${id} not found`, '--org');
}
