import { z } from 'zod';

/**
 * The public resources of the spec (section 2), field for field. These schemas
 * shape every response (unknown keys are stripped) and generate the OpenAPI
 * document; the TypeScript types are inferred from them.
 */

/** Statuses of an assignment (a contact in a campaign's sequence). */
export const ASSIGNMENT_STATUSES = [
  'pending-approval',
  'scheduled',
  'in-progress',
  'completed',
  'replied',
  'bounced',
  'unsubscribed',
] as const;
export const assignmentStatus = z.enum(ASSIGNMENT_STATUSES);
export type AssignmentStatus = z.infer<typeof assignmentStatus>;

/** The contact list's `status` filter values: every status but `pending-approval` (docs/decisions.md). */
export const CONTACT_STATUS_FILTERS = [
  'scheduled',
  'in-progress',
  'completed',
  'replied',
  'bounced',
  'unsubscribed',
] as const satisfies readonly AssignmentStatus[];

export const CHANNELS = ['email', 'linkedin'] as const;
export const channel = z.enum(CHANNELS);
export type Channel = z.infer<typeof channel>;

export const MESSAGE_TYPES = ['sent', 'received', 'forward'] as const;
export const messageType = z.enum(MESSAGE_TYPES);

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
export const responseType = z.enum(RESPONSE_TYPES);

export const signal = z.object({
  name: z.string(),
  updated: z.string().nullable(),
  freshness: z.string().nullable(),
  score: z.number(),
  contextual: z.string().optional(),
});
export type Signal = z.infer<typeof signal>;

export const account = z.object({
  id: z.number().int(),
  name: z.string().optional(),
  domain: z.string(),
  website: z.string().optional(),
  'linkedin-url': z.string().optional(),
  score: z.number(),
  signals: z.array(signal),
});
export type Account = z.infer<typeof account>;

export const icp = z.object({
  id: z.number().int(),
  name: z.string(),
  signals: z.array(z.string()),
  accounts_count: z.number().int(),
});

export const job = z.object({
  id: z.string(),
  domain: z.string(),
  title: z.string(),
  url: z.string(),
  last_seen_at: z.string(),
  first_seen_at: z.string(),
  status: z.string(),
  location: z.string(),
  description: z.string(),
});
export type Job = z.infer<typeof job>;

export const campaignStats = z.object({
  sent: z.number().int(),
  opened: z.number().int(),
  clicked: z.number().int(),
  bounced: z.number().int(),
  unsubscribed: z.number().int(),
  blocked: z.number().int(),
});
export type CampaignStats = z.infer<typeof campaignStats>;

export const campaignSummary = z.object({
  id: z.number().int(),
  provider: z.string().nullable(),
  providers: z.array(z.string()),
  sequence_ids: z.array(z.number().int()),
  icp_id: z.number().int().meta({ deprecated: true, description: 'Deprecated alias of id.' }),
  icp_name: z.string(),
  created_at: z.string().nullable(),
  steps_count: z.number().int(),
  stats: campaignStats,
});
export type CampaignSummary = z.infer<typeof campaignSummary>;

export const campaignContactCounts = z.object({
  pending_approval: z.number().int(),
  scheduled: z.number().int(),
  in_progress: z.number().int(),
  completed: z.number().int(),
  replied: z.number().int(),
});

export const campaignDetail = campaignSummary.extend({ contacts: campaignContactCounts });
export type CampaignDetail = z.infer<typeof campaignDetail>;

export const contactFields = z.object({
  id: z.number().int(),
  email: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  full_name: z.string().nullable(),
  title: z.string().nullable(),
  linkedin_url: z.string().nullable(),
  company_name: z.string().nullable(),
  company_domain: z.string().nullable(),
});
export type ContactFields = z.infer<typeof contactFields>;

export const campaignContact = z.object({
  assignment_id: z.number().int(),
  contact: contactFields,
  status: z.string(),
  approved_at: z.string().nullable(),
  sequenced_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  bounced_at: z.string().nullable(),
  unsubscribed_at: z.string().nullable(),
  enrollment: z
    .object({
      status: z.enum(['pending', 'enrolled', 'failed']),
      error: z.string().nullable(),
      updated_at: z.string(),
    })
    .nullable()
    .describe(
      "An addition to the contract: the contact's enrollment in the provider campaign behind its sequence. " +
        'null when the sequence is not linked to a connected provider campaign, or the assignment was never scheduled; ' +
        '`pending` until the provider accepted it, then `enrolled`; `failed` with the reason (`error`) when the provider refused it.',
    ),
});
export type CampaignContact = z.infer<typeof campaignContact>;

export const campaignMessage = z.object({
  id: z.number().int(),
  assignment_id: z.number().int(),
  type: messageType,
  step_type: z.string(),
  step_index: z.number().int().nullable(),
  variant_index: z.number().int().nullable(),
  response_type: z.string().nullable(),
  subject: z.string().nullable(),
  body: z.string().nullable(),
  open_count: z.number().int(),
  sender_email: z.string().nullable(),
  created_at: z.string().nullable(),
});
export type CampaignMessage = z.infer<typeof campaignMessage>;

export const analyticsOverview = z.object({
  total_campaigns: z.number().int(),
  total_contacts_sent: z.number().int(),
  total_contacts_opened: z.number().int(),
  total_contacts_replied: z.number().int(),
  total_contacts_scheduled: z.number().int(),
  total_bounced: z.number().int(),
  total_unsubscribed: z.number().int(),
});
export type AnalyticsOverview = z.infer<typeof analyticsOverview>;

export const errorBody = z.object({
  message: z.string().meta({
    description:
      "What went wrong. A request that fails validation names every problem, each naming its field (`Invalid body field 'contacts[0].email': …`), joined by `; ` (the first 20, then `and N more problems`).",
  }),
  errors: z
    .array(
      z.object({
        path: z.string().meta({
          description:
            'The request value at fault: `path.`, `query.` or `body.` and the field as the request carried it (`body.contacts[0].email`, `query.take`), or `body` for the body as a whole.',
        }),
        message: z.string().meta({ description: 'What is wrong with it, as `message` says it.' }),
      }),
    )
    .max(20)
    .optional()
    .meta({
      description:
        'On every 4xx of an endpoint: the request values at fault, one per problem, the first 20 (the message says how many more); empty when the error names none (a resource not found, a conflict). Absent on a 5xx and on the gateway’s own answers (401 from the authorizer, 429 throttling).',
    }),
  request_id: z.string().optional().meta({
    description:
      'On every error of an endpoint: the API Gateway request id the service’s log records of this request carry, to quote when asking about it. Absent on the gateway’s own answers.',
  }),
});
