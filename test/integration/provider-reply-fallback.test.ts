import { describe, expect, it } from 'vitest';
import type { AssignmentRecord } from '#domain/assignments.ts';
import type { ProviderReplySender } from '#domain/provider-replies.ts';
import { replyRouteOf } from '#domain/replies.ts';
import { deliverReply } from '#domain/reply-delivery.ts';
import type { Envelope } from '#platform/mail-transport.ts';
import type { ProviderRequest } from '#providers/contract.ts';
import { smartleadClient } from '#providers/smartlead/client.ts';
import { allocateId } from '#store/ids.ts';
import { type MailState, newMessagePut, replyMail } from '#store/messages.ts';
import { transact } from '#store/transactions.ts';

/**
 * A reply that cannot leave in the provider's thread leaves by email, and
 * its mail state says why (`route: {via: 'email', reason}`): decided when the
 * reply is recorded (no reply webhook gave a thread to answer), or found
 * when it is sent (the provider's client or the provider refuses the thread).
 */

const SETTINGS = { defaultFrom: 'rep@seller.example', messageIdDomain: 'mail.seller.example' };

/** A queued reply of org 1 with the given route, straight into the table as replyToAssignment writes it. */
async function queuedReply(route: MailState['route']): Promise<number> {
  const messageId = await allocateId('message');
  await transact([
    newMessagePut(
      1,
      { assignmentId: 501, campaignId: 101, sequenceId: 201 },
      {
        id: messageId,
        type: 'sent',
        step_type: 'reply',
        step_index: null,
        variant_index: null,
        response_type: null,
        subject: 'Re: Month-end close',
        body: 'Tuesday works',
        open_count: 0,
        sender_email: 'tom@northwind-mail.example',
        created_at: new Date().toISOString(),
      },
      {
        mail: {
          from: 'tom@northwind-mail.example',
          to: ['jane.doe@example.com'],
          cc: [],
          bcc: [],
          inReplyTo: null,
          state: 'queued',
          attempts: 0,
          route,
        },
      },
    ),
  ]);
  return messageId;
}

function recordingTransport() {
  const sent: Envelope[] = [];
  return { sent, transport: async (envelope: Envelope) => void sent.push(envelope) };
}

describe('a Smartlead reply without a thread to answer', () => {
  it('leaves by email when the thread lacks the stats id, with the reason on its mail state', async () => {
    // Prepare: a provider route whose thread came from a reply webhook without `stats_id`
    // (the API reference's EMAIL_REPLY example); the real client, over a transport that records.
    const requests: ProviderRequest[] = [];
    const throughSmartlead: ProviderReplySender = (_orgId, route, message) =>
      smartleadClient.reply!(
        async (request) => {
          requests.push(request);
          return { status: 200, retryAfterSeconds: null, body: { success: true } };
        },
        { apiKey: 'key' },
        {
          campaignId: route.externalId,
          lead: { leadId: route.leadId, email: route.leadEmail, linkedinUrl: route.leadLinkedinUrl },
          replyThread: route.replyThread,
        },
        message,
      );
    const messageId = await queuedReply({
      via: 'provider',
      provider: 'smartlead',
      connectionId: 7,
      externalId: '123456',
      leadId: '1482956',
      leadEmail: 'jane.doe@example.com',
      leadLinkedinUrl: null,
      replyThread: { reply_message_id: '<reply@mail.example.com>' },
    });
    const { sent, transport } = recordingTransport();

    // Act
    const outcome = await deliverReply({ orgId: 1, messageId }, transport, SETTINGS, throughSmartlead);

    // Assess: nothing reached Smartlead, the mail went by email, and the route says why.
    expect(outcome).toBe('sent');
    expect(requests).toEqual([]);
    expect(sent).toEqual([
      { from: 'tom@northwind-mail.example', to: ['jane.doe@example.com'], cc: [], bcc: [] },
    ]);
    const reply = await replyMail.getReply(1, messageId);
    expect(reply?.mail).toMatchObject({
      state: 'sent',
      route: {
        via: 'email',
        reason: 'smartlead could not answer in the thread: the reply thread has no email_stats_id to answer',
      },
    });
  });

  it('still retries what may pass later (rate-limited, unavailable): no fallback then', async () => {
    const messageId = await queuedReply({
      via: 'provider',
      provider: 'smartlead',
      connectionId: 7,
      externalId: '123456',
      leadId: '1482956',
      leadEmail: 'jane.doe@example.com',
      leadLinkedinUrl: null,
      replyThread: { email_stats_id: 'a891fe37' },
    });
    const { sent, transport } = recordingTransport();
    const unavailable: ProviderReplySender = (_orgId, route, message) =>
      smartleadClient.reply!(
        async () => ({ status: 503, retryAfterSeconds: null, body: null }),
        { apiKey: 'key' },
        {
          campaignId: route.externalId,
          lead: { leadId: route.leadId, email: route.leadEmail, linkedinUrl: route.leadLinkedinUrl },
          replyThread: route.replyThread,
        },
        message,
      );
    await expect(
      deliverReply({ orgId: 1, messageId }, transport, SETTINGS, unavailable),
    ).rejects.toMatchObject({
      kind: 'unavailable',
    });
    expect(sent).toEqual([]);
    expect((await replyMail.getReply(1, messageId))?.mail).toMatchObject({
      state: 'retrying',
      route: { via: 'provider' },
    });
  });

  it('is routed by email when recorded, with the reason, when no reply webhook gave a thread', () => {
    const enrolled = {
      provider: 'smartlead',
      enrollTarget: { connectionId: 7, externalId: '123456' },
      providerLeadId: '1482956',
      replyThread: null,
      contact: { email: 'jane.doe@example.com' },
    } as unknown as AssignmentRecord;
    expect(replyRouteOf(enrolled)).toEqual({
      via: 'email',
      reason:
        "no smartlead reply webhook gave this lead's thread (Smartlead's names it by the sent email's stats_id)",
    });
    // Not enrolled at a provider: email is the way, not a fallback.
    expect(
      replyRouteOf({ ...enrolled, enrollTarget: null, providerLeadId: null } as AssignmentRecord),
    ).toEqual({
      via: 'email',
    });
    expect(replyRouteOf({ ...enrolled, provider: 'lemlist' } as AssignmentRecord)).toEqual({
      via: 'email',
      reason: "lemlist cannot answer in a lead's thread",
    });
  });
});
