import type { Command } from '#admin/command.ts';
import { eventLines, UnreadableFile } from '#admin/events-file.ts';
import { expectPositionals, requiredId } from '#admin/flags.ts';
import { count, plural, unreadableFile } from '#admin/format.ts';
import { withProgress } from '#admin/progress.ts';
import { requestErrorMessage } from '#api/http/endpoint.ts';
import { recordEvents } from '#use-cases/record-events.ts';

/** `events record`: provider events from a JSON Lines file, as live provider traffic records them. */
export const eventCommands: Record<string, Command> = {
  'events record': {
    usage: 'events record --org ID FILE.jsonl (- reads stdin)',
    summary: 'Record provider events from a JSON Lines file.',
    arguments: [
      'FILE.jsonl  provider events, one JSON object per line (`#/$defs/ProviderEvent` of',
      '            docs/import.schema.json; docs/import-format.md); - reads stdin',
    ],
    flags: { org: { type: 'string' } },
    async run(flags, positionals) {
      const orgId = requiredId(flags, 'org');
      const [file] = expectPositionals(positionals, ['FILE']);
      let recorded: Awaited<ReturnType<typeof recordEvents>>;
      try {
        recorded = await withProgress((update) => recordEvents({ orgId, lines: eventLines(file!) }, update));
      } catch (error) {
        if (error instanceof UnreadableFile) return unreadableFile(file!, error.code);
        throw error;
      }
      // A refused event is named as the API names a refusal (`Invalid body field …`).
      const rejected = recorded.rejected.map(({ line, eventId, ...why }) => ({
        line,
        ...(eventId !== undefined && { eventId }),
        message: 'refused' in why ? requestErrorMessage(why.refused) : why.invalid,
      }));
      const report = { ...recorded, rejected };
      const summary = `${plural(report.lines, 'event')}: ${count(report.applied)} applied, ${count(report.duplicate)} already recorded, ${count(rejected.length)} rejected`;
      return {
        json: report,
        text: [
          summary,
          ...rejected.map(
            (entry) => `line ${entry.line}${entry.eventId ? ` (${entry.eventId})` : ''}: ${entry.message}`,
          ),
        ].join('\n'),
        exitCode: rejected.length > 0 ? 1 : 0,
      };
    },
  },
};
