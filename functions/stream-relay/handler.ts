import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { relayOutboxRecords } from '#domain/outbox-relay.ts';
import { lambdaHandler } from '#platform/observability.ts';

/**
 * The outbox relay: the table's stream invokes it with new items; outbox items
 * are sent to their queue, and webhook events are fanned out into one delivery
 * (and one webhooks-queue message) per subscription. Records are handled in stream order and the first
 * failure is reported (ReportBatchItemFailures), so Lambda retries from there
 * and nothing after it is skipped.
 */
export const handler = lambdaHandler(
  async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => relayOutboxRecords(event.Records),
);
