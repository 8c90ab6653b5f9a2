import { count } from './format.ts';
import type { ProgressListener } from './import.ts';

/**
 * Progress on stderr, drawn in place, only when stderr is a terminal, so
 * piped output and `--json` stay clean. Redraws at most ten times a second.
 */
export function progressReporter(stream: NodeJS.WriteStream = process.stderr): {
  update: ProgressListener;
  done(): void;
} {
  if (!stream.isTTY) return { update: () => undefined, done: () => undefined };
  let drawnAt = 0;
  let drawnPhase = '';
  return {
    update(phase, done, total) {
      const now = Date.now();
      if (phase === drawnPhase && done < total && now - drawnAt < 100) return;
      drawnAt = now;
      drawnPhase = phase;
      const percent = total > 0 ? Math.floor((done / total) * 100) : 100;
      stream.write(`\r\x1b[2K${phase}: ${count(done)} of ${count(total)} (${percent}%)`);
    },
    done() {
      if (drawnPhase) stream.write('\r\x1b[2K');
    },
  };
}

/** Runs `work` with a progress reporter, cleared when the work ends, however it ends. */
export async function withProgress<T>(work: (update: ProgressListener) => Promise<T>): Promise<T> {
  const progress = progressReporter();
  try {
    return await work(progress.update);
  } finally {
    progress.done();
  }
}
