import * as z from 'zod/mini';
import { assignmentStatus, channel } from '#schemas/resources.ts';

// The item schemas of contacts.ts: what its store reads (and checks) items with.

const optionalText = z._default(z.nullable(z.string()), null);

/** The contact fields as the API shows them, as a contact item or an assignment's copy holds them. */
export const contactFieldsItem = z.object({
  id: z.number(),
  email: optionalText,
  first_name: optionalText,
  last_name: optionalText,
  full_name: optionalText,
  title: optionalText,
  linkedin_url: optionalText,
  company_name: optionalText,
  company_domain: optionalText,
});

/** One assignment as the contact's eligibility summary records it. */
export const contactAssignmentEntry = z.object({
  campaignId: z.number(),
  sequenceId: z.number(),
  channel,
  status: assignmentStatus,
  completedAt: z._default(z.nullable(z.string()), null),
});

export type ContactAssignmentEntry = z.infer<typeof contactAssignmentEntry>;

// kept: 1.2 KiB in reply-to-assignment and provider-enrollment without it (zod's extend).
export const contactItem = /* @__PURE__ */ (() =>
  z.extend(contactFieldsItem, {
    blocked: z._default(z.boolean(), false),
    /** Assignment id → summary entry. */
    assignments: z._default(z.record(z.string(), contactAssignmentEntry), {}),
    /** Sequence id → the contact's one assignment in it (the uniqueness guard). */
    sequenceAssignments: z._default(z.record(z.string(), z.number()), {}),
    /** How often assignments were added or withdrawn, or the contact blocked (0: never). */
    eligibilityVersion: z._default(z.number(), 0),
  }))();

export type ContactRecord = z.infer<typeof contactItem>;
