import '#definitions/zod-english.ts';
import * as z from 'zod/mini';
import { INELIGIBILITY_REASONS, MAX_CONTACTS_PER_REQUEST } from '#definitions/raw-operations.ts';
import type { EndpointSchemas } from './endpoint.ts';
import { domainString, emailAddress, idParam } from './params.ts';
import { snippetVariables } from './variables.ts';

// Pure-annotated closures: esbuild drops the schemas a function does not use
// (kept: 2.9 KiB in check-eligibility without them (with variables.ts)).

/**
 * The raw operations. The push validates its envelope as a whole (400) but
 * each contact on its own: a bad contact lands in `errors` and the others
 * proceed. Limits: 1,000 contacts or emails per request
 * (shared/definitions/raw-operations.ts); snippet variables as
 * `./variables.ts` says (names, count and sizes).
 */

/** One contact of a push. */
export const rawContact = /* @__PURE__ */ (() =>
  z.object({
    email: emailAddress,
    firstName: z.optional(z.string().check(z.maxLength(200))),
    lastName: z.optional(z.string().check(z.maxLength(200))),
    title: z.optional(z.string().check(z.maxLength(500))),
    linkedinUrl: z.optional(z.string().check(z.maxLength(2048))),
    companyName: z.optional(z.string().check(z.maxLength(500))),
    companyDomain: z.optional(domainString),
    variables: z.prefault(snippetVariables, {}),
  }))();

const bypassFlags = /* @__PURE__ */ (() => ({
  bypassCooldownOtherSequences: z._default(z.boolean(), false),
  bypassGlobalExcluded: z._default(z.boolean(), false),
  takeoverUnapproved: z._default(z.boolean(), false),
  /** Which of the campaign's sequences; default its first email sequence. */
  sequenceId: z.optional(z.int().check(z.positive(), z.lte(Number.MAX_SAFE_INTEGER))),
}))();

const reasons = /* @__PURE__ */ (() => z.array(z.enum(INELIGIBILITY_REASONS)))();

const campaignPath = /* @__PURE__ */ (() =>
  z.object({ id: idParam.check(z.meta({ description: 'The campaign (ICP) id.' })) }))();

/** POST /public/v1/campaigns/{id}/raw/contacts */
export const pushContactsEndpoint = /* @__PURE__ */ (() =>
  ({
    path: campaignPath,
    body: z.object({
      contacts: z
        .array(z.unknown().check(z.meta({ description: 'A contact: see RawContact.' })))
        .check(
          z.maxLength(MAX_CONTACTS_PER_REQUEST, `at most ${MAX_CONTACTS_PER_REQUEST} contacts per request`),
        ),
      triggerIntake: z._default(z.boolean(), false),
      skipIneligible: z._default(z.boolean(), true),
      ...bypassFlags,
    }),
    response: z.object({
      created: z.int(),
      updated: z.int(),
      skipped: z.int(),
      assignmentIds: z.array(z.int()),
      errors: z.array(z.object({ index: z.int(), email: z.nullable(z.string()), message: z.string() })),
      skippedContacts: z.array(z.object({ email: z.string(), reasons })),
    }),
  }) satisfies EndpointSchemas)();

/** POST /public/v1/campaigns/{id}/raw/contacts/check-eligibility */
export const checkEligibilityEndpoint = /* @__PURE__ */ (() =>
  ({
    path: campaignPath,
    body: z.object({
      emails: z
        .array(emailAddress)
        .check(
          z.maxLength(MAX_CONTACTS_PER_REQUEST, `at most ${MAX_CONTACTS_PER_REQUEST} emails per request`),
        ),
      ...bypassFlags,
    }),
    response: z.object({
      results: z.array(z.object({ email: z.string(), eligible: z.boolean(), reasons })),
      summary: z.object({
        total: z.int(),
        eligible: z.int(),
        ineligible: z.int(),
        ...(Object.fromEntries(INELIGIBILITY_REASONS.map((reason) => [reason, z.int()])) as Record<
          (typeof INELIGIBILITY_REASONS)[number],
          z.ZodMiniInt
        >),
      }),
    }),
  }) satisfies EndpointSchemas)();
