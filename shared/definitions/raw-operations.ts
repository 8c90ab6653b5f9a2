/**
 * The bounds and values of the raw operations (push and eligibility check)
 * that their schemas (shared/schemas/raw.ts) and the code running them both
 * name: in a module without zod, so code that names them does not bring zod
 * onto a function's static path (docs/architecture.md, Bundles).
 */

/** Why a contact may not be pushed, in the order responses list them (docs/decisions.md, Raw operations). */
export const INELIGIBILITY_REASONS = [
  'cooldown_same_sequence',
  'cooldown_other_sequences',
  'unapproved',
  'replied',
  'blocked',
  'globally_excluded',
] as const;
export type IneligibilityReason = (typeof INELIGIBILITY_REASONS)[number];

/** Most contacts a push, or emails an eligibility check, takes in one request. */
export const MAX_CONTACTS_PER_REQUEST = 1000;
