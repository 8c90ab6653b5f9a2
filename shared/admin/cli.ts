import { parseArgs } from 'node:util';
import { requestErrorMessage } from '#api/http/endpoint.ts';
import { DomainError } from '#domain/errors.ts';
import { configuration, useConfiguration } from '#platform/config.ts';
import { commands, UsageError } from './commands.ts';
import { TargetError, targetConfiguration } from './target.ts';

/**
 * `outreach-admin`: the operator CLI. Run from the project folder it reaches the
 * running local stack; `--stack NAME --region R` reaches a deployed one. Every
 * command prints text, or JSON with `--json`. Usage errors exit 2, failures 1
 * (an invalid import, rejected events, an unknown organization).
 * bin/outreach-admin.mjs runs `main` and exits with its code.
 */

const GLOBAL_FLAGS = {
  json: { type: 'boolean' },
  stack: { type: 'string' },
  region: { type: 'string' },
  help: { type: 'boolean' },
} as const;

/** Where the CLI writes: each call gets text to write as is, its line break included. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/**
 * Runs one CLI invocation and returns its exit code (never exits the
 * process). The command runs with the process's configuration pointed at the
 * target (`targetConfiguration`), installed for the command and put back
 * after it.
 */
export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const print = (text: string) => io.stdout(`${text}\n`);
  const printError = (text: string) => io.stderr(`${text}\n`);
  const usage = () =>
    [
      'Usage: outreach-admin <command> [flags] [--json] [--stack NAME --region REGION]',
      '',
      'Commands:',
      ...Object.values(commands).map((command) => `  ${command.usage}`),
    ].join('\n');

  // Commands are one or two words (`import`, `key list`); the longest match wins.
  const words = argv.filter((word) => !word.startsWith('-')).slice(0, 2);
  const name = [words.join(' '), words[0]].find(
    (candidate) => candidate !== undefined && Object.hasOwn(commands, candidate),
  );
  if (!name) {
    printError(
      argv.length === 0 || argv.includes('--help')
        ? usage()
        : `Unknown command: ${argv.join(' ')}\n\n${usage()}`,
    );
    return 2;
  }
  const command = commands[name]!;
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...GLOBAL_FLAGS, ...command.flags },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    printError(`${(error as Error).message}\n\nUsage: outreach-admin ${command.usage}`);
    return 2;
  }
  const positionals = parsed.positionals.slice(name.split(' ').length);
  const flags = parsed.values;
  try {
    const base = configuration();
    const target = await targetConfiguration(
      { stack: flags.stack as string | undefined, region: flags.region as string | undefined },
      base,
    );
    useConfiguration(target);
    let result: Awaited<ReturnType<typeof command.run>>;
    try {
      result = await command.run(flags, positionals);
    } finally {
      useConfiguration(base);
    }
    const exitCode = result.exitCode ?? 0;
    // A failure the command reports itself goes to stderr as text; --json always prints to stdout.
    if (flags.json) print(JSON.stringify(result.json));
    else if (exitCode === 0) print(result.text);
    else printError(result.text);
    return exitCode;
  } catch (error) {
    if (error instanceof UsageError) {
      printError(`${error.message}\n\nUsage: outreach-admin ${command.usage}`);
      return 2;
    }
    // What the operator asked for cannot be done as asked (the exit code of every refusal is 1); the CLI
    // names the operation's fields as the API does (`Invalid body field 'url': …`).
    if (error instanceof DomainError) {
      printError(requestErrorMessage(error));
      return 1;
    }
    if (error instanceof TargetError) {
      printError(error.message);
      return 1;
    }
    printError(`Failed: ${(error as Error).message}`);
    return 1;
  }
}
