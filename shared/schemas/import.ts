import { z } from 'zod';
import { assignmentStatus, channel, messageType, responseType, signal } from './resources.ts';
import { snippetVariables } from './variables.ts';

/**
 * The operator import document (`outreach-admin import --org ID FILE`) and the
 * provider event (`outreach-admin events record`). Field names mirror the API
 * resources (snake_case; accounts keep `linkedin-url`). docs/import-format.md
 * and docs/import.schema.json are generated from these schemas.
 */

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/** Any ISO 8601 date-time with an offset; stored in the one canonical form, UTC with milliseconds. */
const timestamp = z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString());
const text = (max: number) => z.string().max(max);

/** Step types of sequence steps and messages. */
export const STEP_TYPES = [
  'email',
  'linkedin_connect',
  'linkedin_message',
  'linkedin_inmail',
  'linkedin_profile_visit',
  'reply',
] as const;
export const stepType = z.enum(STEP_TYPES);

export const PROVIDERS = ['smartlead', 'instantly', 'lemlist', 'heyreach'] as const;
export const provider = z.enum(PROVIDERS);
export type Provider = z.infer<typeof provider>;

export const sequenceStepInput = z.object({
  type: stepType,
  /** Message variants (A/B); at least one. */
  variants: z
    .array(z.object({ subject: text(1000).nullable().optional(), body: text(100_000) }))
    .min(1)
    .max(26),
});

export const sequenceInput = z.object({
  id,
  provider,
  channel,
  steps: z.array(sequenceStepInput).max(100),
  /**
   * The provider's id of the campaign this sequence is (Smartlead's numeric id
   * as a string, Instantly's UUID, lemlist's `cam_…`, HeyReach's id): provider
   * webhooks name it. Unique per provider; absent on a re-import keeps the stored one.
   */
  external_id: text(200).min(1).nullable().optional(),
  /** The provider connection the campaign belongs to, when the organization has several of the provider. */
  connection_id: id.nullable().optional(),
});
export type SequenceInput = z.infer<typeof sequenceInput>;

export const campaignInput = z.object({
  id,
  name: text(500).min(1),
  signals: z.array(text(200).min(1)).max(200).default([]),
  created_at: timestamp.nullable().optional(),
  sequences: z.array(sequenceInput).min(1).max(50),
});
export type CampaignInput = z.infer<typeof campaignInput>;

export const campaignQualificationInput = z.object({
  campaign_id: id,
  score: z.number().finite(),
  signals: z.array(signal).max(500).default([]),
});

export const accountInput = z.object({
  id,
  name: text(500).optional(),
  domain: text(253).min(1),
  website: text(2000).optional(),
  'linkedin-url': text(2000).optional(),
  /** Defaults to the highest score of the account's campaign qualifications (0 without any). */
  score: z.number().finite().optional(),
  /** Defaults to the union of the qualification signals, by name, keeping the highest score. */
  signals: z.array(signal).max(500).optional(),
  /** At most 45: an account's writes go in one transaction (100 items). */
  campaigns: z.array(campaignQualificationInput).max(45).default([]),
});
export type AccountInput = z.infer<typeof accountInput>;

const nullableText = (max: number) => text(max).nullable().optional();

export const contactInput = z.object({
  id,
  email: z.email().max(320).nullable().optional(),
  first_name: nullableText(200),
  last_name: nullableText(200),
  full_name: nullableText(400),
  title: nullableText(500),
  linkedin_url: nullableText(2000),
  company_name: nullableText(500),
  company_domain: nullableText(253),
  blocked: z.boolean().default(false),
});
export type ContactInput = z.infer<typeof contactInput>;

export const assignmentInput = z.object({
  id,
  campaign_id: id,
  sequence_id: id,
  contact_id: id,
  status: assignmentStatus.default('pending-approval'),
  created_at: timestamp.optional(),
  approved_at: timestamp.nullable().optional(),
  sequenced_at: timestamp.nullable().optional(),
  completed_at: timestamp.nullable().optional(),
  bounced_at: timestamp.nullable().optional(),
  unsubscribed_at: timestamp.nullable().optional(),
  /** Snippet variables, with the names and limits of a raw push. */
  variables: snippetVariables.optional(),
});
export type AssignmentInput = z.infer<typeof assignmentInput>;

/** A message as the CampaignMessage resource has it (created_at required to order history). */
export const messageInput = z.object({
  id,
  assignment_id: id,
  type: messageType,
  step_type: stepType,
  step_index: z.number().int().min(0).nullable().optional(),
  variant_index: z.number().int().min(0).nullable().optional(),
  response_type: responseType.nullable().optional(),
  subject: nullableText(1000),
  body: nullableText(100_000),
  open_count: z.number().int().min(0).default(0),
  sender_email: z.email().nullable().optional(),
  created_at: timestamp,
});
export type MessageInput = z.infer<typeof messageInput>;

/** The message an event carries: the CampaignMessage fields, id and assignment optional. */
const eventMessage = messageInput.omit({ assignment_id: true, type: true, created_at: true }).extend({
  id: id.optional(),
  created_at: timestamp.optional(),
});

const eventBase = {
  /** The provider's event id: recording the same id twice changes nothing. */
  id: text(200).min(1),
  assignment_id: id,
  at: timestamp.optional(),
};

export const PROVIDER_EVENT_TYPES = [
  'approved',
  'sequenced',
  'message_sent',
  'opened',
  'clicked',
  'reply_received',
  'reply_classified',
  'forwarded',
  'bounced',
  'unsubscribed',
  'completed',
  'contact_blocked',
] as const;
export type ProviderEventType = (typeof PROVIDER_EVENT_TYPES)[number];

export const providerEvent = z.discriminatedUnion('type', [
  z.object({ ...eventBase, type: z.literal('approved') }),
  z.object({ ...eventBase, type: z.literal('sequenced') }),
  z.object({ ...eventBase, type: z.literal('message_sent'), message: eventMessage }),
  z.object({ ...eventBase, type: z.literal('opened'), message_id: id.optional() }),
  z.object({ ...eventBase, type: z.literal('clicked'), message_id: id.optional() }),
  z.object({
    ...eventBase,
    type: z.literal('reply_received'),
    /** Absent: the classification that arrived before the reply (`reply_classified`), else `neutral`. */
    response_type: responseType.optional(),
    message: eventMessage.extend({ step_type: stepType.default('reply') }),
  }),
  /** The classification of the assignment's latest reply, which providers send apart from the reply, in either order. */
  z.object({ ...eventBase, type: z.literal('reply_classified'), response_type: responseType }),
  z.object({
    ...eventBase,
    type: z.literal('forwarded'),
    message: eventMessage.extend({ step_type: stepType.default('reply') }),
  }),
  z.object({ ...eventBase, type: z.literal('bounced') }),
  z.object({ ...eventBase, type: z.literal('unsubscribed') }),
  z.object({ ...eventBase, type: z.literal('completed') }),
  z.object({ ...eventBase, type: z.literal('contact_blocked') }),
]);
export type ProviderEvent = z.infer<typeof providerEvent>;

export const JOB_STATUSES = ['open', 'closed'] as const;

export const jobInput = z.object({
  id: text(200).min(1),
  domain: text(253).min(1),
  title: text(1000).min(1),
  url: text(2000).min(1),
  first_seen_at: timestamp,
  last_seen_at: timestamp,
  status: z.enum(JOB_STATUSES).default('open'),
  location: text(500).default(''),
  description: text(100_000).default(''),
});
export type JobInput = z.infer<typeof jobInput>;

export const exclusionInput = z.union([
  z.object({ email: z.email().max(320) }).strict(),
  z.object({ domain: text(2000).min(1) }).strict(),
]);
export type ExclusionInput = z.infer<typeof exclusionInput>;

export const importDocument = z
  .object({
    campaigns: z.array(campaignInput).default([]),
    accounts: z.array(accountInput).default([]),
    contacts: z.array(contactInput).default([]),
    assignments: z.array(assignmentInput).default([]),
    messages: z.array(messageInput).default([]),
    events: z.array(providerEvent).default([]),
    jobs: z.array(jobInput).default([]),
    exclusions: z.array(exclusionInput).default([]),
  })
  // A misspelled section must fail, not import nothing.
  .strict();
export type ImportDocument = z.infer<typeof importDocument>;
