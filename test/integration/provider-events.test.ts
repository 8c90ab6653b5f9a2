import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { CAMPAIGN_COUNTERS, ORGANIZATION_COUNTERS } from '#domain/aggregates.ts';
import { createAssignments } from '#domain/assignments.ts';
import { findSequence, getCampaign } from '#domain/campaigns.ts';
import { getContact } from '#domain/contacts.ts';
import { AssignmentNotFound, DomainError, TransitionNotAllowed } from '#domain/errors.ts';
import type { TimestampField } from '#domain/lifecycle.ts';
import { createOrganization } from '#domain/organizations.ts';
import { recordProviderEvent } from '#domain/provider-events.ts';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { type ProviderEvent, type ProviderEventType, providerEvent } from '#schemas/import.ts';
import type { AssignmentStatus } from '#schemas/resources.ts';
import { campaigns } from '#store/campaigns.ts';
import { keys } from '#store/keys.ts';
import { organizations } from '#store/organizations.ts';
import { importFor } from '../support/import.ts';
import { maintainedAndRecomputed, readRawOrganization } from '../support/recompute.ts';
import { countRequests } from '../support/request-counter.ts';

/*
 * Provider events end to end against DynamoDB Local, through the one write
 * path (recordProviderEvent). Each test imports its own small organization:
 *
 *   campaign 101: sequence 201 (email), sequence 202 (linkedin)
 *   campaign 102: sequence 203 (email)
 *   contacts 401 (ann@acme.com), 402 (bob@globex.io), 403 (no email)
 */

type Item = Record<string, unknown>;

interface AssignmentSpec {
  id: number;
  campaign?: number;
  sequence?: number;
  contact?: number;
  status: AssignmentStatus;
}

const SEQUENCE_CAMPAIGN: Record<number, number> = { 201: 101, 202: 101, 203: 102 };
const AT = '2026-05-01T10:00:00.000Z';
const STAMPS: TimestampField[] = ['approvedAt', 'sequencedAt', 'completedAt', 'bouncedAt', 'unsubscribedAt'];

/** A sent message in an assignment's history (no opens yet). */
const sentMessage = (id: number, assignmentId: number) => ({
  id,
  assignment_id: assignmentId,
  type: 'sent',
  step_type: 'email',
  step_index: 0,
  subject: 'Hi',
  body: 'Hello',
  sender_email: 'rep@seller.com',
  created_at: '2026-04-20T09:00:00.000Z',
});

/** Creates an organization and imports the campaigns, contacts, the given assignments and messages. */
async function prepare(assignments: AssignmentSpec[], messages: unknown[] = []): Promise<number> {
  const { orgId } = await createOrganization('Events Inc');
  await importFor(orgId, {
    campaigns: [
      {
        id: 101,
        name: 'Fintech CFOs',
        created_at: '2026-04-01T09:00:00.000Z',
        sequences: [
          { id: 201, provider: 'smartlead', channel: 'email', steps: [] },
          { id: 202, provider: 'heyreach', channel: 'linkedin', steps: [] },
        ],
      },
      {
        id: 102,
        name: 'Retail Ops',
        created_at: '2026-04-02T09:00:00.000Z',
        sequences: [{ id: 203, provider: 'instantly', channel: 'email', steps: [] }],
      },
    ],
    contacts: [
      { id: 401, email: 'Ann@Acme.com', first_name: 'Ann' },
      { id: 402, email: 'bob@globex.io', first_name: 'Bob' },
      { id: 403, email: null, full_name: 'Cy No-Email' },
    ],
    assignments: assignments.map(({ id, sequence = 201, contact = 401, status, campaign }) => ({
      id,
      campaign_id: campaign ?? SEQUENCE_CAMPAIGN[sequence],
      sequence_id: sequence,
      contact_id: contact,
      status,
      created_at: '2026-04-10T00:00:00.000Z',
      completed_at: status === 'completed' ? '2026-04-25T00:00:00.000Z' : null,
    })),
    messages,
  });
  return orgId;
}

/** A provider event as the operator CLI parses it. */
const event = (raw: { id: string; assignment_id: number; type: ProviderEventType } & Item): ProviderEvent =>
  providerEvent.parse({ at: AT, ...raw });

const getItem = async (key: Record<string, string>): Promise<Item | undefined> =>
  (await dynamo.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

const assignmentOf = async (orgId: number, assignmentId: number) =>
  (await getItem(keys.assignment(orgId, assignmentId)))!;

const contactOf = async (orgId: number, contactEmail: string) =>
  (await getItem(keys.contact(orgId, { id: 0, email: contactEmail })))!;

async function messagesOf(orgId: number, campaignId: number): Promise<Item[]> {
  const { Items = [] } = await dynamo.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.campaignMessagesIndex(orgId, campaignId).gsi1pk },
    }),
  );
  return Items;
}

/** The counters as reads see them: each item with its shards added up (docs/scaling.md). */
const campaignCounters = async (orgId: number, campaignId: number) => {
  const campaign = await campaigns.get(orgId, campaignId, { consistent: true });
  return Object.fromEntries(
    [...CAMPAIGN_COUNTERS, 'messagesCount' as const].map((name) => [name, campaign?.[name] ?? 0]),
  );
};
const analyticsCounters = async (orgId: number) => {
  const analytics = await organizations.getAnalytics(orgId);
  return Object.fromEntries(ORGANIZATION_COUNTERS.map((name) => [name, analytics[name]]));
};
const changes = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(
    Object.keys(after)
      .filter((name) => after[name] !== before[name])
      .map((name) => [name, after[name]! - (before[name] ?? 0)]),
  );

/**
 * Everything an event could touch, read with Query and GetItem: every
 * campaign, assignment, message and contact of the organization, the analytics
 * item, the markers of the given event ids and the message id counter.
 */
async function everything(orgId: number, eventIds: string[]) {
  return {
    organization: await readRawOrganization(orgId),
    markers: await Promise.all(eventIds.map((id) => getItem(keys.providerEvent(orgId, id)))),
    messageIds: await getItem(keys.counter('message')),
  };
}

interface EffectCase {
  type: ProviderEventType;
  from: AssignmentStatus;
  /** Whether assignment 501 has sent message 601 in its history. */
  history: boolean;
  fields?: Item;
  status: AssignmentStatus;
  stamp?: TimestampField;
  counts?: { sentCount?: number; openCount?: number; clickCount?: number };
  campaign: Record<string, number>;
  analytics: Record<string, number>;
  /** The message the event adds to the history. */
  message?: Item;
  /** Opens the event adds to message 601. */
  messageOpens?: number;
}

const EFFECTS: EffectCase[] = [
  {
    type: 'approved',
    from: 'pending-approval',
    history: false,
    status: 'scheduled',
    stamp: 'approvedAt',
    campaign: { statusPendingApproval: -1, statusScheduled: 1 },
    analytics: { totalContactsScheduled: 1 },
  },
  {
    type: 'sequenced',
    from: 'scheduled',
    history: false,
    status: 'scheduled',
    stamp: 'sequencedAt',
    campaign: {},
    analytics: {},
  },
  {
    type: 'message_sent',
    from: 'scheduled',
    history: false,
    fields: { message: { step_type: 'email', step_index: 0, subject: 'Hi', sender_email: 'rep@seller.com' } },
    status: 'in-progress',
    counts: { sentCount: 1 },
    campaign: { statusScheduled: -1, statusInProgress: 1, statSent: 1, messagesCount: 1 },
    analytics: { totalContactsScheduled: -1, totalContactsSent: 1 },
    message: { messageType: 'sent', stepType: 'email', subject: 'Hi', openCount: 0, createdAt: AT },
  },
  {
    type: 'opened',
    from: 'in-progress',
    history: true,
    fields: { message_id: 601 },
    status: 'in-progress',
    counts: { openCount: 1 },
    campaign: { statOpened: 1 },
    analytics: { totalContactsOpened: 1 },
    messageOpens: 1,
  },
  {
    type: 'clicked',
    from: 'in-progress',
    history: true,
    status: 'in-progress',
    counts: { clickCount: 1 },
    campaign: { statClicked: 1 },
    analytics: {},
  },
  {
    type: 'reply_received',
    from: 'in-progress',
    history: true,
    fields: { response_type: 'positive', message: { body: 'Interested!' } },
    status: 'replied',
    campaign: { statusInProgress: -1, statusReplied: 1, statPositiveReplied: 1, messagesCount: 1 },
    analytics: { totalContactsReplied: 1 },
    message: { messageType: 'received', stepType: 'reply', responseType: 'positive', body: 'Interested!' },
  },
  {
    type: 'forwarded',
    from: 'completed',
    history: true,
    fields: { message: { body: 'Looping in my colleague' } },
    status: 'completed',
    campaign: { messagesCount: 1 },
    analytics: {},
    message: { messageType: 'forward', stepType: 'reply', body: 'Looping in my colleague' },
  },
  {
    type: 'bounced',
    from: 'in-progress',
    history: true,
    status: 'bounced',
    stamp: 'bouncedAt',
    campaign: { statusInProgress: -1, statusBounced: 1, statBounced: 1 },
    analytics: { totalBounced: 1 },
  },
  {
    type: 'unsubscribed',
    from: 'scheduled',
    history: false,
    status: 'unsubscribed',
    stamp: 'unsubscribedAt',
    campaign: { statusScheduled: -1, statusUnsubscribed: 1, statUnsubscribed: 1 },
    analytics: { totalContactsScheduled: -1, totalUnsubscribed: 1 },
  },
  {
    type: 'completed',
    from: 'in-progress',
    history: true,
    status: 'completed',
    stamp: 'completedAt',
    campaign: { statusInProgress: -1, statusCompleted: 1 },
    analytics: {},
  },
  {
    type: 'contact_blocked',
    from: 'scheduled',
    history: false,
    status: 'scheduled',
    campaign: { statBlocked: 1 },
    analytics: {},
  },
];

/** One BatchGetItem (assignment and event marker) and one TransactWriteItems. */
const READ_AND_WRITE = { BatchGetItem: 1, TransactWriteItems: 1 };
/**
 * …and, at most, the UpdateItem that takes a block of message ids: a process takes 100 at a time
 * (shared/store/ids.ts), so most events that allocate one send nothing for it.
 */
const WITH_MESSAGE_ID = { ...READ_AND_WRITE, UpdateItem: 1 };
/**
 * …plus one read for what it sets in motion at the providers: an approval reads its campaign (is
 * the sequence linked to a provider campaign? one Query of the campaign and its counter shards),
 * a bounce or unsubscribe the contact (its other leads stop; one GetItem).
 */
const WITH_CAMPAIGN_READ = { ...READ_AND_WRITE, Query: 1 };
const WITH_PROVIDER_WORK = { ...READ_AND_WRITE, GetItem: 1 };

const REQUEST_BOUNDS: {
  type: ProviderEventType;
  from: AssignmentStatus;
  variant: string;
  fields: Item;
  requests: Record<string, number>;
}[] = [
  { type: 'approved', from: 'pending-approval', variant: 'status', fields: {}, requests: WITH_CAMPAIGN_READ },
  { type: 'sequenced', from: 'scheduled', variant: 'stamp', fields: {}, requests: READ_AND_WRITE },
  {
    type: 'message_sent',
    from: 'scheduled',
    variant: 'with a message id',
    fields: { message: { id: 9001, step_type: 'email' } },
    requests: READ_AND_WRITE,
  },
  {
    type: 'message_sent',
    from: 'scheduled',
    variant: 'message id allocated',
    fields: { message: { step_type: 'email' } },
    requests: WITH_MESSAGE_ID,
  },
  {
    type: 'opened',
    from: 'in-progress',
    variant: 'on a message',
    fields: { message_id: 601 },
    requests: READ_AND_WRITE,
  },
  { type: 'opened', from: 'in-progress', variant: 'no message', fields: {}, requests: READ_AND_WRITE },
  { type: 'clicked', from: 'in-progress', variant: 'counter', fields: {}, requests: READ_AND_WRITE },
  {
    type: 'reply_received',
    from: 'in-progress',
    variant: 'with a message id',
    fields: { response_type: 'positive', message: { id: 9001 } },
    requests: READ_AND_WRITE,
  },
  {
    type: 'reply_received',
    from: 'in-progress',
    variant: 'message id allocated',
    fields: { response_type: 'positive', message: {} },
    requests: WITH_MESSAGE_ID,
  },
  {
    type: 'forwarded',
    from: 'in-progress',
    variant: 'message id allocated',
    fields: { message: {} },
    requests: WITH_MESSAGE_ID,
  },
  { type: 'bounced', from: 'in-progress', variant: 'terminal', fields: {}, requests: WITH_PROVIDER_WORK },
  { type: 'unsubscribed', from: 'scheduled', variant: 'terminal', fields: {}, requests: WITH_PROVIDER_WORK },
  { type: 'completed', from: 'in-progress', variant: 'stamp', fields: {}, requests: READ_AND_WRITE },
  {
    type: 'contact_blocked',
    from: 'scheduled',
    variant: 'plus the contact read',
    fields: {},
    requests: { ...READ_AND_WRITE, GetItem: 1 },
  },
];

describe('provider events', () => {
  it.each(EFFECTS)(
    'records $type from $from on the assignment, the counters, the contact summary and the history',
    async (spec) => {
      // Prepare
      const orgId = await prepare(
        [{ id: 501, status: spec.from }],
        spec.history ? [sentMessage(601, 501)] : [],
      );
      const assignmentBefore = await assignmentOf(orgId, 501);
      const campaignBefore = await campaignCounters(orgId, 101);
      const otherCampaignBefore = await campaignCounters(orgId, 102);
      const analyticsBefore = await analyticsCounters(orgId);
      const messagesBefore = await messagesOf(orgId, 101);

      // Act
      const recorded = await recordProviderEvent(
        orgId,
        event({ id: `evt-${spec.type}`, assignment_id: 501, type: spec.type, ...spec.fields }),
      );

      // Assess: the assignment
      expect(recorded.outcome).toBe('applied');
      const assignment = await assignmentOf(orgId, 501);
      expect(assignment.status).toBe(spec.status);
      expect(assignment.gsi2pk).toBe(keys.campaignStatusIndex(orgId, 101, spec.status).gsi2pk);
      for (const stamp of STAMPS) {
        expect(assignment[stamp], stamp).toBe(stamp === spec.stamp ? AT : assignmentBefore[stamp]);
      }
      for (const count of ['sentCount', 'openCount', 'clickCount'] as const) {
        expect(assignment[count], count).toBe(Number(assignmentBefore[count]) + (spec.counts?.[count] ?? 0));
      }
      expect(assignment.version).toBe(Number(assignmentBefore.version) + 1);
      expect(assignment.contactBlocked).toBe(spec.type === 'contact_blocked');

      // Assess: the campaign, the other campaign and the organization's analytics
      expect(changes(campaignBefore, await campaignCounters(orgId, 101))).toEqual(spec.campaign);
      expect(await campaignCounters(orgId, 102)).toEqual(otherCampaignBefore);
      expect(changes(analyticsBefore, await analyticsCounters(orgId))).toEqual(spec.analytics);

      // Assess: the contact's eligibility summary
      const contact = await contactOf(orgId, 'ann@acme.com');
      expect(contact.blocked).toBe(spec.type === 'contact_blocked');
      expect((contact.assignments as Record<string, Item>)['501']).toEqual({
        campaignId: 101,
        sequenceId: 201,
        channel: 'email',
        status: spec.status,
        completedAt: spec.stamp === 'completedAt' ? AT : (assignmentBefore.completedAt ?? null),
      });

      // Assess: the message history
      const messages = await messagesOf(orgId, 101);
      const added = messages.filter(
        (message) => !messagesBefore.some((old) => old.messageId === message.messageId),
      );
      if (spec.message) {
        expect(added).toHaveLength(1);
        expect(added[0]).toMatchObject({ ...spec.message, assignmentId: 501, campaignId: 101 });
        expect(assignment.lastMessageId).toBe(added[0]!.messageId);
      } else {
        expect(added).toEqual([]);
      }
      const message601 = messages.find((message) => message.messageId === 601);
      if (spec.history) expect(message601?.openCount).toBe(spec.messageOpens ?? 0);

      // Assess: the marker and the recomputation
      expect(await getItem(keys.providerEvent(orgId, `evt-${spec.type}`))).toMatchObject({
        eventType: spec.type,
        assignmentId: 501,
      });
      const { stored, recomputed } = await maintainedAndRecomputed(orgId);
      expect(stored).toEqual(recomputed);
    },
  );

  it('counts the opens a sent or received message arrives with', async () => {
    // Prepare
    const orgId = await prepare([
      { id: 501, status: 'scheduled' },
      { id: 502, status: 'in-progress', contact: 402 },
    ]);

    // Act
    await recordProviderEvent(
      orgId,
      event({
        id: 'sent-with-opens',
        assignment_id: 501,
        type: 'message_sent',
        message: { step_type: 'email', open_count: 2 },
      }),
    );
    await recordProviderEvent(
      orgId,
      event({
        id: 'reply-with-opens',
        assignment_id: 502,
        type: 'reply_received',
        response_type: 'neutral',
        message: { open_count: 1 },
      }),
    );

    // Assess
    expect(await assignmentOf(orgId, 501)).toMatchObject({ openCount: 2, sentCount: 1 });
    expect(await assignmentOf(orgId, 502)).toMatchObject({ openCount: 1, status: 'replied' });
    expect(await campaignCounters(orgId, 101)).toMatchObject({ statOpened: 2, statSent: 1 });
    expect(await analyticsCounters(orgId)).toMatchObject({ totalContactsOpened: 2 });
    const { stored, recomputed } = await maintainedAndRecomputed(orgId);
    expect(stored).toEqual(recomputed);
  });

  it.each([
    {
      name: 'completed on a scheduled assignment',
      status: 'scheduled' as const,
      event: { type: 'completed' as const },
      error: /Cannot record completed for assignment 501: it is scheduled \(allowed from in-progress\)/,
    },
    {
      name: 'message_sent on a bounced (terminal) assignment',
      status: 'bounced' as const,
      event: { type: 'message_sent' as const, message: { step_type: 'email' } },
      error: /Cannot record message_sent for assignment 501: it is bounced/,
    },
    {
      name: 'approved on an in-progress assignment',
      status: 'in-progress' as const,
      event: { type: 'approved' as const },
      error: /Cannot record approved for assignment 501: it is in-progress/,
    },
    {
      name: 'reply_received on an unsubscribed (terminal) assignment',
      status: 'unsubscribed' as const,
      event: { type: 'reply_received' as const, response_type: 'positive', message: {} },
      error: /Cannot record reply_received for assignment 501: it is unsubscribed/,
    },
    {
      name: 'opened before anything was sent',
      status: 'scheduled' as const,
      event: { type: 'opened' as const },
      error: /Cannot record opened for assignment 501: it is scheduled/,
    },
    {
      name: 'opened on a message of another assignment',
      status: 'in-progress' as const,
      event: { type: 'opened' as const, message_id: 601 },
      error: /belongs to another assignment/,
    },
    {
      name: 'opened on a message that does not exist',
      status: 'in-progress' as const,
      event: { type: 'opened' as const, message_id: 99_999 },
      error: /message id/,
    },
    {
      name: 'message_sent with the id of an existing message',
      status: 'in-progress' as const,
      event: { type: 'message_sent' as const, message: { id: 601, step_type: 'email' } },
      error: /the message id exists already/,
    },
  ])('rejects $name as a conflict and writes nothing', async ({ status, event: fields, error }) => {
    // Prepare
    const orgId = await prepare(
      [
        { id: 501, status },
        { id: 502, status: 'in-progress', contact: 402 },
      ],
      [sentMessage(601, 502)],
    );
    const before = await everything(orgId, ['rejected']);

    // Act
    const attempt = recordProviderEvent(orgId, event({ id: 'rejected', assignment_id: 501, ...fields }));

    // Assess
    await expect(attempt).rejects.toSatisfy(
      (error: unknown) => error instanceof DomainError && error.kind === 'conflict',
    );
    await expect(attempt).rejects.toThrow(error);
    expect(await everything(orgId, ['rejected'])).toEqual(before);
  });

  it('returns duplicate on a replayed event id and changes nothing', async () => {
    // Prepare
    const orgId = await prepare([{ id: 501, status: 'in-progress' }], [sentMessage(601, 501)]);
    const sent = event({
      id: 'sent-1',
      assignment_id: 501,
      type: 'message_sent',
      message: { step_type: 'email' },
    });
    const opened = event({ id: 'open-1', assignment_id: 501, type: 'opened', message_id: 601 });
    const clicked = event({ id: 'click-1', assignment_id: 501, type: 'clicked' });
    for (const applied of [sent, opened, clicked]) await recordProviderEvent(orgId, applied);
    const before = await everything(orgId, ['sent-1', 'open-1', 'click-1']);

    // Act
    const outcomes = [];
    for (const replay of [sent, opened, clicked, opened]) {
      outcomes.push((await recordProviderEvent(orgId, replay)).outcome);
    }

    // Assess
    expect(outcomes).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate']);
    expect(await everything(orgId, ['sent-1', 'open-1', 'click-1'])).toEqual(before);
  });

  it('returns duplicate on a replay that would now be an impossible transition', async () => {
    // Prepare
    const orgId = await prepare([
      { id: 501, status: 'pending-approval' },
      { id: 502, status: 'in-progress', contact: 402 },
    ]);
    const approved = event({ id: 'approve-1', assignment_id: 501, type: 'approved' });
    const bounced = event({ id: 'bounce-1', assignment_id: 502, type: 'bounced' });
    await recordProviderEvent(orgId, approved);
    await recordProviderEvent(orgId, bounced);
    const before = await everything(orgId, ['approve-1', 'bounce-1']);

    // Act
    const replayedApproval = await recordProviderEvent(orgId, approved);
    const replayedBounce = await recordProviderEvent(orgId, { ...bounced, at: '2026-06-01T00:00:00.000Z' });

    // Assess
    expect(replayedApproval.outcome).toBe('duplicate');
    expect(replayedBounce.outcome).toBe('duplicate');
    expect(await everything(orgId, ['approve-1', 'bounce-1'])).toEqual(before);
  });

  it('applies an event id rejected earlier once the transition has become possible', async () => {
    // Prepare
    const orgId = await prepare([{ id: 501, status: 'scheduled' }]);
    const completed = event({ id: 'complete-1', assignment_id: 501, type: 'completed' });
    await expect(recordProviderEvent(orgId, completed)).rejects.toBeInstanceOf(TransitionNotAllowed);
    await recordProviderEvent(
      orgId,
      event({ id: 'sent-1', assignment_id: 501, type: 'message_sent', message: { step_type: 'email' } }),
    );

    // Act
    const recorded = await recordProviderEvent(orgId, completed);

    // Assess
    expect(recorded.outcome).toBe('applied');
    expect((await assignmentOf(orgId, 501)).status).toBe('completed');
  });

  it('blocks every assignment of the contact across campaigns and raises each campaign’s blocked stat once', async () => {
    // Prepare
    const orgId = await prepare([
      { id: 501, sequence: 201, contact: 401, status: 'scheduled' },
      { id: 502, sequence: 202, contact: 401, status: 'pending-approval' },
      { id: 503, sequence: 203, contact: 401, status: 'completed' },
      { id: 504, sequence: 201, contact: 402, status: 'in-progress' },
    ]);
    const block = event({ id: 'block-1', assignment_id: 503, type: 'contact_blocked' });

    // Act
    const first = await recordProviderEvent(orgId, block);
    const afterFirst = await everything(orgId, ['block-1']);
    const replay = await recordProviderEvent(orgId, block);
    const again = await recordProviderEvent(
      orgId,
      event({ id: 'block-2', assignment_id: 501, type: 'contact_blocked' }),
    );

    // Assess
    expect([first.outcome, replay.outcome, again.outcome]).toEqual(['applied', 'duplicate', 'applied']);
    expect((await contactOf(orgId, 'ann@acme.com')).blocked).toBe(true);
    expect((await contactOf(orgId, 'bob@globex.io')).blocked).toBe(false);
    for (const id of [501, 502, 503]) expect((await assignmentOf(orgId, id)).contactBlocked).toBe(true);
    expect((await assignmentOf(orgId, 504)).contactBlocked).toBe(false);
    expect((await campaignCounters(orgId, 101)).statBlocked).toBe(2);
    expect((await campaignCounters(orgId, 102)).statBlocked).toBe(1);
    const afterAll = await everything(orgId, ['block-1']);
    expect(afterAll.organization).toEqual(afterFirst.organization);
    const { stored, recomputed } = await maintainedAndRecomputed(orgId);
    expect(stored).toEqual(recomputed);
  });

  it('blocks a contact without an email through its assignment', async () => {
    // Prepare
    const orgId = await prepare([{ id: 501, sequence: 202, contact: 403, status: 'scheduled' }]);

    // Act
    await recordProviderEvent(orgId, event({ id: 'block-1', assignment_id: 501, type: 'contact_blocked' }));

    // Assess
    expect((await getItem(keys.contact(orgId, { id: 403, email: null })))?.blocked).toBe(true);
    expect((await campaignCounters(orgId, 101)).statBlocked).toBe(1);
  });

  it('flags an assignment created while its contact is being blocked', async () => {
    // Prepare: contacts 1..8, each with an assignment in sequence 201
    const { orgId } = await createOrganization('Race Inc');
    const contactIds = [1, 2, 3, 4, 5, 6, 7, 8];
    await importFor(orgId, {
      campaigns: [
        {
          id: 101,
          name: 'Race',
          sequences: [
            { id: 201, provider: 'smartlead', channel: 'email', steps: [] },
            { id: 202, provider: 'heyreach', channel: 'linkedin', steps: [] },
          ],
        },
      ],
      contacts: contactIds.map((id) => ({ id, email: `contact${id}@example.com` })),
      assignments: contactIds.map((id) => ({
        id,
        campaign_id: 101,
        sequence_id: 201,
        contact_id: id,
        status: 'scheduled',
      })),
    });
    const campaign = await getCampaign(orgId, 101);

    // Act: per contact, block it and create its assignment in sequence 202 at about the same time,
    // the creation starting from the contact as read before the block (as a raw push does)
    for (const id of contactIds) {
      const contact = (await getContact(orgId, { id, email: `contact${id}@example.com` }))!;
      await Promise.all([
        recordProviderEvent(orgId, event({ id: `block-${id}`, assignment_id: id, type: 'contact_blocked' })),
        new Promise((resolve) => setTimeout(resolve, id % 4)).then(() =>
          createAssignments(orgId, 101, [
            {
              assignmentId: 100 + id,
              sequence: findSequence(campaign, 202)!,
              contact,
              status: 'pending-approval',
              createdAt: '2026-05-01T00:00:00.000Z',
            },
          ]),
        ),
      ]);
    }

    // Assess
    for (const id of contactIds) {
      expect((await assignmentOf(orgId, 100 + id)).contactBlocked, `assignment ${100 + id}`).toBe(true);
    }
    expect((await campaignCounters(orgId, 101)).statBlocked).toBe(16);
    const { stored, recomputed } = await maintainedAndRecomputed(orgId);
    expect(stored).toEqual(recomputed);
  });

  it('applies concurrent different events on one assignment exactly once each', async () => {
    // Prepare
    const orgId = await prepare([{ id: 501, status: 'in-progress' }], [sentMessage(601, 501)]);
    const events = [
      event({ id: 'open-1', assignment_id: 501, type: 'opened', message_id: 601 }),
      event({ id: 'open-2', assignment_id: 501, type: 'opened' }),
      event({ id: 'open-3', assignment_id: 501, type: 'opened', message_id: 601 }),
      event({ id: 'click-1', assignment_id: 501, type: 'clicked' }),
      event({ id: 'sent-1', assignment_id: 501, type: 'message_sent', message: { step_type: 'email' } }),
      event({ id: 'forward-1', assignment_id: 501, type: 'forwarded', message: {} }),
    ];
    const before = await assignmentOf(orgId, 501);

    // Act
    const outcomes = await Promise.all(events.map((each) => recordProviderEvent(orgId, each)));

    // Assess
    expect(outcomes.map((recorded) => recorded.outcome)).toEqual(events.map(() => 'applied'));
    expect(await assignmentOf(orgId, 501)).toMatchObject({
      status: 'in-progress',
      sentCount: 2,
      openCount: 3,
      clickCount: 1,
      version: Number(before.version) + events.length,
    });
    const messages = await messagesOf(orgId, 101);
    expect(messages).toHaveLength(3);
    expect(messages.find((message) => message.messageId === 601)?.openCount).toBe(2);
    expect(await campaignCounters(orgId, 101)).toMatchObject({
      messagesCount: 3,
      statOpened: 1,
      statClicked: 1,
    });
    const { stored, recomputed } = await maintainedAndRecomputed(orgId);
    expect(stored).toEqual(recomputed);
  });

  it('applies one event id sent concurrently exactly once', async () => {
    // Prepare
    const orgId = await prepare([{ id: 501, status: 'in-progress' }], [sentMessage(601, 501)]);
    const opened = event({ id: 'open-1', assignment_id: 501, type: 'opened', message_id: 601 });

    // Act
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () =>
        recordProviderEvent(orgId, opened).then((recorded) => recorded.outcome),
      ),
    );

    // Assess
    expect(outcomes.filter((outcome) => outcome === 'applied')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'duplicate')).toHaveLength(4);
    expect((await assignmentOf(orgId, 501)).openCount).toBe(1);
    expect((await messagesOf(orgId, 101))[0]?.openCount).toBe(1);
  });

  it('does not find an assignment that does not exist', async () => {
    // Prepare
    const orgId = await prepare([{ id: 501, status: 'scheduled' }]);

    // Act
    const attempt = recordProviderEvent(orgId, event({ id: 'e-1', assignment_id: 999, type: 'approved' }));

    // Assess
    await expect(attempt).rejects.toBeInstanceOf(AssignmentNotFound);
    expect(await getItem(keys.providerEvent(orgId, 'e-1'))).toBeUndefined();
  });

  it('does not find another organization’s assignment and leaves it untouched', async () => {
    // Prepare
    const owner = await prepare([{ id: 501, status: 'scheduled' }]);
    const { orgId: other } = await createOrganization('Other Inc');
    const before = await everything(owner, ['e-1']);

    // Act
    const attempt = recordProviderEvent(
      other,
      event({ id: 'e-1', assignment_id: 501, type: 'message_sent', message: { step_type: 'email' } }),
    );

    // Assess
    await expect(attempt).rejects.toBeInstanceOf(AssignmentNotFound);
    expect(await everything(owner, ['e-1'])).toEqual(before);
    expect(await getItem(keys.providerEvent(other, 'e-1'))).toBeUndefined();
  });

  it.each(REQUEST_BOUNDS)(
    'makes the bounded number of requests for $type ($variant)',
    async ({ type, from, fields, requests }) => {
      // Prepare
      const orgId = await prepare(
        [{ id: 501, status: from }],
        from === 'in-progress' ? [sentMessage(601, 501)] : [],
      );
      const recorded = event({ id: 'counted', assignment_id: 501, type, ...fields });

      // Act
      const first = await countRequests(() => recordProviderEvent(orgId, recorded));
      const replay = await countRequests(() => recordProviderEvent(orgId, recorded));

      // Assess
      expect(first.result.outcome).toBe('applied');
      if (requests === WITH_MESSAGE_ID) {
        const { UpdateItem: idBlocks = 0, ...others } = first.byCommand;
        expect(others).toEqual(READ_AND_WRITE);
        expect(idBlocks).toBeLessThanOrEqual(1);
      } else {
        expect(first.byCommand).toEqual(requests);
      }
      expect(replay.result.outcome).toBe('duplicate');
      expect(replay.byCommand).toEqual({ BatchGetItem: 1 });
    },
  );

  it('makes one request for an impossible transition', async () => {
    // Prepare
    const orgId = await prepare([{ id: 501, status: 'bounced' }]);
    const impossible = event({ id: 'e-1', assignment_id: 501, type: 'completed' });

    // Act
    const counted = await countRequests(() =>
      recordProviderEvent(orgId, impossible).then(
        () => 'applied',
        (error: unknown) =>
          error instanceof DomainError && error.kind === 'conflict' ? 'rejected' : 'failed',
      ),
    );

    // Assess
    expect(counted.result).toBe('rejected');
    expect(counted.byCommand).toEqual({ BatchGetItem: 1 });
  });
});
