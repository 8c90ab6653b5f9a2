import { PROVIDERS, type Provider } from '#definitions/providers.ts';
import '#definitions/zod-english.ts';
import * as z from 'zod/mini';
import { assignmentStatus, channel, messageType, responseType, signal } from './resources.ts';
import { canonicalTimestamp } from './transforms.ts';
import { snippetVariables } from './variables.ts';

// Pure-annotated closures: esbuild drops the schemas a function does not use
// (kept: 2.5 KiB of its own (and the zod types it uses) in push-raw-contacts without them).

/**
 * The operator import document (`outreach-admin import --org ID FILE`) and the
 * provider event (`outreach-admin events record`). Field names mirror the API
 * resources (snake_case; accounts keep `linkedin-url`). docs/import-format.md
 * and docs/import.schema.json are generated from these schemas.
 */

const id = /* @__PURE__ */ (() => z.int().check(z.positive(), z.lte(Number.MAX_SAFE_INTEGER)))();
/** Any ISO 8601 date-time with an offset; stored in the one canonical form, UTC with milliseconds. */
const timestamp = /* @__PURE__ */ (() =>
  z.pipe(z.iso.datetime({ offset: true }), z.transform(canonicalTimestamp)))();
const text = (max: number) => z.string().check(z.maxLength(max));
/** Text of at most `max` characters, and at least one. */
const nonEmptyText = (max: number) => text(max).check(z.minLength(1));

/** Step types of sequence steps and messages. */
export const STEP_TYPES = [
  'email',
  'linkedin_connect',
  'linkedin_message',
  'linkedin_inmail',
  'linkedin_profile_visit',
  'reply',
] as const;
export const stepType = /* @__PURE__ */ z.enum(STEP_TYPES);

export const provider = /* @__PURE__ */ z.enum(PROVIDERS);
export type { Provider };
export { PROVIDERS };

export const sequenceStepInput = /* @__PURE__ */ (() =>
  z.object({
    type: stepType,
    /** Message variants (A/B); at least one. */
    variants: z
      .array(z.object({ subject: z.optional(z.nullable(text(1000))), body: text(100_000) }))
      .check(z.minLength(1), z.maxLength(26)),
  }))();

export const sequenceInput = /* @__PURE__ */ (() =>
  z.object({
    id,
    provider,
    channel,
    steps: z.array(sequenceStepInput).check(z.maxLength(100)),
    /**
     * The provider's id of the campaign this sequence is (Smartlead's numeric id
     * as a string, Instantly's UUID, lemlist's `cam_…`, HeyReach's id): provider
     * webhooks name it. Unique per provider; absent on a re-import keeps the stored one.
     */
    external_id: z.optional(z.nullable(nonEmptyText(200))),
    /** The provider connection the campaign belongs to, when the organization has several of the provider. */
    connection_id: z.optional(z.nullable(id)),
  }))();
export type SequenceInput = z.infer<typeof sequenceInput>;

export const campaignInput = /* @__PURE__ */ (() =>
  z.object({
    id,
    name: nonEmptyText(500),
    signals: z._default(z.array(nonEmptyText(200)).check(z.maxLength(200)), []),
    created_at: z.optional(z.nullable(timestamp)),
    sequences: z.array(sequenceInput).check(z.minLength(1), z.maxLength(50)),
  }))();
export type CampaignInput = z.infer<typeof campaignInput>;

export const campaignQualificationInput = /* @__PURE__ */ (() =>
  z.object({
    campaign_id: id,
    // Classic zod's `.finite()` changed nothing: a number schema refuses Infinity and NaN anyway.
    score: z.number(),
    signals: z._default(z.array(signal).check(z.maxLength(500)), []),
  }))();

export const accountInput = /* @__PURE__ */ (() =>
  z.object({
    id,
    name: z.optional(text(500)),
    domain: nonEmptyText(253),
    website: z.optional(text(2000)),
    'linkedin-url': z.optional(text(2000)),
    /** Defaults to the highest score of the account's campaign qualifications (0 without any). */
    score: z.optional(z.number()),
    /** Defaults to the union of the qualification signals, by name, keeping the highest score. */
    signals: z.optional(z.array(signal).check(z.maxLength(500))),
    /** At most 45: an account's writes go in one transaction (100 items). */
    campaigns: z._default(z.array(campaignQualificationInput).check(z.maxLength(45)), []),
  }))();
export type AccountInput = z.infer<typeof accountInput>;

const nullableText = (max: number) => z.optional(z.nullable(text(max)));

export const contactInput = /* @__PURE__ */ (() =>
  z.object({
    id,
    email: z.optional(z.nullable(z.email().check(z.maxLength(320)))),
    first_name: nullableText(200),
    last_name: nullableText(200),
    full_name: nullableText(400),
    title: nullableText(500),
    linkedin_url: nullableText(2000),
    company_name: nullableText(500),
    company_domain: nullableText(253),
    blocked: z._default(z.boolean(), false),
  }))();
export type ContactInput = z.infer<typeof contactInput>;

export const assignmentInput = /* @__PURE__ */ (() =>
  z.object({
    id,
    campaign_id: id,
    sequence_id: id,
    contact_id: id,
    status: z._default(assignmentStatus, 'pending-approval'),
    created_at: z.optional(timestamp),
    approved_at: z.optional(z.nullable(timestamp)),
    sequenced_at: z.optional(z.nullable(timestamp)),
    completed_at: z.optional(z.nullable(timestamp)),
    bounced_at: z.optional(z.nullable(timestamp)),
    unsubscribed_at: z.optional(z.nullable(timestamp)),
    /** Snippet variables, with the names and limits of a raw push. */
    variables: z.optional(snippetVariables),
  }))();
export type AssignmentInput = z.infer<typeof assignmentInput>;

/** A message as the CampaignMessage resource has it (created_at required to order history). */
export const messageInput = /* @__PURE__ */ (() =>
  z.object({
    id,
    assignment_id: id,
    type: messageType,
    step_type: stepType,
    step_index: z.optional(z.nullable(z.int().check(z.gte(0)))),
    variant_index: z.optional(z.nullable(z.int().check(z.gte(0)))),
    response_type: z.optional(z.nullable(responseType)),
    subject: nullableText(1000),
    body: nullableText(100_000),
    open_count: z._default(z.int().check(z.gte(0)), 0),
    sender_email: z.optional(z.nullable(z.email())),
    created_at: timestamp,
  }))();
export type MessageInput = z.infer<typeof messageInput>;

/** The message an event carries: the CampaignMessage fields, id and assignment optional. */
const eventMessage = /* @__PURE__ */ (() =>
  z.extend(z.omit(messageInput, { assignment_id: true, type: true, created_at: true }), {
    id: z.optional(id),
    created_at: z.optional(timestamp),
  }))();

const eventBase = /* @__PURE__ */ (() => ({
  /** The provider's event id: recording the same id twice changes nothing. */
  id: nonEmptyText(200),
  assignment_id: id,
  at: z.optional(timestamp),
}))();

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

export const providerEvent = /* @__PURE__ */ (() =>
  z.discriminatedUnion('type', [
    z.object({ ...eventBase, type: z.literal('approved') }),
    z.object({ ...eventBase, type: z.literal('sequenced') }),
    z.object({ ...eventBase, type: z.literal('message_sent'), message: eventMessage }),
    z.object({ ...eventBase, type: z.literal('opened'), message_id: z.optional(id) }),
    z.object({ ...eventBase, type: z.literal('clicked'), message_id: z.optional(id) }),
    z.object({
      ...eventBase,
      type: z.literal('reply_received'),
      /** Absent: the classification that arrived before the reply (`reply_classified`), else `neutral`. */
      response_type: z.optional(responseType),
      message: z.extend(eventMessage, { step_type: z._default(stepType, 'reply') }),
    }),
    /** The classification of the assignment's latest reply, which providers send apart from the reply, in either order. */
    z.object({ ...eventBase, type: z.literal('reply_classified'), response_type: responseType }),
    z.object({
      ...eventBase,
      type: z.literal('forwarded'),
      message: z.extend(eventMessage, { step_type: z._default(stepType, 'reply') }),
    }),
    z.object({ ...eventBase, type: z.literal('bounced') }),
    z.object({ ...eventBase, type: z.literal('unsubscribed') }),
    z.object({ ...eventBase, type: z.literal('completed') }),
    z.object({ ...eventBase, type: z.literal('contact_blocked') }),
  ]))();
export type ProviderEvent = z.infer<typeof providerEvent>;

export const JOB_STATUSES = ['open', 'closed'] as const;

export const jobInput = /* @__PURE__ */ (() =>
  z.object({
    id: nonEmptyText(200),
    domain: nonEmptyText(253),
    title: nonEmptyText(1000),
    url: nonEmptyText(2000),
    first_seen_at: timestamp,
    last_seen_at: timestamp,
    status: z._default(z.enum(JOB_STATUSES), 'open'),
    location: z._default(text(500), ''),
    description: z._default(text(100_000), ''),
  }))();
export type JobInput = z.infer<typeof jobInput>;

export const exclusionInput = /* @__PURE__ */ (() =>
  z.union([
    z.strictObject({ email: z.email().check(z.maxLength(320)) }),
    z.strictObject({ domain: nonEmptyText(2000) }),
  ]))();
export type ExclusionInput = z.infer<typeof exclusionInput>;

// Strict: a misspelled section must fail, not import nothing.
export const importDocument = /* @__PURE__ */ (() =>
  z.strictObject({
    campaigns: z._default(z.array(campaignInput), []),
    accounts: z._default(z.array(accountInput), []),
    contacts: z._default(z.array(contactInput), []),
    assignments: z._default(z.array(assignmentInput), []),
    messages: z._default(z.array(messageInput), []),
    events: z._default(z.array(providerEvent), []),
    jobs: z._default(z.array(jobInput), []),
    exclusions: z._default(z.array(exclusionInput), []),
  }))();
export type ImportDocument = z.infer<typeof importDocument>;
