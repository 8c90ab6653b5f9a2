import { readFileSync } from 'node:fs';
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
 * the usage (of the CLI, of a group such as `webhook`, or of one command) on
 * stdout and exit 0; `--version` and `-V` print the version. Usage errors
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
/** The words that ask for the version, with no command. */
const VERSION_FLAGS = ['--version', '-V'];

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

/** What the flags most commands share are, for each command's help; a command's own `description` wins. */
const FLAG_WORDS: Record<string, string> = {
  all: 'every assignment pending approval',
  'api-key': 'the provider account’s API key, verified with the provider',
  'base-url': 'the provider API’s base URL (default: its public API)',
  burst: 'the burst, in requests (with --rate)',
  campaign: 'the campaign’s id',
  client: 'the OAuth client’s id (mcp_…, as `oauth-client list` prints it)',
  connection: 'the provider connection’s id (as `provider list` prints it)',
  'cooldown-days': 'the cooldown window, in whole days',
  cursor: 'the next page: what the previous page printed after `More:`',
  'default-rate-limit': 'back to the default rate limit',
  delivery: 'the delivery’s id (as `webhook deliveries` prints it)',
  disable: 'stop sending events to it',
  domain: 'a company’s domain (or a URL or host of it)',
  email: 'an email address',
  enable: 'send events to it again',
  events: 'event types, comma-separated: new_opportunities, first_touch, positive_reply',
  'expires-in-days': 'days until the key expires (default: never)',
  'external-id': 'the provider campaign’s id (as `provider campaigns` prints it)',
  file: 'the file to read',
  ids: 'assignment ids, comma-separated',
  key: 'the key’s id (as `key list` prints it)',
  org: 'the organization’s id (as `org create` prints it)',
  provider: 'the provider',
  rate: 'the rate, in requests per second',
  'redirect-uri': 'a redirect URI the client may use',
  role: 'what the person may do: admin or viewer',
  scope: 'what the key may do (default: read-write)',
  sequence: 'the sequence’s id',
  take: 'how many to list',
  url: 'the subscriber’s URL (https)',
  webhook: 'the subscription’s id (as `webhook list` prints it)',
};

/** Lines of two columns, the second aligned (help's flags, arguments and commands). */
function columns(rows: [string, string][]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`.trimEnd());
}

/** A command's name: the words of its usage before its flags and arguments (`webhook list`). */
const nameOf = (command: Command) => Object.keys(commands).find((name) => commands[name] === command)!;

/** The groups of two-word commands (`webhook`, `key`), each with its commands in usage order. */
const groups = (): Map<string, Command[]> => {
  const byGroup = new Map<string, Command[]>();
  for (const [name, command] of Object.entries(commands)) {
    const [group, sub] = name.split(' ');
    if (sub !== undefined) byGroup.set(group!, [...(byGroup.get(group!) ?? []), command]);
  }
  return byGroup;
};

/** The command list of a help: each command's name with its one-line summary. */
const commandList = (listed: Command[]) =>
  columns(listed.map((command) => [nameOf(command), command.summary]));

const globalUsage = () =>
  [
    'Usage: outreach-admin <command> [flags] [--json] [--stack NAME --region REGION]',
    '       outreach-admin help [<command>]   (or: outreach-admin <command> --help)',
    '',
    'The operator CLI of the Outreach Campaign Public API: organizations, keys, imports, webhooks and provider connections.',
    '',
    'Commands:',
    ...commandList(Object.values(commands)),
    '',
    'Flags of every command:',
    ...GLOBAL_FLAG_HELP,
    '  -V, --version                 print the version',
    '',
    'Run `outreach-admin <command> --help` for its flags and arguments, `outreach-admin <group> --help` for a group (webhook, key, …).',
    'Exit codes: 0 done, 1 failed (refused, not found, no stack), 2 bad usage.',
  ].join('\n');

/** A group's help: its commands with their usage and summary. */
const groupUsage = (group: string, listed: Command[]) =>
  [
    `Usage: outreach-admin ${group} <command> [flags]`,
    '',
    'Commands:',
    ...commandList(listed),
    '',
    'Usage of each:',
    ...listed.map((command) => `  outreach-admin ${command.usage}`),
    '',
    `Run \`outreach-admin ${group} <command> --help\` for a command’s flags.`,
  ].join('\n');

const usageLine = (command: Command) => `Usage: outreach-admin ${command.usage}`;

/** The placeholder a usage line gives a flag's value (`--org ID` gives `ID`), or `VALUE`. */
const placeholderOf = (usage: string, flag: string) =>
  new RegExp(`--${flag} ([^\\s\\])]+)`).exec(usage)?.[1] ?? 'VALUE';

/** One command's help: its usage line, what it does, its arguments, each of its flags, and the flags every command takes. */
function commandHelp(command: Command): string {
  const flags = columns(
    Object.entries(command.flags).map(([flag, { type, multiple, description }]) => [
      `--${flag}${type === 'string' ? ` ${placeholderOf(command.usage, flag)}` : ''}`,
      `${description ?? FLAG_WORDS[flag] ?? ''}${multiple ? ' (repeatable)' : ''}`,
    ]),
  );
  return [
    usageLine(command),
    '',
    command.summary,
    ...(command.arguments ? ['', 'Arguments:', ...command.arguments.map((line) => `  ${line}`)] : []),
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

/** The package's version, as `--version` prints it: package.json's, read when asked. */
function version(): string {
  const file = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
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
  if (commandWords.length === 0 && argv.some((word) => VERSION_FLAGS.includes(word))) {
    print(`outreach-admin ${version()}`);
    return 0;
  }
  if (!name) {
    if (commandWords.length === 0) return fail('usage', 'No command given', globalUsage());
    const group = groups().get(commandWords[0]!);
    // A group alone asks for its commands (`webhook --help`, `help key`); without help it names none of them.
    if (group && commandWords.length === 1) {
      if (helpAsked) {
        print(groupUsage(commandWords[0]!, group));
        return 0;
      }
      return fail(
        'usage',
        `Missing command: ${commandWords[0]} <command>`,
        groupUsage(commandWords[0]!, group),
      );
    }
    const asked = words[0] === 'help' ? commandWords : argv;
    return fail(
      'usage',
      `Unknown command: ${asked.join(' ')}`,
      group ? groupUsage(commandWords[0]!, group) : globalUsage(),
    );
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
