/**
 * Request size limit. Lambda's synchronous invocation payload limit is 6 MB, so
 * a larger body can never reach a handler on AWS; the local gateway and the
 * endpoint wrapper enforce the same bound and answer 413.
 */
export const MAX_BODY_BYTES = 6 * 1024 * 1024;

/**
 * A provider webhook's body (256 KB): far above any documented payload, and, with what a queue refuses
 * escaped (at most three times as long) and the connection's message attributes, still within one SQS
 * message (1 MiB, MAX_QUEUE_MESSAGE_BYTES in queues.ts).
 */
export const MAX_PROVIDER_WEBHOOK_BYTES = 256_000;
