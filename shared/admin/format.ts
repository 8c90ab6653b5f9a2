import type { CommandResult } from './command.ts';
import type { ImportError, ImportReport } from './import.ts';

/** How the commands write numbers, counts and reports for people. */

export const count = (value: number) => value.toLocaleString('en-US');
export const plural = (value: number, noun: string) => `${count(value)} ${noun}${value === 1 ? '' : 's'}`;

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
