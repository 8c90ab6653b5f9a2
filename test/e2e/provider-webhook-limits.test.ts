import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_TOO_DEEP_MESSAGE } from '#api/http/json-depth.ts';
import { MAX_PROVIDER_WEBHOOK_BYTES } from '#definitions/request-limits.ts';
import { createApiKey } from '#domain/api-keys.ts';
import { createOrganization } from '#domain/organizations.ts';
import { MAX_BODY_LENGTH, truncate } from '#providers/payloads.ts';
import { outboxWrite } from '#store/outbox.ts';
import { transact } from '#store/transactions.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { apiClient, send } from '../support/api-client.ts';
import { importFor } from '../support/import.ts';
import { startTestStack } from '../support/local-stack.ts';
import { emulatedConnection } from '../support/provider-workspace.ts';
import { settle } from '../support/settle.ts';
import { waitFor } from '../support/wait.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * The inbound provider webhook endpoint's bounds, over HTTP against the local
 * stack, its queue and its consumer: a body nested deeper than the API allows
 * is refused (400) before anything would hash it, and a body within the size
 * limit is never a 500, whatever characters it is made of: it is queued and
 * recorded as the same text, or refused with 413 when even so it could not be
 * one queue message.
 */

const CAMPAIGN_ID = 40;
const SEQUENCE_ID = 41;
const SMARTLEAD_CAMPAIGN = '770001';
const LEAD_EMAIL = 'lead@limits.example';
const ASSIGNMENT_ID = 42;

let stack: LocalStack;
let receiver: WebhookReceiver;
let orgId: number;
let apiKey: string;
let webhookUrl: string;

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startWebhookReceiver();
  ({ orgId } = await createOrganization('Webhook Limits Inc'));
  ({ apiKey } = await createApiKey(orgId));
  await importFor(orgId, {
    campaigns: [
      {
        id: CAMPAIGN_ID,
        name: 'Limits',
        sequences: [
          {
            id: SEQUENCE_ID,
            provider: 'smartlead',
            channel: 'email',
            external_id: SMARTLEAD_CAMPAIGN,
            steps: [{ type: 'email', variants: [{ subject: 'Hi', body: 'Hello' }] }],
          },
        ],
      },
    ],
    contacts: [{ id: 43, email: LEAD_EMAIL }],
    assignments: [
      {
        id: ASSIGNMENT_ID,
        campaign_id: CAMPAIGN_ID,
        sequence_id: SEQUENCE_ID,
        contact_id: 43,
        status: 'scheduled',
        approved_at: '2026-01-01T00:00:00.000Z',
      },
    ],
  });
  const connection = await apiClient(stack, apiKey).post(
    '/provider-connections',
    await emulatedConnection(stack, 'smartlead', 'smartlead-key'),
  );
  expect(connection.status).toBe(200);
  webhookUrl = connection.body.webhook_url;
});
afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

const post = (body: string) =>
  send('', { method: 'POST', url: webhookUrl, headers: { 'content-type': 'application/json' }, body });

let replies = 0;
/** What starts each reply's text (and makes its message id), so that its recorded message can be found. */
const nextMarker = () => `reply-${++replies}:`;

/** A Smartlead reply of the lead, its text `marker` then `text`, as the JSON text a provider posts. */
const replyBody = (marker: string, text: string): string =>
  JSON.stringify({
    event_type: 'EMAIL_REPLY',
    campaign_id: Number(SMARTLEAD_CAMPAIGN),
    sl_lead_email: LEAD_EMAIL,
    reply_message: { message_id: `<${marker}@limits.example>`, text: `${marker}${text}` },
  });

/** The body of the reply recorded from the payload `marker` starts, as the API reads it. */
async function recordedReply(marker: string): Promise<string> {
  return (await recordedReplies([marker]))[0]!;
}

/** The recorded replies that start with each marker, in the markers' order, once every one is recorded. */
async function recordedReplies(markers: readonly string[]): Promise<string[]> {
  return waitFor(
    async () => {
      const bodies: (string | null)[] = [];
      for (let skip = 0; ; skip += 100) {
        const page = await apiClient(stack, apiKey).get(
          `/campaigns/${CAMPAIGN_ID}/messages?skip=${skip}&take=100`,
        );
        expect(page.status).toBe(200);
        bodies.push(...(page.body.data as { body: string | null }[]).map((message) => message.body));
        if (page.body.data.length < 100) break;
      }
      return markers.map((marker) => {
        const found = bodies.find((body) => body?.startsWith(marker));
        expect(found, `the reply ${marker}`).toBeDefined();
        return found!;
      });
    },
    { what: `the replies ${markers.join(', ')} recorded`, intervalMs: 250 },
  );
}

describe('the inbound provider webhook endpoint', () => {
  it('refuses a body nested deeper than the API allows with 400, before queueing it', async () => {
    // 100,000 levels in 200,000 bytes: within the size limit.
    const levels = 100_000;
    const deep = `${'['.repeat(levels)}${']'.repeat(levels)}`;
    const answer = await post(`${replyBody(nextMarker(), 'deep').slice(0, -1)},"data":${deep}}`);
    expect(answer.status, answer.text.slice(0, 200)).toBe(400);
    expect(JSON.parse(answer.text)).toMatchObject({ message: JSON_TOO_DEEP_MESSAGE });
  });

  it('queues 255,000 × U+007F (255 KB) and records the reply as the same text', async () => {
    const text = '\u007f'.repeat(255_000);
    const marker = nextMarker();
    const body = replyBody(marker, text);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_PROVIDER_WEBHOOK_BYTES);
    const answer = await post(body);
    expect(answer.status, answer.text.slice(0, 200)).toBe(200);
    expect(await recordedReply(marker)).toBe(truncate(`${marker}${text}`, MAX_BODY_LENGTH));
  });

  it('never answers 500 to a body just under the limit, whatever code points it is made of', async () => {
    /** Any code point (a lone surrogate included: JSON writes it as an escape). */
    const codePoint = fc.integer({ min: 0, max: 0x10ffff }).map((code) => String.fromCodePoint(code));
    const unit = fc.oneof(
      codePoint,
      fc.array(codePoint, { minLength: 2, maxLength: 4 }).map((points) => points.join('')),
      fc.constantFrom('\u007f', '\uffff', '\ufffe', '\u0000', '\ud800', '\u{10ffff}', '\u{1f600}', 'é'),
    );
    // Posted one after another, then awaited together: the consumer records them side by side, so a
    // run's cost is its post, not a wait for its own reply.
    const queued: { filler: string; marker: string; text: string }[] = [];
    await fc.assert(
      fc.asyncProperty(unit, async (filler) => {
        // As many times as the body stays within MAX_PROVIDER_WEBHOOK_BYTES: within one filler of it.
        const marker = nextMarker();
        const overhead = Buffer.byteLength(replyBody(marker, ''));
        const fillerBytes = Buffer.byteLength(JSON.stringify(filler)) - 2;
        const text = filler.repeat(Math.floor((MAX_PROVIDER_WEBHOOK_BYTES - overhead) / fillerBytes));
        const body = replyBody(marker, text);
        expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_PROVIDER_WEBHOOK_BYTES);
        const answer = await post(body);
        expect([200, 413], `${JSON.stringify(filler)} → ${answer.status} ${answer.text}`).toContain(
          answer.status,
        );
        if (answer.status === 200) queued.push({ filler, marker, text });
      }),
      { numRuns: 20 },
    );
    const replies = await recordedReplies(queued.map((entry) => entry.marker));
    const recorded = queued.map(({ filler, marker, text }, index) => ({
      filler: JSON.stringify(filler),
      same: replies[index] === truncate(`${marker}${text}`, MAX_BODY_LENGTH),
    }));
    expect(recorded.filter((entry) => !entry.same)).toEqual([]);
    // Waiting for the replies takes minutes on a loaded machine, which only makes it slower.
  }, 900_000);
});

describe('the other producers', () => {
  it('relay an outbox item whatever its text: a character SQS refuses does not hold the stream', async () => {
    // No domain the service normalizes holds one, but the outbox takes any JSON: U+FFFF made the relay fail
    // this record again and again, and nothing written after it reached a queue.
    await transact([
      outboxWrite(orgId, 'enrollment', { kind: 'stop-domain', orgId, domain: 'x\uffff.example' }),
    ]);
    await settle(stack, receiver);
  });
});
