import { resolve } from 'node:path';

/** The project folder, from which entries and the lock file are resolved. */
export const PROJECT_ROOT = resolve(import.meta.dirname, '..');
