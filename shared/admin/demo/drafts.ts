import type * as z from 'zod/mini';
import type {
  accountInput,
  campaignInput,
  contactInput,
  importDocument,
  jobInput,
  messageInput,
  providerEvent,
  SequenceInput,
} from '#schemas/import.ts';
import type { AssignmentStatus } from '#schemas/resources.ts';

/**
 * The shapes the demo builders share: the import document's sections as they
 * are written in a file, and the drafts of assignments, messages and events,
 * which get their ids once the whole history is laid out.
 */

/** The import document as it is written in a file (before defaults and canonical timestamps). */
export type ImportDocumentInput = z.input<typeof importDocument>;

export type CampaignDraft = z.input<typeof campaignInput>;
export type AccountDraft = z.input<typeof accountInput>;
export type ContactDraft = z.input<typeof contactInput>;
export type JobDraft = z.input<typeof jobInput>;
export type EventInput = z.input<typeof providerEvent>;
type MessageFields = Omit<z.input<typeof messageInput>, 'id' | 'assignment_id'>;

/** A message; its id is given at the end, in time order. */
export interface DraftMessage extends MessageFields {
  id: number;
  assignment: DraftAssignment;
}

/** An event, built once every id is known; `message` is the message it carries, if any. */
export interface DraftEvent {
  at: number;
  build: (eventId: string) => EventInput;
  message?: DraftMessage;
}

export interface DraftAssignment {
  id: number;
  campaignId: number;
  sequence: SequenceInput;
  contact: ContactDraft;
  /** Where the assignment ends up, after its events. */
  story: AssignmentStatus;
  /** Its status in the file, before its events. */
  status: AssignmentStatus;
  createdAt: number;
  approvedAt?: number;
  sequencedAt?: number;
  completedAt?: number;
  bouncedAt?: number;
  unsubscribedAt?: number;
  variables: Record<string, string>;
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export const iso = (ms: number) => new Date(ms).toISOString();
export const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-');
export const fill = (text: string, values: Record<string, string>) =>
  // Own members only: `{{constructor}}` must stay as written, not become Object's constructor.
  text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? values[name]! : whole,
  );
