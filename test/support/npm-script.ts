// A package.json script as the shell npm runs it would: the environment its leading
// NAME=value words set (npm start sets glibc's malloc arenas), then node's arguments
// after the `exec` that makes the shell become node, so signals reach the process.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

export function npmScript(name: string): { env: Record<string, string>; command: string; args: string[] } {
  const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const words = scripts[name]!.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (words[0] && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
    const [variable, value] = words.shift()!.split(/=(.*)/s);
    env[variable!] = value!;
  }
  if (words[0] === 'exec') words.shift();
  const [command, ...args] = words;
  return { env, command: command!, args };
}
