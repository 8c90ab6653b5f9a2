import type { Flags } from './flags.ts';

/**
 * The contract of an operator command. Each takes parsed flags and positionals
 * and returns a JSON-able result plus its human rendering; `cli.ts` does the
 * parsing and printing. A result with a non-zero exit code is a failure the
 * command reports itself (an invalid import, rejected events): it is printed
 * like any result, its text on stderr.
 */

export interface CommandResult {
  json: unknown;
  text: string;
  /** 0 when absent. */
  exitCode?: number;
}

export interface Command {
  usage: string;
  /** Flags the command takes, with whether each may repeat. */
  flags: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;
  run(flags: Flags, positionals: string[]): Promise<CommandResult>;
}
