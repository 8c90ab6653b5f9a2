import PostalMime from 'postal-mime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#domain/api-keys.ts';
import { createOrganization } from '#domain/organizations.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { apiClient } from '../support/api-client.ts';
import { smallDocument } from '../support/fixtures.ts';
import { importFor } from '../support/import.ts';
import { startTestStack } from '../support/local-stack.ts';
import { settle } from '../support/settle.ts';
import { waitFor } from '../support/wait.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * Replies over HTTP against the local stack, delivered for real: outbox →
 * stream relay → mail queue (fauxqs) → mail sender → SMTP sink.
 */

interface Body {
  message?: string;
  [field: string]: unknown;
}

let stack: LocalStack;
/** Only for `settle`'s barrier: replies send no webhooks here. */
let receiver: WebhookReceiver;
let apiKey: string;
let otherKey: string;

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startWebhookReceiver();
  const { orgId } = await createOrganization('Reply Inc');
  ({ apiKey } = await createApiKey(orgId));
  const document = smallDocument();
  (document.contacts as object[]).push({ id: 405, email: 'gone@initech.com' });
  (document.assignments as object[]).push({
    id: 505,
    campaign_id: 102,
    sequence_id: 203,
    contact_id: 405,
    status: 'unsubscribed',
  });
  await importFor(orgId, document);
  const other = await createOrganization('Other Inc');
  ({ apiKey: otherKey } = await createApiKey(other.orgId));
});
afterAll(async () => {
  await stack.stop();
  await receiver.stop();
});

function reply(assignmentId: number | string, body: unknown, key = apiKey) {
  return apiClient(stack, key).post<Body>(`/assignments/${assignmentId}/reply`, body);
}

/** Waits until the sink holds `count` messages (delivery is asynchronous). */
function mailbox(count: number) {
  return waitFor(
    () => {
      expect(stack.smtp.messages.length).toBeGreaterThanOrEqual(count);
      return stack.smtp.messages;
    },
    { what: `${count} messages in the sink` },
  );
}

describe('POST /public/v1/assignments/{id}/reply', () => {
  it('records the reply in the history and delivers a threaded MIME message to the contact', async () => {
    const before = stack.smtp.messages.length;
    const response = await reply(501, { body: 'Thanks Ann!\nThursday at 10?', plain_text: true });
    expect(response).toEqual({ status: 200, body: { success: true } });

    const history = (await apiClient(stack, apiKey).get('/campaigns/101/messages')).body as {
      data: Record<string, unknown>[];
    };
    expect(history.data[0]).toMatchObject({
      assignment_id: 501,
      type: 'sent',
      step_type: 'reply',
      subject: 'Re: Hi',
      body: 'Thanks Ann!<br>Thursday at 10?',
      sender_email: 'rep@seller.com',
      response_type: null,
    });

    const [mail] = (await mailbox(before + 1)).slice(before);
    expect(mail!.from).toBe('rep@seller.com');
    expect(mail!.to).toEqual(['ann@acme.com']);
    const parsed = await PostalMime.parse(mail!.raw);
    expect(parsed.subject).toBe('Re: Hi');
    expect(parsed.html?.trim()).toBe('Thanks Ann!<br>Thursday at 10?');
    expect(parsed.text?.trim()).toBe('Thanks Ann!\nThursday at 10?');
    // The thread's last message is Ann's positive reply (message 603).
    expect(parsed.inReplyTo).toMatch(/^<message-603\.org-\d+@/);
    expect(parsed.references).toBe(parsed.inReplyTo);
    expect(parsed.messageId).toMatch(/^<message-\d+\.org-\d+@/);
  });

  it('sends HTML as given and honours to, cc and bcc', async () => {
    const before = stack.smtp.messages.length;
    const html = '<p>Hello <b>team</b></p>';
    expect(
      (
        await reply(501, {
          body: html,
          to: 'a@acme.com, b@acme.com',
          cc: 'c@acme.com',
          bcc: 'audit@seller.com',
        })
      ).status,
    ).toBe(200);
    const [mail] = (await mailbox(before + 1)).slice(before);
    expect(mail!.to.sort()).toEqual(['a@acme.com', 'audit@seller.com', 'b@acme.com', 'c@acme.com']);
    const parsed = await PostalMime.parse(mail!.raw);
    expect(parsed.to?.map((entry) => entry.address)).toEqual(['a@acme.com', 'b@acme.com']);
    expect(parsed.cc?.map((entry) => entry.address)).toEqual(['c@acme.com']);
    expect(mail!.raw).not.toMatch(/^Bcc:/im);
    expect(parsed.html?.trim()).toBe(html);
  });

  it('retries a failing transport with backoff and then delivers exactly once', async () => {
    const before = stack.smtp.messages.length;
    stack.smtp.failNext(2);
    expect((await reply(501, { body: 'Third time lucky' })).status).toBe(200);
    await mailbox(before + 1);
    // Nothing more arrives: the retried queue message is not sent a second time.
    await settle(stack, receiver);
    const delivered = stack.smtp.messages
      .slice(before)
      .filter((mail) => mail.raw.includes('Third time lucky'));
    expect(delivered).toHaveLength(1);
  });

  it.each([
    ['a missing body', {}, "'body'"],
    ['an empty body', { body: '' }, "'body'"],
    ['a body that is not a string', { body: 42 }, "'body'"],
    ['plain_text that is not a boolean', { body: 'x', plain_text: 'yes' }, "'plain_text'"],
    ['an invalid to', { body: 'x', to: 'not-an-email' }, "'to'"],
    ['one invalid address among several', { body: 'x', cc: 'ok@acme.com, nope' }, "'cc'"],
    ['an address over 320 characters', { body: 'x', bcc: `${'a'.repeat(320)}@x.com` }, "'bcc'"],
    ['an empty bcc', { body: 'x', bcc: ' , ' }, "'bcc'"],
  ])('answers 400 for %s', async (_case, body, field) => {
    const response = await reply(501, body);
    expect(response.status).toBe(400);
    expect(response.body.message).toContain(field);
  });

  it('answers 400 for malformed JSON and an invalid assignment id', async () => {
    expect((await reply(501, '{"body":')).status).toBe(400);
    expect((await reply('abc', { body: 'x' })).status).toBe(400);
    expect((await reply(0, { body: 'x' })).status).toBe(400);
  });

  it('answers 404 for an unknown assignment and for another organization’s', async () => {
    expect(await reply(999_999, { body: 'x' })).toMatchObject({
      status: 404,
      body: { message: 'Assignment 999999 not found' },
    });
    expect((await reply(501, { body: 'x' }, otherKey)).status).toBe(404);
  });

  it('answers 400 when the contact has no email and no to is given', async () => {
    expect((await reply(504, { body: 'x' })).body.message).toContain("'to'");
    expect((await reply(504, { body: 'x', to: 'dee@ray.com' })).status).toBe(200);
  });

  it('replies whatever the assignment’s status, an unsubscribed one included', async () => {
    expect(await reply(505, { body: 'Of course, removed you from the list.' })).toEqual({
      status: 200,
      body: { success: true },
    });
  });
});
