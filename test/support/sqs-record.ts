import type { SQSRecord } from 'aws-lambda';

/** A Lambda-shaped SQS record carrying `body` as JSON, received `receiveCount` times. */
export const sqsRecord = (body: unknown, messageId: string, receiveCount = 1): SQSRecord => ({
  messageId,
  receiptHandle: `receipt-${messageId}`,
  body: JSON.stringify(body),
  attributes: {
    ApproximateReceiveCount: String(receiveCount),
    SentTimestamp: String(Date.now()),
    SenderId: 'test',
    ApproximateFirstReceiveTimestamp: String(Date.now()),
  },
  messageAttributes: {},
  md5OfBody: '',
  eventSource: 'aws:sqs',
  eventSourceARN: 'arn:aws:sqs:local:000000000000:test',
  awsRegion: 'local',
});
