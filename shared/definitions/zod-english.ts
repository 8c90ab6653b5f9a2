import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

/**
 * Imported for its side effect only (`import '#definitions/zod-english.ts';`),
 * by every module that builds zod schemas. The service validates with
 * zod/mini, which carries no locale: without one, every issue's message would
 * read just "Invalid input", where classic zod said "Too small: expected
 * string to have >=2 characters". This installs zod's English messages (and
 * only English, not every locale), so the messages requests, forms and
 * imports are answered with stay exactly what they were. Idempotent: every
 * importer configures the same locale.
 */
z.config(en());
