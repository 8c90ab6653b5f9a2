import type { CommandResult } from './command.ts';
import type { ImportError, ImportReport } from './import.ts';

/**
 * How the commands write numbers, counts, lists and reports for people. The
 * output has no colour and no terminal control codes, so `NO_COLOR` has
 * nothing to turn off; colour added one day must go through here and stay off
 * when `NO_COLOR` is set (https://no-color.org) or stdout is not a terminal.
 */

export const count = (value: number) => value.toLocaleString('en-US');
export const plural = (value: number, noun: string) => `${count(value)} ${noun}${value === 1 ? '' : 's'}`;

/**
 * A list as people and `cut -f` read it: a header row of column names, then
 * one row per item, tab-separated (an empty cell is `-`). `--json` is the
 * format for programs; this one only promises a header and tabs.
 */
export function table(
  header: readonly string[],
  rows: readonly (string | number | null | undefined)[][],
): string {
  return [header, ...rows]
    .map((row) =>
      row.map((cell) => (cell === null || cell === undefined || cell === '' ? '-' : String(cell))).join('\t'),
    )
    .join('\n');
}

/**
 * A list command's text: its table, and after it the line that gets the next page (`More: --cursor …`)
 * when there is one; `empty` when there is nothing to show.
 */
export function listText(
  header: readonly string[],
  rows: readonly (string | number | null | undefined)[][],
  empty: string,
  more?: string,
): string {
  if (rows.length === 0 && more === undefined) return empty;
  return [...(rows.length > 0 ? [table(header, rows)] : []), ...(more === undefined ? [] : [more])].join(
    '\n',
  );
}

/** Seconds since `startedAt` (a `performance.now()`), to the millisecond. */
export const seconds = (startedAt: number) => Math.round(performance.now() - startedAt) / 1000;

/** What an import wrote, in one line. */
export function describeReport(report: ImportReport): string {
  return [
    plural(report.campaigns, 'campaign'),
    plural(report.accounts, 'account'),
    plural(report.contacts, 'contact'),
    `${plural(report.assignmentsCreated, 'assignment')} created (${count(report.assignmentsExisting)} already there)`,
    `${plural(report.messagesWritten, 'message')} written`,
    `${plural(report.eventsApplied, 'event')} applied (${count(report.eventsDuplicate)} already recorded)`,
    plural(report.jobs, 'job'),
    plural(report.exclusions, 'exclusion'),
  ].join(', ');
}

/** A file refused as a whole: every error with its location, and nothing imported (exit 1). */
export function invalidImport(errors: ImportError[]): CommandResult {
  return {
    json: { errors },
    text: [
      ...errors.map((error) => `${error.path}: ${error.message}`),
      `${plural(errors.length, 'error')}; nothing was imported.`,
    ].join('\n'),
    exitCode: 1,
  };
}

/** A file the command could not read (exit 1). */
/** A file named on the command line that cannot be read: a failure the CLI reports as every other (exit 1). */
export function unreadableFile(file: string, code: string | undefined): never {
  throw new Error(`Cannot read ${file} (${code ?? 'error'})`);
}
