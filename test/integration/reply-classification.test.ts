import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { listCampaignMessages } from '#domain/messages.ts';
import { createOrganization } from '#domain/organizations.ts';
import { recordProviderEvent } from '#domain/provider-events.ts';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { type ProviderEvent, providerEvent } from '#schemas/import.ts';
import type { AssignmentStatus } from '#schemas/resources.ts';
import { campaigns } from '#store/campaigns.ts';
import { keys } from '#store/keys.ts';
import { importFor } from '../support/import.ts';
import { maintainedAndRecomputed, readRawOrganization } from '../support/recompute.ts';
import { countRequests } from '../support/request-counter.ts';

/*
 * Replies and their classification (`reply_classified`), which providers send
 * apart and in either order, through the one write path (recordProviderEvent).
 * Each test imports its own small organization:
 *
 *   campaign 101: sequence 201 (smartlead, email)
 *   contacts 401 (ann@acme.com), 402 (bob@globex.io)
 *
 * Webhook events are read where the write path leaves them: the outbox items
 * of the organization (this file's table is its own, so a Scan of it is small).
 */

type Item = Record<string, unknown>;

const AT = '2026-05-01T10:00:00.000Z';

async function prepare(
  assignments: { id: number; contact?: number; status: AssignmentStatus }[],
  extra: { events?: unknown[]; emitEvents?: boolean } = {},
): Promise<number> {
  const { orgId } = await createOrganization('Replies Inc');
  await importFor(
    orgId,
    {
      campaigns: [
        {
          id: 101,
          name: 'Fintech CFOs',
          created_at: '2026-04-01T09:00:00.000Z',
          sequences: [{ id: 201, provider: 'smartlead', channel: 'email', steps: [] }],
        },
      ],
      contacts: [
        { id: 401, email: 'ann@acme.com', first_name: 'Ann' },
        { id: 402, email: 'bob@globex.io', first_name: 'Bob' },
      ],
      assignments: assignments.map(({ id, contact = 401, status }) => ({
        id,
        campaign_id: 101,
        sequence_id: 201,
        contact_id: contact,
        status,
        created_at: '2026-04-10T00:00:00.000Z',
      })),
      events: extra.events ?? [],
    },
    { emitEvents: extra.emitEvents ?? false },
  );
  return orgId;
}

const event = (raw: Item): ProviderEvent => providerEvent.parse({ at: AT, ...raw });

/** A reply; without `response_type` unless given. */
const reply = (id: string, messageId: number, fields: Item = {}, assignmentId = 501) =>
  event({
    id,
    assignment_id: assignmentId,
    type: 'reply_received',
    message: { id: messageId, body: `Reply ${messageId}` },
    ...fields,
  });

const classified = (id: string, responseType: string, assignmentId = 501) =>
  event({ id, assignment_id: assignmentId, type: 'reply_classified', response_type: responseType });

const getItem = async (key: Record<string, string>): Promise<Item | undefined> =>
  (await dynamo.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

const assignmentOf = async (orgId: number, assignmentId = 501) =>
  (await getItem(keys.assignment(orgId, assignmentId)))!;

const responseTypeOf = async (orgId: number, messageId: number) =>
  (await getItem(keys.message(orgId, messageId)))?.responseType;

/** The organization's outbox items (its webhook events, as the relay would read them). */
async function outboxOf(orgId: number): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: 'begins_with(pk, :prefix)',
        ExpressionAttributeValues: { ':prefix': keys.outbox(orgId, '').pk },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** The payloads of the organization's Positive Reply events. */
const positiveReplies = async (orgId: number) =>
  (await outboxOf(orgId))
    .filter((item) => item.eventType === 'positive_reply')
    .map((item) => JSON.parse(item.body as string) as { data: { message: Item; assignment_id: number } });

/** Campaign 101's contacts with a positive reply, as the dashboard reads them (the item and its shards). */
const positiveRepliedOf = async (orgId: number) =>
  (await campaigns.get(orgId, 101, { consistent: true }))!.statPositiveReplied;

/** The maintained counters equal their recomputation from the raw items. */
async function expectCountersRecomputed(orgId: number) {
  const { stored, recomputed } = await maintainedAndRecomputed(orgId);
  expect(stored).toEqual(recomputed);
}

/** What a classification could touch: every item the recomputation reads, and the outbox. */
const everything = async (orgId: number) => ({
  organization: await readRawOrganization(orgId),
  outbox: (await outboxOf(orgId)).map((item) => item.pk).sort(),
});

describe('reply classification', () => {
  it('announces one Positive Reply when the classification lands after the reply, which is neutral until then', async () => {
    // Prepare
    const orgId = await prepare([{ id: 501, status: 'in-progress' }]);
    await recordProviderEvent(orgId, reply('sl-reply-1', 9001));
    const beforeClassification = await listCampaignMessages(orgId, 101, 0, 10);
    const announcedBefore = await positiveReplies(orgId);
    const countedBefore = await positiveRepliedOf(orgId);

    // Act
    const outcome = await recordProviderEvent(orgId, classified('sl-category-1', 'positive'));

    // Assess
    expect(outcome.outcome).toBe('applied');
    expect(beforeClassification).toMatchObject([{ id: 9001, type: 'received', response_type: 'neutral' }]);
    expect(announcedBefore).toEqual([]);
    expect(await listCampaignMessages(orgId, 101, 0, 10)).toMatchObject([
      { id: 9001, response_type: 'positive' },
    ]);
    const announced = await positiveReplies(orgId);
    expect(announced).toHaveLength(1);
    expect(announced[0]!.data).toMatchObject({
      assignment_id: 501,
      message: { id: 9001, type: 'received', response_type: 'positive', body: 'Reply 9001' },
    });
    expect(await assignmentOf(orgId)).toMatchObject({
      status: 'replied',
      lastReceivedMessageId: 9001,
      positiveReplied: true,
    });
    expect(countedBefore).toBe(0);
    expect(await positiveRepliedOf(orgId)).toBe(1);
    await expectCountersRecomputed(orgId);
  });

  it('keeps a classification that arrives first for the reply, which is announced once when it lands', async () => {
    // Prepare
    const orgId = await prepare([{ id: 501, status: 'in-progress' }]);

    // Act
    await recordProviderEvent(orgId, classified('inst-interested-1', 'positive'));
    const pending = await assignmentOf(orgId);
    const announcedBeforeReply = await positiveReplies(orgId);
    await recordProviderEvent(orgId, reply('inst-reply-1', 9001));

    // Assess
    expect(pending).toMatchObject({ status: 'in-progress', pendingResponseType: 'positive' });
    expect(announcedBeforeReply).toEqual([]);
    expect(await responseTypeOf(orgId, 9001)).toBe('positive');
    const assignment = await assignmentOf(orgId);
    expect(assignment.pendingResponseType).toBeUndefined();
    expect(assignment).toMatchObject({ status: 'replied', lastReceivedMessageId: 9001 });
    const announced = await positiveReplies(orgId);
    expect(announced).toHaveLength(1);
    expect(announced[0]!.data.message).toMatchObject({ id: 9001, response_type: 'positive' });
    expect(pending.positiveReplied).toBeUndefined();
    expect(assignment.positiveReplied).toBe(true);
    expect(await positiveRepliedOf(orgId)).toBe(1);
    await expectCountersRecomputed(orgId);
  });

  it('announces nothing more for a second positive classification, nor after positive, negative, positive', async () => {
    // Prepare
    const orgId = await prepare([{ id: 501, status: 'in-progress' }]);
    await recordProviderEvent(orgId, reply('reply-1', 9001));
    await recordProviderEvent(orgId, classified('category-1', 'positive'));

    // Act
    const again = await recordProviderEvent(orgId, classified('category-2', 'positive'));
    const afterSecondPositive = await positiveRepliedOf(orgId);
    await recordProviderEvent(orgId, classified('category-3', 'negative'));
    const afterNegative = await responseTypeOf(orgId, 9001);
    const countedAfterNegative = await positiveRepliedOf(orgId);
    await expectCountersRecomputed(orgId);
    await recordProviderEvent(orgId, classified('category-4', 'positive'));

    // Assess
    expect(again.outcome).toBe('applied');
    expect(afterNegative).toBe('negative');
    expect(await responseTypeOf(orgId, 9001)).toBe('positive');
    expect(await positiveReplies(orgId)).toHaveLength(1);
    // Counted once, and for good: as the Positive Reply is announced.
    expect([afterSecondPositive, countedAfterNegative, await positiveRepliedOf(orgId)]).toEqual([1, 1, 1]);
    await expectCountersRecomputed(orgId);
  });

  it('changes nothing on a replayed classification', async () => {
    // Prepare
    const orgId = await prepare([{ id: 501, status: 'in-progress' }]);
    await recordProviderEvent(orgId, reply('reply-1', 9001));
    const positive = classified('category-1', 'positive');
    await recordProviderEvent(orgId, positive);
    const before = await everything(orgId);

    // Act
    const replayed = await recordProviderEvent(orgId, positive);
    const replayedLater = await recordProviderEvent(orgId, { ...positive, at: '2026-06-01T00:00:00.000Z' });

    // Assess
    expect([replayed.outcome, replayedLater.outcome]).toEqual(['duplicate', 'duplicate']);
    expect(await everything(orgId)).toEqual(before);
  });

  it('sets a non-positive classification without announcing anything', async () => {
    // Prepare
    const orgId = await prepare([{ id: 501, status: 'in-progress' }]);
    await recordProviderEvent(orgId, reply('reply-1', 9001));
    const versionBefore = Number((await assignmentOf(orgId)).version);

    // Act
    await recordProviderEvent(orgId, classified('category-1', 'out_of_office'));

    // Assess
    expect(await responseTypeOf(orgId, 9001)).toBe('out_of_office');
    expect(await positiveReplies(orgId)).toEqual([]);
    expect(await assignmentOf(orgId)).toMatchObject({ status: 'replied', version: versionBefore + 1 });
  });

  it.each([
    { where: 'the event', fields: { response_type: 'not_interested' } },
    {
      where: 'its message',
      fields: { message: { id: 9001, body: 'Reply 9001', response_type: 'not_interested' } },
    },
  ])(
    'lets a reply with its own response type (on $where) override a pending classification, which it clears',
    async ({ fields }) => {
      // Prepare
      const orgId = await prepare([{ id: 501, status: 'in-progress' }]);
      await recordProviderEvent(orgId, classified('category-1', 'positive'));

      // Act
      await recordProviderEvent(orgId, reply('reply-1', 9001, fields));
      await recordProviderEvent(orgId, reply('reply-2', 9002));

      // Assess
      expect(await responseTypeOf(orgId, 9001)).toBe('not_interested');
      expect(await responseTypeOf(orgId, 9002)).toBe('neutral');
      expect((await assignmentOf(orgId)).pendingResponseType).toBeUndefined();
      expect(await positiveReplies(orgId)).toEqual([]);
      expect(await positiveRepliedOf(orgId)).toBe(0);
    },
  );

  it('classifies the latest reply only, and only the assignment’s own', async () => {
    // Prepare
    const orgId = await prepare([
      { id: 501, status: 'in-progress' },
      { id: 502, contact: 402, status: 'in-progress' },
    ]);
    await recordProviderEvent(orgId, reply('reply-1', 9001));
    await recordProviderEvent(orgId, reply('reply-2', 9002));
    await recordProviderEvent(orgId, reply('reply-3', 9003, {}, 502));

    // Act
    await recordProviderEvent(orgId, classified('category-1', 'positive'));

    // Assess
    expect(await responseTypeOf(orgId, 9001)).toBe('neutral');
    expect(await responseTypeOf(orgId, 9002)).toBe('positive');
    expect(await responseTypeOf(orgId, 9003)).toBe('neutral');
    expect((await positiveReplies(orgId)).map((payload) => payload.data.message.id)).toEqual([9002]);
    expect((await assignmentOf(orgId, 502)).positiveReplied).toBeUndefined();
    expect(await positiveRepliedOf(orgId)).toBe(1);
    await expectCountersRecomputed(orgId);
  });

  it.each<AssignmentStatus>([
    'pending-approval',
    'scheduled',
    'in-progress',
    'completed',
    'replied',
    'bounced',
    'unsubscribed',
  ])(
    'records a classification of a %s assignment without changing its status or any counter',
    async (status) => {
      // Prepare
      const orgId = await prepare([{ id: 501, status }]);
      const before = await readRawOrganization(orgId);

      // Act
      const outcome = await recordProviderEvent(orgId, classified('category-1', 'negative'));

      // Assess
      expect(outcome.outcome).toBe('applied');
      const after = await readRawOrganization(orgId);
      expect(after.campaigns).toEqual(before.campaigns);
      expect(after.campaignShards).toEqual(before.campaignShards);
      expect(after.analytics).toEqual(before.analytics);
      expect(after.analyticsShards).toEqual(before.analyticsShards);
      expect(after.contacts).toEqual(before.contacts);
      expect(await assignmentOf(orgId)).toMatchObject({ status, pendingResponseType: 'negative' });
      await expectCountersRecomputed(orgId);
    },
  );

  it('applies replies and classifications racing on one assignment exactly once each, announcing once', async () => {
    // Prepare
    const orgId = await prepare([{ id: 501, status: 'in-progress' }]);

    // Act
    const outcomes = await Promise.all([
      recordProviderEvent(orgId, reply('reply-1', 9001)),
      recordProviderEvent(orgId, classified('category-1', 'positive')),
      recordProviderEvent(orgId, classified('category-2', 'positive')),
    ]);

    // Assess
    expect(outcomes.map((recorded) => recorded.outcome)).toEqual(['applied', 'applied', 'applied']);
    expect(await responseTypeOf(orgId, 9001)).toBe('positive');
    expect(await positiveReplies(orgId)).toHaveLength(1);
    await expectCountersRecomputed(orgId);
  });

  it('imports replies and their classifications in either order', async () => {
    // Prepare / Act
    const orgId = await prepare(
      [
        { id: 501, status: 'in-progress' },
        { id: 502, contact: 402, status: 'in-progress' },
      ],
      {
        emitEvents: true,
        events: [
          { id: 'r-1', assignment_id: 501, type: 'reply_received', message: { id: 9001, body: 'Yes' } },
          { id: 'c-1', assignment_id: 501, type: 'reply_classified', response_type: 'positive' },
          { id: 'c-2', assignment_id: 502, type: 'reply_classified', response_type: 'positive' },
          { id: 'r-2', assignment_id: 502, type: 'reply_received', message: { id: 9002, body: 'Sure' } },
        ],
      },
    );

    // Assess
    expect(await responseTypeOf(orgId, 9001)).toBe('positive');
    expect(await responseTypeOf(orgId, 9002)).toBe('positive');
    const announced = (await positiveReplies(orgId)).map((payload) => payload.data.message.id);
    expect(announced.sort()).toEqual([9001, 9002]);
    expect(await positiveRepliedOf(orgId)).toBe(2);
    await expectCountersRecomputed(orgId);
  });

  it.each([
    {
      variant: 'with a reply: plus the read of the reply',
      replied: true,
      requests: { BatchGetItem: 1, GetItem: 1, TransactWriteItems: 1 },
    },
    { variant: 'before any reply', replied: false, requests: { BatchGetItem: 1, TransactWriteItems: 1 } },
  ])('makes the bounded number of requests for a classification $variant', async ({ replied, requests }) => {
    // Prepare
    const orgId = await prepare([{ id: 501, status: 'in-progress' }]);
    if (replied) await recordProviderEvent(orgId, reply('reply-1', 9001));
    const counted = classified('counted', 'positive');

    // Act
    const first = await countRequests(() => recordProviderEvent(orgId, counted));
    const replay = await countRequests(() => recordProviderEvent(orgId, counted));

    // Assess
    expect(first.result.outcome).toBe('applied');
    expect(first.byCommand).toEqual(requests);
    expect(replay.byCommand).toEqual({ BatchGetItem: 1 });
  });
});
