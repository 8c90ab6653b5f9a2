import * as z from 'zod/mini';
import { ENROLLMENT_STATUSES } from '#definitions/item-fields.ts';
import { provider } from '#schemas/import.ts';
import { assignmentStatus, channel, responseType } from '#schemas/resources.ts';
import { snippetVariablesOf } from '#store/item-transforms.ts';
import { contactFieldsItem } from './contacts.ts';

// The item schemas of assignments.ts: what its store reads (and checks) items with.

const optionalText = z._default(z.nullable(z.string()), null);

const enrollmentItem = z.object({
  status: z.enum(ENROLLMENT_STATUSES),
  error: z._default(z.nullable(z.string()), null),
  updatedAt: z.string(),
});

export type EnrollmentState = z.infer<typeof enrollmentItem>;

const enrollTargetItem = z.object({ connectionId: z.number(), externalId: z.string() });

export type EnrollTarget = z.infer<typeof enrollTargetItem>;

export const assignmentItem = z.object({
  orgId: z.number(),
  assignmentId: z.number(),
  campaignId: z.number(),
  sequenceId: z.number(),
  channel,
  provider,
  contact: contactFieldsItem,
  status: assignmentStatus,
  createdAt: z.string(),
  approvedAt: optionalText,
  sequencedAt: optionalText,
  completedAt: optionalText,
  bouncedAt: optionalText,
  unsubscribedAt: optionalText,
  /** A Map, so that names like `constructor` are names, never a prototype lookup. */
  variables: z.pipe(z.optional(z.record(z.string(), z.string())), z.transform(snippetVariablesOf)),
  sentCount: z._default(z.number(), 0),
  openCount: z._default(z.number(), 0),
  clickCount: z._default(z.number(), 0),
  contactBlocked: z._default(z.boolean(), false),
  /** Whether a received message of the assignment has ever been classified positive (items older than it: false). */
  positiveReplied: z._default(z.boolean(), false),
  /** The mailbox that last wrote to the contact, and that message (for reply threading). */
  lastSenderEmail: optionalText,
  lastMessageId: z._default(z.nullable(z.number()), null),
  lastMessageAt: optionalText,
  /** The newest subject in the thread (replies answer it). */
  lastSubject: optionalText,
  /** The message the latest `reply_received` recorded: a `reply_classified` sets its response type. */
  lastReceivedMessageId: z._default(z.nullable(z.number()), null),
  /** A classification that arrived before any reply: the next reply without its own response type takes it. */
  pendingResponseType: z._default(z.nullable(responseType), null),
  /**
   * Enrollment at the provider (docs/providers.md#enrollment): absent for an assignment whose
   * sequence had no connected provider campaign when it was scheduled.
   */
  enrollment: z._default(z.nullable(enrollmentItem), null),
  /** The provider campaign the assignment is enrolled in (or on its way to), on which connection. */
  enrollTarget: z._default(z.nullable(enrollTargetItem), null),
  /** The provider's id of the lead: the proof of enrollment, so that a retry never adds it twice. */
  providerLeadId: optionalText,
  /** Set before an add request is sent: a later attempt asks the provider first (the request may have reached it). */
  enrollAttemptedAt: optionalText,
  /** What the provider needs to answer the contact in its thread, from the latest reply its webhook reported. */
  replyThread: z._default(z.nullable(z.record(z.string(), z.string())), null),
  version: z._default(z.number(), 0),
});

export type AssignmentRecord = z.infer<typeof assignmentItem>;
