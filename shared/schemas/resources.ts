import '#definitions/zod-english.ts';
import * as z from 'zod/mini';
import { ASSIGNMENT_STATUSES, type AssignmentStatus } from '#definitions/item-fields.ts';

// Pure-annotated closures: esbuild drops the schemas a function does not use
// (kept: 3.1 KiB of its own (and the zod types it uses) in webhook-dispatcher without them).

/**
 * The public resources of the spec (section 2), field for field. These schemas
 * shape every response (unknown keys are stripped) and generate the OpenAPI
 * document; the TypeScript types are inferred from them.
 */

/** Statuses of an assignment (a contact in a campaign's sequence). */
export { ASSIGNMENT_STATUSES, type AssignmentStatus };
export const assignmentStatus = /* @__PURE__ */ z.enum(ASSIGNMENT_STATUSES);

/** The contact list's `status` filter values: every status but `pending-approval` (docs/decisions.md). */
export const CONTACT_STATUS_FILTERS = /* @__PURE__ */ (() =>
  ASSIGNMENT_STATUSES.filter(
    (status): status is Exclude<AssignmentStatus, 'pending-approval'> => status !== 'pending-approval',
  ))();

export const CHANNELS = ['email', 'linkedin'] as const;
export const channel = /* @__PURE__ */ z.enum(CHANNELS);
export type Channel = z.infer<typeof channel>;

export const MESSAGE_TYPES = ['sent', 'received', 'forward'] as const;
export const messageType = /* @__PURE__ */ z.enum(MESSAGE_TYPES);

/** Response types of received messages; `positive` triggers the Positive Reply webhook. */
export const RESPONSE_TYPES = [
  'positive',
  'neutral',
  'negative',
  'not_interested',
  'out_of_office',
  'wrong_person',
  'unsubscribe_request',
] as const;
export const responseType = /* @__PURE__ */ z.enum(RESPONSE_TYPES);

export const signal = /* @__PURE__ */ (() =>
  z.object({
    name: z.string(),
    updated: z.nullable(z.string()),
    freshness: z.nullable(z.string()),
    score: z.number(),
    contextual: z.optional(z.string()),
  }))();
export type Signal = z.infer<typeof signal>;

export const account = /* @__PURE__ */ (() =>
  z.object({
    id: z.int(),
    name: z.optional(z.string()),
    domain: z.string(),
    website: z.optional(z.string()),
    'linkedin-url': z.optional(z.string()),
    score: z.number(),
    signals: z.array(signal),
  }))();
export type Account = z.infer<typeof account>;

export const icp = /* @__PURE__ */ (() =>
  z.object({
    id: z.int(),
    name: z.string(),
    signals: z.array(z.string()),
    accounts_count: z.int(),
  }))();

export const job = /* @__PURE__ */ (() =>
  z.object({
    id: z.string(),
    domain: z.string(),
    title: z.string(),
    url: z.string(),
    last_seen_at: z.string(),
    first_seen_at: z.string(),
    status: z.string(),
    location: z.string(),
    description: z.string(),
  }))();
export type Job = z.infer<typeof job>;

export const campaignStats = /* @__PURE__ */ (() =>
  z.object({
    sent: z.int(),
    opened: z.int(),
    clicked: z.int(),
    bounced: z.int(),
    unsubscribed: z.int(),
    blocked: z.int(),
  }))();
export type CampaignStats = z.infer<typeof campaignStats>;

export const campaignSummary = /* @__PURE__ */ (() =>
  z.object({
    id: z.int(),
    provider: z.nullable(z.string()),
    providers: z.array(z.string()),
    sequence_ids: z.array(z.int()),
    icp_id: z.int().check(z.meta({ deprecated: true, description: 'Deprecated alias of id.' })),
    icp_name: z.string(),
    created_at: z.nullable(z.string()),
    steps_count: z.int(),
    stats: campaignStats,
  }))();
export type CampaignSummary = z.infer<typeof campaignSummary>;

export const campaignContactCounts = /* @__PURE__ */ (() =>
  z.object({
    pending_approval: z.int(),
    scheduled: z.int(),
    in_progress: z.int(),
    completed: z.int(),
    replied: z.int(),
  }))();

export const campaignDetail = /* @__PURE__ */ z.extend(campaignSummary, { contacts: campaignContactCounts });
export type CampaignDetail = z.infer<typeof campaignDetail>;

export const contactFields = /* @__PURE__ */ (() =>
  z.object({
    id: z.int(),
    email: z.nullable(z.string()),
    first_name: z.nullable(z.string()),
    last_name: z.nullable(z.string()),
    full_name: z.nullable(z.string()),
    title: z.nullable(z.string()),
    linkedin_url: z.nullable(z.string()),
    company_name: z.nullable(z.string()),
    company_domain: z.nullable(z.string()),
  }))();
export type ContactFields = z.infer<typeof contactFields>;

export const campaignContact = /* @__PURE__ */ (() =>
  z.object({
    assignment_id: z.int(),
    contact: contactFields,
    status: z.string(),
    approved_at: z.nullable(z.string()),
    sequenced_at: z.nullable(z.string()),
    completed_at: z.nullable(z.string()),
    bounced_at: z.nullable(z.string()),
    unsubscribed_at: z.nullable(z.string()),
    enrollment: z
      .nullable(
        z.object({
          status: z.enum(['pending', 'enrolled', 'failed']),
          error: z.nullable(z.string()),
          updated_at: z.string(),
        }),
      )
      .check(
        z.describe(
          "An addition to the contract: the contact's enrollment in the provider campaign behind its sequence. " +
            'null when the sequence is not linked to a connected provider campaign, or the assignment was never scheduled; ' +
            '`pending` until the provider accepted it, then `enrolled`; `failed` with the reason (`error`) when the provider refused it.',
        ),
      ),
  }))();
export type CampaignContact = z.infer<typeof campaignContact>;

export const campaignMessage = /* @__PURE__ */ (() =>
  z.object({
    id: z.int(),
    assignment_id: z.int(),
    type: messageType,
    step_type: z.string(),
    step_index: z.nullable(z.int()),
    variant_index: z.nullable(z.int()),
    response_type: z.nullable(z.string()),
    subject: z.nullable(z.string()),
    body: z.nullable(z.string()),
    open_count: z.int(),
    sender_email: z.nullable(z.string()),
    created_at: z.nullable(z.string()),
  }))();
export type CampaignMessage = z.infer<typeof campaignMessage>;

export const analyticsOverview = /* @__PURE__ */ (() =>
  z.object({
    total_campaigns: z.int(),
    total_contacts_sent: z.int(),
    total_contacts_opened: z.int(),
    total_contacts_replied: z.int(),
    total_contacts_scheduled: z.int(),
    total_bounced: z.int(),
    total_unsubscribed: z.int(),
  }))();
export type AnalyticsOverview = z.infer<typeof analyticsOverview>;

export const errorBody = /* @__PURE__ */ (() =>
  z.object({
    message: z.string().check(
      z.meta({
        description:
          "What went wrong. A request that fails validation names every problem, each naming its field (`Invalid body field 'contacts[0].email': …`), joined by `; ` (the first 20, then `and N more problems`).",
      }),
    ),
    errors: z
      .optional(
        z
          .array(
            z.object({
              path: z.string().check(
                z.meta({
                  description:
                    'The request value at fault: `path.`, `query.` or `body.` and the field as the request carried it (`body.contacts[0].email`, `query.take`), or `body` for the body as a whole.',
                }),
              ),
              message: z
                .string()
                .check(z.meta({ description: 'What is wrong with it, as `message` says it.' })),
            }),
          )
          .check(z.maxLength(20)),
      )
      .check(
        z.meta({
          description:
            'On every 4xx of an endpoint: the request values at fault, one per problem, the first 20 (the message says how many more); empty when the error names none (a resource not found, a conflict). Absent on a 5xx and on the gateway’s own answers (401 from the authorizer, 429 throttling).',
        }),
      ),
    request_id: z.optional(z.string()).check(
      z.meta({
        description:
          'On every error of an endpoint and every answer the gateway makes itself: the API Gateway request id (the service’s log records of this request carry it, and so does the `x-amzn-RequestId` header), to quote when asking about it.',
      }),
    ),
    // RFC 9457 problem details, next to the contract's own members (docs/decisions.md, Problem details).
    type: z.string().check(
      z.meta({
        description:
          'RFC 9457: a URL of the reference page’s section on this error (`<base>/docs#errors-not-found`), or `about:blank` for a status it has none for.',
      }),
    ),
    title: z.string().check(z.meta({ description: 'RFC 9457: the status’s reason phrase (`Not Found`).' })),
    status: z.int().check(z.meta({ description: 'RFC 9457: the HTTP status of this answer.' })),
    detail: z.optional(z.string()).check(z.meta({ description: 'RFC 9457: the same text as `message`.' })),
  }))();
