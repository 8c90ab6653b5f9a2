import type { Command } from '#admin/command.ts';
import { expectPositionals } from '#admin/flags.ts';
import { describeReport, plural, seconds } from '#admin/format.ts';
import { withProgress } from '#admin/progress.ts';
import { seedDemo } from '#admin/seed.ts';

/** `seed demo`: a new demo organization with a key and a believable data set. */
export const demoCommands: Record<string, Command> = {
  'seed demo': {
    usage: 'seed demo',
    summary: 'Create a demo organization with a key and sample data.',
    flags: {},
    async run(_flags, positionals) {
      expectPositionals(positionals, []);
      const startedAt = performance.now();
      const seeded = await withProgress((update) => seedDemo({ onProgress: update }));
      const took = seconds(startedAt);
      return {
        json: { ...seeded, seconds: took },
        text: [
          `Created demo organization ${seeded.orgId}`,
          `API key (shown once): ${seeded.apiKey}`,
          `Imported ${plural(seeded.records, 'record')} in ${took} s: ${describeReport(seeded.report)}`,
        ].join('\n'),
      };
    },
  },
};
