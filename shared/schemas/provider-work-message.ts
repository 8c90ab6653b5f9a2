import '#definitions/zod-english.ts';
import * as z from 'zod/mini';

// Built in a pure-annotated closure: a bundle keeps it only if its function uses it
// (esbuild cannot tell that zod's builders have no side effects; docs/architecture.md, Bundles).

/** What the enrollment queue carries. */
export const providerWorkMessage = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('enroll'),
    orgId: z.number(),
    assignmentIds: z.array(z.number()).check(z.minLength(1)),
    /** Since when (ISO 8601) its leads have waited for a provider campaign that took no leads. */
    waitingSince: z.optional(z.string()),
  }),
  z.object({
    kind: z.literal('stop'),
    orgId: z.number(),
    assignmentIds: z.array(z.number()).check(z.minLength(1)),
    reason: z.string(),
  }),
  z.object({ kind: z.literal('stop-domain'), orgId: z.number(), domain: z.string() }),
]);
export type ProviderWorkMessage = z.infer<typeof providerWorkMessage>;
