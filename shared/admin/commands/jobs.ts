import { readFile } from 'node:fs/promises';
import type { Command } from '#admin/command.ts';
import { expectPositionals, requiredId, requiredString } from '#admin/flags.ts';
import { invalidImport, plural, unreadableFile } from '#admin/format.ts';
import { parseJobFile } from '#admin/jobs-file.ts';
import { importJobs } from '#use-cases/import-jobs.ts';

/** `jobs import`: job openings from a JSON or CSV file. */
export const jobCommands: Record<string, Command> = {
  'jobs import': {
    usage: 'jobs import --org ID --file FILE (.json or .csv)',
    summary: 'Import job openings from a JSON or CSV file.',
    flags: {
      org: { type: 'string' },
      file: {
        type: 'string',
        description: 'job openings: .json (the `jobs` of docs/import-format.md) or .csv with a header row',
      },
    },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const orgId = requiredId(flags, 'org');
      const file = requiredString(flags, 'file');
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        return unreadableFile(file, (error as NodeJS.ErrnoException).code);
      }
      const parsed = parseJobFile(text, file.toLowerCase().endsWith('.csv') ? 'csv' : 'json');
      if (!parsed.ok) return invalidImport(parsed.errors);
      const imported = await importJobs({ orgId, jobs: parsed.jobs });
      return {
        json: imported,
        text: `Imported ${plural(imported.jobs, 'job')} for ${plural(imported.domains, 'domain')} into organization ${orgId}`,
      };
    },
  },
};
