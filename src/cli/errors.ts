// What the CLI reports when a command fails: a code, a message an operator can
// act on, optionally the option at fault, and the exit status. Expected failures
// (usage, validation, not found, conflict) never show a stack trace.
import { ConfigError } from '../config.js';
import { DomainError } from '../errors.js';

/** 1: the command failed; 2: the command line is wrong; 78: bad configuration (as loadConfigOrExit). */
export type ExitStatus = 1 | 2 | 78;

export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitStatus: ExitStatus,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'CliError';
  }

  toJSON(): { error: { code: string; message: string; field?: string } } {
    return {
      error: { code: this.code, message: this.message, ...(this.field !== undefined && { field: this.field }) },
    };
  }
}

/** The command line itself is wrong: unknown command or option, a flag without its value. */
export const usageError = (message: string, field?: string) => new CliError('USAGE_ERROR', message, 2, field);

/** An option is missing or its value is unusable. */
export const invalidOption = (option: string, message: string) =>
  new CliError('VALIDATION_ERROR', `${option} ${message}`, 2, option);

export const notFoundError = (message: string, field?: string) => new CliError('NOT_FOUND', message, 1, field);

/** `adminEmail` (a DomainError field) -> `--admin-email` (the option that carried it). */
export function optionForField(field: string): string {
  return `--${field.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/** Turns anything thrown into what is shown; unexpected errors keep their message only. */
export function toCliError(error: unknown): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof ConfigError) return new CliError('CONFIG_ERROR', error.message, 78);
  if (error instanceof DomainError) {
    const exitStatus = error.code === 'VALIDATION_ERROR' ? 2 : 1;
    if (error.field === undefined) return new CliError(error.code, error.message, exitStatus);
    const option = optionForField(error.field);
    // parseInput words it "'adminEmail': must be …"; name the option instead.
    const quoted = `'${error.field}'`;
    const message = error.message.includes(quoted)
      ? error.message.split(quoted).join(option)
      : `${option}: ${error.message}`;
    return new CliError(error.code, message, exitStatus, option);
  }
  const message = error instanceof Error ? error.message || error.name : String(error);
  return new CliError('INTERNAL_ERROR', message, 1);
}
