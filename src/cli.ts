// npm run --silent cli -- <command> [options] [--json]: operator commands
// (organizations, API keys). See src/cli/usage.ts for the commands and output.
import 'reflect-metadata';
import { runCli } from './cli/main.js';

// stdout carries only the command's result: whatever a library logs goes to stderr.
for (const method of ['log', 'info', 'debug'] as const) console[method] = console.error;
// A reader that goes away early (`| head`) is not an error worth a stack trace.
process.stdout.on('error', () => {});

process.exit(await runCli(process.argv.slice(2)));
