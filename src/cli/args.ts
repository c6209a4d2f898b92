// The command line, read with node's util.parseArgs: `<group> <action> --option value …`.
import { parseArgs } from 'node:util';
import { type Command, type Flags, type Lists } from './command.js';
import { COMMANDS } from './commands.js';
import { CliError, usageError } from './errors.js';

export type CommandLine =
  { kind: 'help' } | { kind: 'command'; command: Command; flags: Flags; lists: Lists; createDatabase: boolean };

const VALUE_OPTIONS = [...new Set(COMMANDS.flatMap((command) => command.options))];
/** Options given once per value (`--redirect-uri a --redirect-uri b`). */
const REPEATABLE = new Set(COMMANDS.flatMap((command) => command.repeatable ?? []));
/** Options without a value (`--public`); in flags as 'true'. */
const SWITCHES = new Set(COMMANDS.flatMap((command) => command.switches ?? []));

const OPTIONS = {
  ...Object.fromEntries(
    VALUE_OPTIONS.map((name) => [
      name,
      { type: SWITCHES.has(name) ? ('boolean' as const) : ('string' as const), multiple: REPEATABLE.has(name) },
    ]),
  ),
  json: { type: 'boolean' },
  // Any command: allowed to create a new embedded database under DATA_DIR (refused otherwise).
  'create-database': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Whether errors should be reported as JSON: known before the rest parses. */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

export function parseCommandLine(argv: readonly string[]): CommandLine {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw describeParseError(error);
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0 || positionals[0] === 'help') return { kind: 'help' };

  const [group, action, ...extra] = positionals;
  const groupCommands = COMMANDS.filter((command) => command.name.startsWith(`${group} `));
  if (groupCommands.length === 0) throw unknownCommand(`unknown command '${group}'`);
  const actions = groupCommands.map((command) => command.name.split(' ')[1]).join(', ');
  if (action === undefined) throw unknownCommand(`'${group}' needs a subcommand: ${actions}`);
  const command = groupCommands.find((candidate) => candidate.name === `${group} ${action}`);
  if (!command) throw unknownCommand(`unknown command '${group} ${action}' (${group} commands: ${actions})`);
  if (extra.length) throw usageError(`unexpected argument '${extra[0]}' for '${command.name}'`);

  const flags: Record<string, string | undefined> = {};
  const lists: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(values)) {
    if (name === 'json' || name === 'help' || name === 'create-database') continue;
    if (!command.options.includes(name)) throw usageError(`'${command.name}' has no option --${name}`, `--${name}`);
    if (Array.isArray(value)) lists[name] = value.filter((item): item is string => typeof item === 'string');
    else flags[name] = typeof value === 'string' ? value : value === true ? 'true' : undefined;
  }
  return { kind: 'command', command, flags, lists, createDatabase: values['create-database'] === true };
}

/** An unknown command: the usage text follows the message (see main). */
export class UnknownCommandError extends CliError {}

function unknownCommand(message: string): UnknownCommandError {
  return new UnknownCommandError('USAGE_ERROR', message, 2);
}

/** parseArgs' messages, reworded to name the option plainly. */
function describeParseError(error: unknown): CliError {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const option = /'(-{1,2}[^' <]+)/.exec(message)?.[1];
  if (!option) return usageError(message.split('\n')[0]!);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return usageError(`unknown option ${option}`, option);
  if (/does not take an argument/.test(message)) return usageError(`${option} does not take a value`, option);
  if (/ambiguous/.test(message)) {
    return usageError(`${option} needs a value (for a value starting with '-', write ${option}=<value>)`, option);
  }
  return usageError(`${option} needs a value`, option);
}
