import { parseArgs } from 'node:util';
import { requestErrorMessage } from '#api/http/endpoint.ts';
import { DomainError, type DomainErrorKind } from '#domain/errors.ts';
import { configuration, useConfiguration } from '#platform/config.ts';
import { type Command, commands, UsageError } from './commands.ts';
import { TargetError, targetConfiguration } from './target.ts';

/**
 * `outreach-admin`: the operator CLI. Run from the project folder it reaches the
 * running local stack; `--stack NAME --region R` reaches a deployed one. Every
 * command prints text, or JSON with `--json`. `--help`, `-h` and `help` print
 * the usage (of the CLI, or of one command) on stdout and exit 0. Usage errors
 * exit 2, failures 1 (an invalid import, rejected events, an unknown
 * organization); with `--json` an error is one `CliError` object on stderr.
 * A reader that closes the pipe ends the output quietly (`processIo`).
 * bin/outreach-admin.mjs runs `main` and exits with its code.
 */

const GLOBAL_FLAGS = {
  json: { type: 'boolean' },
  stack: { type: 'string' },
  region: { type: 'string' },
} as const;

/** The words that ask for help anywhere on the command line (`help` asks as the first word). */
const HELP_FLAGS = ['--help', '-h'];

/** The flags every command takes, as its help lists them. */
const GLOBAL_FLAG_HELP = [
  '  --json                        print the result as JSON (an error: as JSON on stderr)',
  '  --stack NAME --region REGION  act on a deployed stack (default: the local stack started here)',
  '  -h, --help                    print this help',
];

/**
 * What went wrong, as `--json` prints it on stderr: `{"error": {"kind", "message"}}`. The kinds
 * are the domain's (`not-found`, `invalid`, `conflict`, `refused`, `unavailable`, exit 1), `usage` (a command line
 * that does not fit the usage, exit 2), `target` (no stack to talk to, exit 1) and `failure` (anything
 * else, exit 1).
 */
export interface CliError {
  error: { kind: DomainErrorKind | 'usage' | 'target' | 'failure'; message: string };
}

/** Where the CLI writes: each call gets text to write as is, its line break included. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

let closedPipesQuiet = false;

/**
 * The process's own streams. A reader that stops reading (`outreach-admin … |
 * head -1`, `| true`) closes its end of the pipe, and the next write there
 * fails with EPIPE, emitted as an `error` event that, unheard, would end the
 * process with a stack trace and exit 1. As most CLIs do, the output just
 * ends there: nothing more is written to that stream, and the exit code stays
 * the command's (0 when it did what was asked: the reader's going away is no
 * failure of the command). Any other write error still ends the process.
 */
function processIo(): CliIo {
  if (!closedPipesQuiet) {
    closedPipesQuiet = true;
    for (const stream of [process.stdout, process.stderr]) {
      stream.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EPIPE') throw error;
      });
    }
  }
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  };
}

const globalUsage = () =>
  [
    'Usage: outreach-admin <command> [flags] [--json] [--stack NAME --region REGION]',
    '       outreach-admin help [<command>]   (or: outreach-admin <command> --help)',
    '',
    'Commands:',
    ...Object.values(commands).map((command) => `  ${command.usage}`),
    '',
    'Flags of every command:',
    ...GLOBAL_FLAG_HELP,
    '',
    'Exit codes: 0 done, 1 failed (refused, not found, no stack), 2 bad usage.',
  ].join('\n');

const usageLine = (command: Command) => `Usage: outreach-admin ${command.usage}`;

/** The placeholder a usage line gives a flag's value (`--org ID` gives `ID`), or `VALUE`. */
const placeholderOf = (usage: string, flag: string) =>
  new RegExp(`--${flag} ([^\\s\\])]+)`).exec(usage)?.[1] ?? 'VALUE';

/** One command's help: its usage line, each of its flags, and the flags every command takes. */
function commandHelp(command: Command): string {
  const flags = Object.entries(command.flags).map(
    ([flag, { type, multiple }]) =>
      `  --${flag}${type === 'string' ? ` ${placeholderOf(command.usage, flag)}` : ''}${multiple ? ' (repeatable)' : ''}`,
  );
  return [
    usageLine(command),
    ...(flags.length > 0 ? ['', 'Flags:', ...flags] : []),
    '',
    'Flags of every command:',
    ...GLOBAL_FLAG_HELP,
  ].join('\n');
}

/** The command that words name: commands are one or two words (`import`, `key list`), the longest match wins. */
function commandNamed(words: string[]): string | undefined {
  return [words.slice(0, 2).join(' '), words[0]].find(
    (candidate) => candidate !== undefined && Object.hasOwn(commands, candidate),
  );
}

/**
 * Runs one CLI invocation and returns its exit code (never exits the
 * process). The command runs with the process's configuration pointed at the
 * target (`targetConfiguration`), installed for the command and put back
 * after it.
 */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const print = (text: string) => io.stdout(`${text}\n`);
  // Known before the flags are parsed, so that a bad flag is answered as JSON too.
  const json = argv.includes('--json');
  /** Reports an error on stderr and returns its exit code; a usage error's text ends with `usage`. */
  const fail = (kind: CliError['error']['kind'], message: string, usage?: string): number => {
    const report: CliError = { error: { kind, message } };
    io.stderr(`${json ? JSON.stringify(report) : usage ? `${message}\n\n${usage}` : message}\n`);
    return kind === 'usage' ? 2 : 1;
  };

  const words = argv.filter((word) => !word.startsWith('-'));
  const helpAsked = words[0] === 'help' || argv.some((word) => HELP_FLAGS.includes(word));
  const commandWords = words[0] === 'help' ? words.slice(1) : words;
  const name = commandNamed(commandWords);
  if (helpAsked && commandWords.length === 0) {
    print(globalUsage());
    return 0;
  }
  if (!name) {
    if (commandWords.length === 0) return fail('usage', 'No command given', globalUsage());
    const asked = words[0] === 'help' ? commandWords : argv;
    return fail('usage', `Unknown command: ${asked.join(' ')}`, globalUsage());
  }
  const command = commands[name]!;
  if (helpAsked) {
    print(commandHelp(command));
    return 0;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...GLOBAL_FLAGS, ...command.flags },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return fail('usage', (error as Error).message, usageLine(command));
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
    // A failure the command reports itself (an invalid import, rejected events) is a report, not an
    // error: its text goes to stderr, its JSON to stdout like any result.
    if (json) print(JSON.stringify(result.json));
    else if (exitCode === 0) print(result.text);
    else io.stderr(`${result.text}\n`);
    return exitCode;
  } catch (error) {
    if (error instanceof UsageError) return fail('usage', error.message, usageLine(command));
    // What the operator asked for cannot be done as asked (the exit code of every refusal is 1); the CLI
    // names the operation's fields as the API does (`Invalid body field 'url': …`).
    if (error instanceof DomainError) return fail(error.kind, requestErrorMessage(error));
    if (error instanceof TargetError) return fail('target', error.message);
    const message = (error as Error).message;
    return fail('failure', json ? message : `Failed: ${message}`);
  }
}
