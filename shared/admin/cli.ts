import { parseArgs } from 'node:util';
import { DomainError } from '#domain/errors.ts';
import { configureTarget, TargetError } from './target.ts';

/**
 * `outreach-admin`: the operator CLI. Run from the project folder it reaches the
 * running local stack; `--stack NAME --region R` reaches a deployed one. Every
 * command prints text, or JSON with `--json`. Usage errors exit 2, failures 1
 * (an invalid import, rejected events, an unknown organization).
 */

const GLOBAL_FLAGS = {
  json: { type: 'boolean' },
  stack: { type: 'string' },
  region: { type: 'string' },
  help: { type: 'boolean' },
} as const;

async function main(argv: string[]): Promise<number> {
  // Commands are loaded after the target is configured: the SDK reads its endpoint when the client is built.
  const { commands, UsageError } = await import('./commands.ts');
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
    console.error(
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
    console.error(`${(error as Error).message}\n\nUsage: outreach-admin ${command.usage}`);
    return 2;
  }
  const positionals = parsed.positionals.slice(name.split(' ').length);
  const flags = parsed.values;
  try {
    await configureTarget({
      stack: flags.stack as string | undefined,
      region: flags.region as string | undefined,
    });
    const result = await command.run(flags, positionals);
    const exitCode = result.exitCode ?? 0;
    // A failure the command reports itself goes to stderr as text; --json always prints to stdout.
    if (flags.json) console.log(JSON.stringify(result.json));
    else if (exitCode === 0) console.log(result.text);
    else console.error(result.text);
    return exitCode;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\nUsage: outreach-admin ${command.usage}`);
      return 2;
    }
    // What the operator asked for cannot be done as asked (the exit code of every refusal is 1).
    if (error instanceof TargetError || error instanceof DomainError) {
      console.error(error.message);
      return 1;
    }
    console.error(`Failed: ${(error as Error).message}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
