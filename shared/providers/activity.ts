import type { STEP_TYPES } from '#schemas/import.ts';
import type { RESPONSE_TYPES } from '#schemas/resources.ts';

type StepType = (typeof STEP_TYPES)[number];
type ResponseType = (typeof RESPONSE_TYPES)[number];

/**
 * What a provider's webhook reports about one lead of one of its campaigns,
 * in the service's terms, whatever the provider: the adapters of
 * shared/providers/<provider>/webhooks.ts  map each provider's native payload to these,
 * and the consumer matches them to an assignment (connection → sequence by
 * `campaignExternalId` → contact by `lead` → assignment) and records them as
 * provider events.
 */

/** The provider events an activity becomes (docs/providers.md). */
export const PROVIDER_ACTIVITY_KINDS = [
  'message_sent',
  'opened',
  'clicked',
  'reply_received',
  'reply_classified',
  'bounced',
  'unsubscribed',
  'completed',
] as const;
export type ProviderActivityKind = (typeof PROVIDER_ACTIVITY_KINDS)[number];

/** A message the provider sent or received, as far as its payload tells. */
export interface ProviderActivityMessage {
  /** The provider's id of the message, when it has one: opens and clicks name it later. */
  providerMessageId: string | null;
  stepType: StepType;
  /** 0-based step of the sequence (providers number theirs from 1). */
  stepIndex: number | null;
  /** 0-based A/B variant. */
  variantIndex: number | null;
  subject: string | null;
  body: string | null;
  senderEmail: string | null;
}

export interface ProviderActivity {
  kind: ProviderActivityKind;
  /**
   * Unique per real-world event and the same when the provider sends it
   * again: built from the provider's own ids, or a hash of the canonical
   * payload where it has none. Prefixed with the provider's name.
   */
  eventId: string;
  /** The provider's campaign id (a sequence's `external_id`), as a string; null when the payload has none. */
  campaignExternalId: string | null;
  /** Who it is about: the lead's email (lower-cased) and/or LinkedIn profile URL (as sent). */
  lead: { email: string | null; linkedinUrl: string | null };
  /** When it happened (ISO 8601), when the payload says. */
  at: string | null;
  /** message_sent and reply_received: the message. */
  message?: ProviderActivityMessage;
  /** opened and clicked: the provider's id of the message opened or clicked, when the payload names it. */
  providerMessageId?: string | null;
  /** reply_received (when the provider classifies at once) and reply_classified. */
  responseType?: ResponseType;
  /**
   * reply_received: what the provider needs to answer the lead in this thread (Instantly's
   * `reply_to_uuid` and `eaccount`, Smartlead's `email_stats_id` and `reply_message_id`, HeyReach's
   * `conversationId` and `linkedInAccountId`), as the provider's client reads it
   * (shared/providers/<provider>/client.ts). Absent when the payload lacks it.
   */
  replyThread?: Readonly<Record<string, string>>;
}

/** What mapping one native payload gave: activities, or why the payload holds none the service records. */
export type MappedPayload =
  | { activities: ProviderActivity[] }
  | {
      /** An event type the service does not record (docs/providers.md lists them), or a payload without a lead. */
      ignored: string;
    };
