import type { SQSRecord } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { getAssignment } from '#domain/assignments.ts';
import { createOrganization } from '#domain/organizations.ts';
import { unmatchedProviderEvents } from '#store/unmatched-provider-events.ts';
import { handler } from '../../functions/provider-event-consumer/handler.ts';
import { injectDynamoFaults } from '../support/dynamo-faults.ts';
import { importFor } from '../support/import.ts';
import { connectAtEmulator } from '../support/provider-workspace.ts';

/**
 * The provider events queue's consumer, invoked as Lambda does with a batch:
 * a record that fails for a reason of ours (here the table refusing a write)
 * is reported alone as a batch item failure, the others are done; when the
 * queue hands the failed one back (with a done one, as SQS may), the done one
 * is a duplicate and the failed one is recorded once.
 */

let orgId: number;
let connectionId: number;

const SMARTLEAD_CAMPAIGN = '5001';

beforeAll(async () => {
  ({ orgId } = await createOrganization('Consumer Inc'));
  await importFor(orgId, {
    campaigns: [
      {
        id: 11,
        name: 'Consumer campaign',
        sequences: [
          {
            id: 21,
            provider: 'smartlead',
            channel: 'email',
            external_id: SMARTLEAD_CAMPAIGN,
            steps: [{ type: 'email', variants: [{ subject: 'Hi', body: 'Hello' }] }],
          },
        ],
      },
    ],
    contacts: [
      { id: 31, email: 'ann@acme.com' },
      { id: 32, email: 'bob@acme.com' },
    ],
    assignments: [
      { id: 501, campaign_id: 11, sequence_id: 21, contact_id: 31, status: 'scheduled' },
      { id: 502, campaign_id: 11, sequence_id: 21, contact_id: 32, status: 'scheduled' },
    ],
  });
  ({ connectionId } = await connectAtEmulator(orgId, 'smartlead', 'sl-key'));
});

/** A Smartlead EMAIL_SENT to `email`, its row id `statsId`, as the inbound endpoint queues it. */
function queued(messageId: string, email: string, statsId: string, receiveCount = 1): SQSRecord {
  const body = JSON.stringify({
    event_type: 'EMAIL_SENT',
    campaign_id: Number(SMARTLEAD_CAMPAIGN),
    to_email: email,
    stats_id: statsId,
    sequence_number: 1,
    subject: 'Hi',
    sent_message: { message_id: `<${statsId}@mail>`, text: 'Hello', time: '2026-04-10T09:00:00.000Z' },
    event_timestamp: '2026-04-10T09:00:00.000Z',
  });
  return queuedBody(messageId, body, receiveCount);
}

/** `body` as the inbound endpoint queues it for the Smartlead connection. */
function queuedBody(messageId: string, body: string, receiveCount = 1): SQSRecord {
  const attributes = {
    orgId: String(orgId),
    connectionId: String(connectionId),
    provider: 'smartlead',
    receivedAt: new Date().toISOString(),
  };
  return {
    messageId,
    receiptHandle: `receipt-${messageId}`,
    body,
    attributes: {
      ApproximateReceiveCount: String(receiveCount),
      SentTimestamp: String(Date.now()),
      SenderId: 'test',
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: Object.fromEntries(
      Object.entries(attributes).map(([name, value]) => [
        name,
        { stringValue: value, dataType: 'String', stringListValues: [], binaryListValues: [] },
      ]),
    ),
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:local:000000000000:provider-events',
    awsRegion: 'local',
  };
}

describe('the provider events consumer', () => {
  it('reports only the record that failed mid-batch, and records it once when it comes back', async () => {
    const before = await Promise.all([getAssignment(orgId, 501), getAssignment(orgId, 502)]);
    const first = queued('m1', 'ann@acme.com', 'stats-ann-1');
    const second = queued('m2', 'BOB@acme.com', 'stats-bob-1');
    // The second record's transaction fails every attempt: the table is unreachable for it.
    const faults = injectDynamoFaults((attempt) =>
      attempt.command === 'TransactWriteItems' && attempt.callOfCommand === 2
        ? {
            before: Object.assign(new Error('Service unavailable'), {
              name: 'ServiceUnavailable',
              $fault: 'server',
            }),
          }
        : undefined,
    );
    let response: Awaited<ReturnType<typeof handler>>;
    try {
      response = await handler({ Records: [first, second] });
    } finally {
      faults.remove();
    }
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm2' }] });
    const afterFailure = await Promise.all([getAssignment(orgId, 501), getAssignment(orgId, 502)]);
    expect(afterFailure[0]!.sentCount).toBe(before[0]!.sentCount + 1);
    expect(afterFailure[1]!.sentCount).toBe(before[1]!.sentCount);

    // The queue hands the failed record back, and the done one with it.
    const again = await handler({
      Records: [
        queued('m1', 'ann@acme.com', 'stats-ann-1', 2),
        queued('m2', 'BOB@acme.com', 'stats-bob-1', 2),
      ],
    });
    expect(again).toEqual({ batchItemFailures: [] });
    const done = await Promise.all([getAssignment(orgId, 501), getAssignment(orgId, 502)]);
    expect(done[0]!.sentCount).toBe(before[0]!.sentCount + 1);
    expect(done[1]!.sentCount).toBe(before[1]!.sentCount + 1);
  });

  it('drops a message the inbound endpoint never wrote (no attributes), without failing the batch', async () => {
    const stray = { ...queued('m3', 'ann@acme.com', 'x'), messageAttributes: {} };
    expect(await handler({ Records: [stray] })).toEqual({ batchItemFailures: [] });
  });

  it('keeps an event of a lead the organization does not have as unmatched, with the reason', async () => {
    expect(await handler({ Records: [queued('m4', 'nobody@nowhere.example', 'stats-x')] })).toEqual({
      batchItemFailures: [],
    });
    const page = await unmatchedProviderEvents.list(orgId, connectionId, { take: 10 });
    expect(page.records).toContainEqual(
      expect.objectContaining({
        eventType: 'EMAIL_SENT',
        kind: 'message_sent',
        reason: 'no contact with email nobody@nowhere.example',
        leadEmail: 'nobody@nowhere.example',
        campaignExternalId: SMARTLEAD_CAMPAIGN,
      }),
    );
  });

  it('keeps a payload nested 100,000 levels deep as unmatched, with the reason, rather than failing it', async () => {
    // Without ids of its own, so its event id is the hash of the whole payload.
    const levels = 100_000;
    const body = `{"event_type":"EMAIL_SENT","campaign_id":${SMARTLEAD_CAMPAIGN},"to_email":"deep@nowhere.example","data":${'['.repeat(levels)}${']'.repeat(levels)}}`;
    expect(await handler({ Records: [queuedBody('m5', body)] })).toEqual({ batchItemFailures: [] });
    const page = await unmatchedProviderEvents.list(orgId, connectionId, { take: 10 });
    expect(page.records).toContainEqual(
      expect.objectContaining({
        eventType: 'EMAIL_SENT',
        kind: 'message_sent',
        reason: 'no contact with email deep@nowhere.example',
        eventId: expect.stringMatching(/^smartlead:sha256:[0-9a-f]{64}$/),
      }),
    );
  });
});
