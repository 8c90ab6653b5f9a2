import type { ProviderActivity, ProviderActivityMessage } from '#providers/activity.ts';
import { type ProviderEvent, providerEvent } from '#schemas/import.ts';
import { contacts } from '#store/contacts.ts';
import { allocateId } from '#store/ids.ts';
import type { ProviderConnectionRecord } from '#store/provider-connections.ts';
import { providerMessages } from '#store/provider-messages.ts';
import { findLinkedSequence } from './sequence-links.ts';

/**
 * Which assignment a provider's activity is about, and the provider event it
 * becomes: connection → sequence (its provider campaign's `external_id`) →
 * contact (the lead's email, else its LinkedIn profile URL) → the contact's
 * assignment in that sequence. When a step finds nothing, the activity is
 * unmatched, with the reason, and nothing is recorded.
 */

export type MatchedActivity = { event: ProviderEvent } | { unmatched: string };

const unmatched = (reason: string): MatchedActivity => ({ unmatched: reason });

/** Our id of the provider's message, allocated and claimed on first sight (a retry finds the same). */
async function messageIdFor(
  connection: ProviderConnectionRecord,
  providerMessageId: string,
): Promise<number> {
  const known = await providerMessages.messageIdOf(connection.orgId, connection.provider, providerMessageId);
  if (known !== null) return known;
  return providerMessages.claim(
    connection.orgId,
    connection.provider,
    providerMessageId,
    await allocateId('message'),
  );
}

async function eventMessage(
  connection: ProviderConnectionRecord,
  message: ProviderActivityMessage,
  at: string,
) {
  return {
    ...(message.providerMessageId !== null && {
      id: await messageIdFor(connection, message.providerMessageId),
    }),
    step_type: message.stepType,
    step_index: message.stepIndex,
    variant_index: message.variantIndex,
    subject: message.subject,
    body: message.body,
    sender_email: message.senderEmail,
    created_at: at,
  };
}

/** The contact the lead is, by email first, then by LinkedIn profile URL. */
async function contactOf(orgId: number, lead: ProviderActivity['lead']) {
  if (lead.email) {
    const contact = await contacts.get(orgId, { id: 0, email: lead.email });
    if (contact) return contact;
  }
  if (lead.linkedinUrl) return contacts.findByLinkedinUrl(orgId, lead.linkedinUrl);
  return null;
}

const describeLead = (lead: ProviderActivity['lead']) =>
  [lead.email && `email ${lead.email}`, lead.linkedinUrl && `LinkedIn URL ${lead.linkedinUrl}`]
    .filter(Boolean)
    .join(' or ');

/**
 * The provider event an activity of the connection becomes, or why it
 * matches nothing. `receivedAt` stands in for the time of an activity whose
 * payload gives none.
 */
export async function matchActivity(
  connection: ProviderConnectionRecord,
  activity: ProviderActivity,
  receivedAt: string,
): Promise<MatchedActivity> {
  const { orgId, provider } = connection;
  if (activity.campaignExternalId === null) return unmatched('the payload names no campaign');
  const linked = await findLinkedSequence(orgId, provider, activity.campaignExternalId);
  if (!linked) {
    return unmatched(`no sequence is linked to ${provider} campaign ${activity.campaignExternalId}`);
  }
  if (linked.connectionId !== null && linked.connectionId !== connection.connectionId) {
    return unmatched(
      `${provider} campaign ${activity.campaignExternalId} is linked to connection ${linked.connectionId}, not this one`,
    );
  }
  if (!activity.lead.email && !activity.lead.linkedinUrl) return unmatched('the payload names no lead');
  const contact = await contactOf(orgId, activity.lead);
  if (!contact) return unmatched(`no contact with ${describeLead(activity.lead)}`);
  const sequenceId = linked.sequence.id;
  const assignmentId = contact.sequenceAssignments[String(sequenceId)];
  if (assignmentId === undefined) {
    return unmatched(`contact ${contact.id} has no assignment in sequence ${sequenceId}`);
  }

  const at = activity.at ?? receivedAt;
  const base = { id: activity.eventId, assignment_id: assignmentId, at };
  let candidate: unknown;
  switch (activity.kind) {
    case 'message_sent':
    case 'reply_received': {
      if (!activity.message) return unmatched(`the ${activity.kind} payload carries no message`);
      candidate = {
        ...base,
        type: activity.kind,
        message: await eventMessage(connection, activity.message, at),
        ...(activity.responseType !== undefined && { response_type: activity.responseType }),
      };
      break;
    }
    case 'opened':
    case 'clicked': {
      const messageId = activity.providerMessageId
        ? await providerMessages.messageIdOf(orgId, provider, activity.providerMessageId)
        : null;
      candidate = { ...base, type: activity.kind, ...(messageId !== null && { message_id: messageId }) };
      break;
    }
    case 'reply_classified':
      candidate = { ...base, type: activity.kind, response_type: activity.responseType ?? 'neutral' };
      break;
    default:
      candidate = { ...base, type: activity.kind };
  }
  const parsed = providerEvent.safeParse(candidate);
  if (!parsed.success) {
    return unmatched(`not a valid ${activity.kind} event: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  }
  return { event: parsed.data };
}
