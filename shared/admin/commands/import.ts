import { readFile } from 'node:fs/promises';
import type { Command } from '#admin/command.ts';
import { expectPositionals, requiredId } from '#admin/flags.ts';
import { describeReport, invalidImport, plural, seconds } from '#admin/format.ts';
import { applyImport, validateImport } from '#admin/import.ts';
import { withProgress } from '#admin/progress.ts';
import { getOrganization } from '#use-cases/get-organization.ts';

/** `import`: a whole JSON document of campaigns, accounts, contacts, history, jobs and exclusions. */

async function readJsonFile(
  file: string,
): Promise<{ ok: true; value: unknown } | { ok: false; error: string }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return { ok: false, error: `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: `not valid JSON (${(error as Error).message})` };
  }
}

export const importCommands: Record<string, Command> = {
  import: {
    usage: 'import --org ID FILE [--emit-events]',
    summary: 'Import a JSON document of campaigns, accounts, contacts and history.',
    arguments: [
      'FILE  a JSON document: campaigns with their sequences, accounts, contacts, assignments, messages,',
      '      provider events, jobs and exclusions. Its format: docs/import-format.md (JSON Schema:',
      '      docs/import.schema.json). The whole file is checked first; an invalid one imports nothing.',
    ],
    flags: {
      org: { type: 'string' },
      'emit-events': {
        type: 'boolean',
        description: 'send webhook events for what the file records (off: loading history notifies no one)',
      },
    },
    async run(flags, positionals) {
      const orgId = requiredId(flags, 'org');
      const [file] = expectPositionals(positionals, ['FILE']);
      const read = await readJsonFile(file!);
      if (!read.ok) return invalidImport([{ path: '$', message: read.error }]);
      const validation = validateImport(read.value);
      if (!validation.ok) return invalidImport(validation.errors);
      await getOrganization({ orgId });
      const startedAt = performance.now();
      // Webhook events only when asked: loading history should not flood subscribers.
      const emitEvents = flags['emit-events'] === true;
      const report = await withProgress((update) =>
        applyImport(orgId, validation.document, update, { emitEvents }),
      );
      const took = seconds(startedAt);
      const records = Object.values(validation.document).reduce(
        (total, section) => total + section.length,
        0,
      );
      return {
        // `path` says which way it was written: `bulk` (a first load) or `transactional` (docs/import-format.md).
        json: { orgId, ...report, records, seconds: took },
        text: `Imported ${file} into organization ${orgId} in ${took} s (${plural(records, 'record')}): ${describeReport(report)}; ${report.path === 'bulk' ? 'a first load, written in bulk' : 'applied change by change'}`,
      };
    },
  },
};
