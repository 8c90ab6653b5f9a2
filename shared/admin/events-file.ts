import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { providerEvent } from '#schemas/import.ts';
import type { EventLine } from '#use-cases/record-events.ts';
import { jsonPath } from './import.ts';

/**
 * An events file (`events record`): JSON Lines, one provider event a line,
 * `-` for stdin. Its lines are read as they come and each is validated by
 * the import's event schema; blank lines are skipped.
 */

/** The events file could not be opened. */
export class UnreadableFile extends Error {
  constructor(readonly code: string | undefined) {
    super(`cannot read the file (${code ?? 'error'})`);
  }
}

function parseEventLine(line: number, text: string): EventLine {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { line, invalid: `not valid JSON (${(error as Error).message})` };
  }
  const parsed = providerEvent.safeParse(raw);
  if (parsed.success) return { line, event: parsed.data };
  const eventId = (raw as { id?: unknown } | null)?.id;
  return {
    line,
    ...(typeof eventId === 'string' && { eventId }),
    invalid: parsed.error.issues.map((issue) => `${jsonPath(issue.path)}: ${issue.message}`).join('; '),
  };
}

/**
 * The lines of `file`, numbered from 1, as events or why they are none. The
 * file is opened when the lines are first read (UnreadableFile when it cannot be).
 */
export async function* eventLines(file: string): AsyncGenerator<EventLine> {
  const input = file === '-' ? process.stdin : createReadStream(file, 'utf8');
  if (input !== process.stdin) {
    await new Promise<void>((resolve, reject) => {
      input.once('ready', () => resolve());
      input.once('error', (error: NodeJS.ErrnoException) => reject(new UnreadableFile(error.code)));
    });
  }
  let line = 0;
  for await (const text of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    line += 1;
    if (text.trim() !== '') yield parseEventLine(line, text);
  }
}
