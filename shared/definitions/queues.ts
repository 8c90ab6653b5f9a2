/**
 * The queues: the one definition the CDK stack (queue, dead-letter queue,
 * event source mapping) and the local stack (fauxqs queues with redrive, SQS
 * poller) are built from. A queue's URL reaches code through the environment
 * variable named here.
 */
export const queueDefinitions = {
  /** Replies to deliver by email (POST /assignments/{id}/reply). */
  mail: {
    consumer: 'functions/mail-sender/handler.ts',
    urlVariable: 'MAIL_QUEUE_URL',
    /** Longer than the consumer's timeout, so a message is not handed out twice while it is being sent. */
    visibilityTimeoutSeconds: 60,
    consumerTimeoutSeconds: 30,
    /** Receives before a message goes to the dead-letter queue. */
    maxReceiveCount: 8,
    batchSize: 10,
  },
  /**
   * Webhook deliveries, one message per (event, subscription), so a failing
   * subscriber never delays the others (docs/webhooks.md).
   */
  webhooks: {
    consumer: 'functions/webhook-dispatcher/handler.ts',
    urlVariable: 'WEBHOOKS_QUEUE_URL',
    /** Well above the 15 s send timeout (records of a batch are sent in parallel). */
    visibilityTimeoutSeconds: 120,
    consumerTimeoutSeconds: 40,
    /** Eight attempts: the retry schedule between them spans more than 24 hours. */
    maxReceiveCount: 8,
    batchSize: 10,
  },
} as const;

export type QueueName = keyof typeof queueDefinitions;

/** How long dead letters are kept: the SQS maximum, so an operator has two weeks to redrive. */
export const DEAD_LETTER_RETENTION_DAYS = 14;

/** The environment variable holding a queue's dead-letter queue URL (redrive reads it). */
export const deadLetterUrlVariable = (queue: QueueName): string =>
  `${queueDefinitions[queue].urlVariable.replace(/_URL$/, '')}_DEAD_LETTER_URL`;
