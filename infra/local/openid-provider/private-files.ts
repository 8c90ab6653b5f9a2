import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

/**
 * The provider's files in its data folder (users, signing keys): readable by
 * their owner only (0600), and replaced whole, so a crash mid-write leaves the
 * previous version rather than half a file. Writes are synchronous: the files
 * are small and change only on an admin request or a password change, and a
 * synchronous write keeps two changes from interleaving without a queue.
 */

/** The file's text, or undefined when there is no such file yet. */
export function readPrivateFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Replaces the file with `text`, mode 0600. */
export function writePrivateFile(path: string, text: string): void {
  const temporary = `${path}.tmp`;
  // A file's mode is set when it is created: one left over by a crash is removed, not reused.
  rmSync(temporary, { force: true });
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, path);
}
