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

/** A flag a command takes: its type, whether it may repeat, and what it is when the common words do not say. */
export interface FlagSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  /** The flag's line in the command's help; `cli.ts` has the words of the flags most commands share. */
  description?: string;
}

export interface Command {
  usage: string;
  /** One line, a sentence: what the command does, as `--help` lists it. */
  summary: string;
  /** What each positional argument of the usage is, one line each (`FILE  …`), for the command's help. */
  arguments?: string[];
  /** Flags the command takes. */
  flags: Record<string, FlagSpec>;
  run(flags: Flags, positionals: string[]): Promise<CommandResult>;
}
