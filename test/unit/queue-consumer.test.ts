import { ChangeMessageVisibilityCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { tokenResponse } from '#api/oauth/token.ts';
import { defineConcurrentQueueConsumer, defineQueueConsumer } from '#api/queues/consumer.ts';
import { configuration, useConfiguration } from '#platform/config.ts';
import { retryMessageAfter } from '#platform/queue-retries.ts';
import { issueOAuthToken, type TokenRequest } from '#use-cases/issue-oauth-token.ts';
import { type Consumed, done, retryAfter } from '#use-cases/queue-message.ts';

const sqsMock = mockClient(SQSClient);

const record = (messageId: string, body: string, receiveCount = 1): SQSRecord =>
  ({
    messageId,
    body,
    receiptHandle: `receipt-${messageId}`,
    attributes: { ApproximateReceiveCount: String(receiveCount) },
    messageAttributes: {},
  }) as unknown as SQSRecord;

const batch = (...records: SQSRecord[]): SQSEvent => ({ Records: records });

describe('defineQueueConsumer: the SQS side of a use case', () => {
  beforeEach(() => {
    const config = configuration();
    useConfiguration({ ...config, queues: { ...config.queues, mail: { url: 'https://sqs.test/mail' } } });
    sqsMock.reset();
    sqsMock.on(ChangeMessageVisibilityCommand).resolves({});
  });

  it('answers the records to bring back, each after the wait its use case chose', async () => {
    // Prepare: a use case that retries "b" after 30 s and "c" after the visibility timeout
    const answers: Record<string, Consumed> = { a: done, b: retryAfter(30), c: retryAfter(null) };
    const seen: { body: string; attempt: number }[] = [];
    const handler = defineQueueConsumer({
      queue: 'mail',
      bringBack: retryMessageAfter,
      parse: (item) => (item.body === 'malformed' ? null : item.body),
      malformed: 'Discarding a malformed test message',
      consume: async (body: string, delivery) => {
        seen.push({ body, attempt: delivery.attempt });
        return answers[body]!;
      },
    });

    // Act
    const response = await handler(
      batch(record('1', 'a'), record('2', 'malformed'), record('3', 'b', 4), record('4', 'c')),
    );

    // Assess
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: '3' }, { itemIdentifier: '4' }]);
    expect(seen).toEqual([
      { body: 'a', attempt: 1 },
      { body: 'b', attempt: 4 },
      { body: 'c', attempt: 1 },
    ]);
    const visibility = sqsMock.commandCalls(ChangeMessageVisibilityCommand).map((call) => call.args[0].input);
    expect(visibility).toEqual([
      expect.objectContaining({ ReceiptHandle: 'receipt-3', VisibilityTimeout: 30 }),
    ]);
  });

  it('brings back a message after the visibility timeout, and consumes copies of one job once when concurrent', async () => {
    const consumed: string[] = [];
    const handler = defineConcurrentQueueConsumer(
      {
        queue: 'webhooks',
        parse: (item) => item.body,
        malformed: 'Discarding a malformed test message',
        consume: async (body: string) => {
          consumed.push(body);
          return body === 'boom' ? retryAfter(null) : done;
        },
      },
      (body) => body,
    );

    const response = await handler(batch(record('1', 'x'), record('2', 'x'), record('3', 'boom')));

    expect(consumed.sort()).toEqual(['boom', 'x']);
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: '3' }]);
    expect(sqsMock.commandCalls(ChangeMessageVisibilityCommand)).toHaveLength(0);
  });
});

describe('the token endpoint: use case and RFC 6749 answers', () => {
  const request: TokenRequest = { client: {}, mcpResource: 'https://api.example.com/mcp' };

  it('refuses a public client that names no client id, before reading anything', async () => {
    const outcome = await issueOAuthToken(request);
    expect(outcome).toEqual({ refused: 'client-unauthenticated' });
    const response = tokenResponse(request, outcome);
    expect(response.statusCode).toBe(401);
    expect(response.headers).toMatchObject({ 'www-authenticate': 'Basic realm="oauth"' });
    expect(JSON.parse(response.body)).toEqual({
      error: 'invalid_client',
      error_description: 'Client authentication failed',
    });
  });

  it('words a refusal that names the request from it', () => {
    const response = tokenResponse(
      { ...request, grantType: 'client_credentials' },
      { refused: 'grant-type-not-allowed' },
    );
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({
      error: 'unauthorized_client',
      error_description: 'This client may not use the client_credentials grant',
    });
  });
});
