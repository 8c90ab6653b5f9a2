import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { assignments, variablesWrite } from '#store/assignments.ts';
import { campaigns } from '#store/campaigns.ts';
import { lostRace } from '#store/conflicts.ts';
import { contacts, newContact } from '#store/contacts.ts';
import { providerConnections } from '#store/provider-connections.ts';
import {
  failedSubjects,
  type TransactItem,
  TransactionConflictError,
  transact,
} from '#store/transactions.ts';

const dynamoMock = mockClient(DynamoDBDocumentClient);

/** A cancellation with one reason per item, as DynamoDB answers it. */
const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

const check = (condition: string, subject?: number): TransactItem => ({
  ConditionCheck: { TableName: 't', Key: { pk: `P${subject}`, sk: 'S' }, ConditionExpression: 'x' },
  condition,
  subject,
});

async function conflictOf(items: TransactItem[], ...codes: string[]): Promise<TransactionConflictError> {
  dynamoMock.on(TransactWriteCommand).rejects(cancelled(...codes));
  const error = await transact(items).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(TransactionConflictError);
  return error as TransactionConflictError;
}

describe('transact names the conditions that failed', () => {
  beforeEach(() => dynamoMock.reset());

  it('names each failed item by its condition and subject, whatever its position', async () => {
    const error = await conflictOf(
      [check('campaign-not-found'), check('assignment-id-taken', 7), check('assignment-id-taken', 9)],
      'None',
      'ConditionalCheckFailed',
      'ConditionalCheckFailed',
    );
    expect([...error.failed]).toEqual(['assignment-id-taken']);
    expect(error.failedItems).toEqual([
      { condition: 'assignment-id-taken', subject: 7 },
      { condition: 'assignment-id-taken', subject: 9 },
    ]);
    expect(failedSubjects(error, 'assignment-id-taken')).toEqual(new Set([7, 9]));
    expect(failedSubjects(error, 'campaign-not-found')).toEqual(new Set());
    expect(error.conflicted).toBe(false);
    expect(lostRace(error)).toBe(false);
  });

  it('tells a lost race (only concurrent transactions) from a failed condition', async () => {
    const error = await conflictOf(
      [check('connection-limit'), check('other')],
      'None',
      'TransactionConflict',
    );
    expect(error.failed.size).toBe(0);
    expect(error.conflicted).toBe(true);
    expect(lostRace(error)).toBe(true);
  });

  it('names a failed item built without a name as unnamed', async () => {
    const error = await conflictOf(
      [{ ConditionCheck: { TableName: 't', Key: { pk: 'P', sk: 'S' }, ConditionExpression: 'x' } }],
      'ConditionalCheckFailed',
    );
    expect([...error.failed]).toEqual(['unnamed']);
  });

  it('sends DynamoDB the operations only, without the names', async () => {
    dynamoMock.on(TransactWriteCommand).resolves({});
    await transact([check('connection-limit', 3)]);
    const sent = dynamoMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(sent).toEqual([
      { ConditionCheck: { TableName: 't', Key: { pk: 'P3', sk: 'S' }, ConditionExpression: 'x' } },
    ]);
  });
});

describe('the stores name the conditions of the items they build', () => {
  const contact = newContact({
    id: 5,
    email: 'ada@example.com',
    first_name: null,
    last_name: null,
    full_name: null,
    title: null,
    linkedin_url: null,
    company_name: null,
    company_domain: null,
  });

  it.each([
    [
      'a connection over the limit',
      () => providerConnections.countOneMore(1, 10),
      'connection-limit',
      undefined,
    ],
    [
      'a connection deleted already',
      () => providerConnections.deleteExisting(1, 2),
      'connection-not-found',
      undefined,
    ],
    [
      "a campaign's counters that need the campaign",
      () => campaigns.counters(1, 2, { accountsCount: 1 }, { mustExist: true })!,
      'campaign-not-found',
      2,
    ],
    ['a new contact whose key is taken', () => contacts.putNew(1, contact), 'contact-exists', 5],
    ["an assignment's variables", () => variablesWrite(1, 8, new Map()), 'assignment-not-found', 8],
    [
      "an assignment's put",
      () =>
        assignments.putNew(1, {
          assignmentId: 4,
          campaignId: 2,
          sequence: { id: 3, channel: 'email', provider: 'smartlead' },
          contact,
          status: 'scheduled',
          createdAt: '2026-01-01T00:00:00.000Z',
        } as unknown as Parameters<typeof assignments.putNew>[1]),
      'assignment-id-taken',
      4,
    ],
  ])('%s', (_, build, condition, subject) => {
    const item = build();
    expect(item.condition).toBe(condition);
    expect(item.subject).toBe(subject);
  });
});
