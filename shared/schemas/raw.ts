import { z } from 'zod';
import type { EndpointSchemas } from './endpoint.ts';
import { domainString, emailAddress, idParam } from './params.ts';
import { snippetVariables } from './variables.ts';

/**
 * The raw operations. The push validates its envelope as a whole (400) but
 * each contact on its own: a bad contact lands in `errors` and the others
 * proceed. Limits: 1,000 contacts or emails per request; snippet variables
 * as `./variables.ts` says (names, count and sizes).
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

export const MAX_CONTACTS_PER_REQUEST = 1000;
/** Longest `Idempotency-Key` header a push accepts. */
export const MAX_IDEMPOTENCY_KEY = 255;

/** One contact of a push. */
export const rawContact = z.object({
  email: emailAddress,
  firstName: z.string().max(200).optional(),
  lastName: z.string().max(200).optional(),
  title: z.string().max(500).optional(),
  linkedinUrl: z.string().max(2048).optional(),
  companyName: z.string().max(500).optional(),
  companyDomain: domainString.optional(),
  variables: snippetVariables.prefault({}),
});

const bypassFlags = {
  bypassCooldownOtherSequences: z.boolean().default(false),
  bypassGlobalExcluded: z.boolean().default(false),
  takeoverUnapproved: z.boolean().default(false),
  /** Which of the campaign's sequences; default its first email sequence. */
  sequenceId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
};

const reasons = z.array(z.enum(INELIGIBILITY_REASONS));

const campaignPath = z.object({ id: idParam.meta({ description: 'The campaign (ICP) id.' }) });

/** POST /public/v1/campaigns/{id}/raw/contacts */
export const pushContactsEndpoint = {
  path: campaignPath,
  body: z.object({
    contacts: z
      .array(z.unknown().meta({ description: 'A contact: see RawContact.' }))
      .max(MAX_CONTACTS_PER_REQUEST, `at most ${MAX_CONTACTS_PER_REQUEST} contacts per request`),
    triggerIntake: z.boolean().default(false),
    skipIneligible: z.boolean().default(true),
    ...bypassFlags,
  }),
  response: z.object({
    created: z.number().int(),
    updated: z.number().int(),
    skipped: z.number().int(),
    assignmentIds: z.array(z.number().int()),
    errors: z.array(z.object({ index: z.number().int(), email: z.string().nullable(), message: z.string() })),
    skippedContacts: z.array(z.object({ email: z.string(), reasons })),
  }),
} satisfies EndpointSchemas;

/** POST /public/v1/campaigns/{id}/raw/contacts/check-eligibility */
export const checkEligibilityEndpoint = {
  path: campaignPath,
  body: z.object({
    emails: z
      .array(emailAddress)
      .max(MAX_CONTACTS_PER_REQUEST, `at most ${MAX_CONTACTS_PER_REQUEST} emails per request`),
    ...bypassFlags,
  }),
  response: z.object({
    results: z.array(z.object({ email: z.string(), eligible: z.boolean(), reasons })),
    summary: z.object({
      total: z.number().int(),
      eligible: z.number().int(),
      ineligible: z.number().int(),
      ...(Object.fromEntries(INELIGIBILITY_REASONS.map((reason) => [reason, z.number().int()])) as Record<
        (typeof INELIGIBILITY_REASONS)[number],
        z.ZodNumber
      >),
    }),
  }),
} satisfies EndpointSchemas;
