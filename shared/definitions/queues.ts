/**
 * The queues: the one definition the CDK stack (queue, dead-letter queue,
 * event source mapping) and the local stack (fauxqs queues with redrive, SQS
 * poller) are built from. On Lambda a queue's URL reaches the configuration
 * (shared/platform/config.ts) through the environment variable named here.
 */
/**
 * The environment variable that names each queue's URL, apart from the rest of
 * the definitions: every function's configuration reads these names, and only
 * the stacks need the rest.
 */
export const QUEUE_URL_VARIABLES = {
  mail: 'MAIL_QUEUE_URL',
  webhooks: 'WEBHOOKS_QUEUE_URL',
  providerEvents: 'PROVIDER_EVENTS_QUEUE_URL',
  enrollment: 'ENROLLMENT_QUEUE_URL',
} as const;

/** The queues' names, as a non-empty tuple (zod's enum takes one). */
export const QUEUE_NAMES = /* @__PURE__ */ (() =>
  Object.keys(QUEUE_URL_VARIABLES) as [
    keyof typeof QUEUE_URL_VARIABLES,
    ...(keyof typeof QUEUE_URL_VARIABLES)[],
  ])();

/**
 * SQS's largest message, body and attributes together: 1 MiB
 * (https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/sqs/aws.sdk.kotlin.services.sqs.model/-send-message-request/message-body.html).
 */
export const MAX_QUEUE_MESSAGE_BYTES = 1024 * 1024;

// Built in a pure-annotated call: its members read QUEUE_URL_VARIABLES, which esbuild cannot tell
// is free of side effects, so the object literal alone stayed in every function (config.ts imports
// this module for the URL variables); docs/architecture.md, Bundles.
export const queueDefinitions = /* @__PURE__ */ (() =>
  ({
    /** Replies to deliver by email (POST /assignments/{id}/reply). */
    mail: {
      consumer: 'functions/mail-sender/handler.ts',
      urlVariable: QUEUE_URL_VARIABLES.mail,
      /** A reply on a connected sequence leaves through the provider, with the connection's API key. */
      secrets: ['open'],
      /** Longer than the consumer's timeout, so a message is not handed out twice while it is being sent. */
      visibilityTimeoutSeconds: 60,
      consumerTimeoutSeconds: 30,
      /** Receives before a message goes to the dead-letter queue. */
      maxReceiveCount: 8,
      batchSize: 10,
      /**
       * Consumer instances the event source mapping may run at once (its maximum concurrency):
       * SES's sending rate, not DynamoDB, bounds mail, and the bound keeps a backlog from taking
       * the account's Lambda concurrency (docs/scaling.md).
       */
      maxConcurrency: 10,
    },
    /**
     * Webhook deliveries, one message per (event, subscription), so a failing
     * subscriber never delays the others (docs/webhooks.md).
     */
    webhooks: {
      consumer: 'functions/webhook-dispatcher/handler.ts',
      urlVariable: QUEUE_URL_VARIABLES.webhooks,
      /** Well above the 15 s send timeout (records of a batch are sent in parallel). */
      visibilityTimeoutSeconds: 120,
      consumerTimeoutSeconds: 40,
      /** Eight attempts: the retry schedule between them spans more than 24 hours. */
      maxReceiveCount: 8,
      batchSize: 10,
      /**
       * Deliveries wait on subscribers' endpoints (up to 15 s each), so more run at once than
       * events are recorded; bounded so a backlog leaves Lambda concurrency to the API (docs/scaling.md).
       */
      maxConcurrency: 50,
    },
    /**
     * What providers' webhooks reported, as received: the inbound endpoint only checks and enqueues, the
     * consumer maps each payload to provider events and records them (docs/providers.md).
     */
    providerEvents: {
      consumer: 'functions/provider-event-consumer/handler.ts',
      urlVariable: QUEUE_URL_VARIABLES.providerEvents,
      visibilityTimeoutSeconds: 60,
      consumerTimeoutSeconds: 30,
      /** A payload that keeps failing (not one that merely matches nothing: that is kept as unmatched) goes to the DLQ. */
      maxReceiveCount: 5,
      batchSize: 10,
      /**
       * 32 consumers at once, the writers the hot-items bench models: one per writer slot
       * (shared/store/counter-shards.ts), so each writes counter shards no other consumer writes
       * meanwhile. Each records its events one after another: ~40 events/s on DynamoDB, ~1,300
       * events/s for 32, above the API's stage throttle (docs/scaling.md).
       */
      maxConcurrency: 32,
      /** Waits up to a second to fill a batch: fewer invocations under load, a second's delay at most. */
      batchingWindowSeconds: 1,
      /**
       * SQS's largest: a 256,000-byte body with what a queue refuses escaped (at most three times as long,
       * for characters beyond the Basic Multilingual Plane) and its attributes fits.
       */
      maxMessageBytes: MAX_QUEUE_MESSAGE_BYTES,
    },
    /**
     * Work at the providers (docs/providers.md#enrollment): enroll scheduled assignments in their
     * provider campaign, stop leads whose contact was excluded, blocked or unsubscribed. Batched per
     * connection and provider campaign, paced per connection below the provider's rate limit.
     */
    enrollment: {
      consumer: 'functions/provider-enrollment/handler.ts',
      urlVariable: QUEUE_URL_VARIABLES.enrollment,
      /** It calls the providers with the connections' API keys. */
      secrets: ['open'],
      /** Work put off (a 429's Retry-After) goes back as a new delayed message: the consumer sends to its own queue. */
      requeues: true,
      /** Longer than the consumer's timeout (a batch may wait for its connection's request slots). */
      visibilityTimeoutSeconds: 180,
      consumerTimeoutSeconds: 120,
      /** Transient failures retry with backoff; the last receive records the enrollment as failed, never dropped. */
      maxReceiveCount: 12,
      batchSize: 10,
      /** The providers' rate limits pace it (per connection), not Lambda: a few consumers suffice (docs/scaling.md). */
      maxConcurrency: 8,
    },
  }) as const)();

export type QueueName = keyof typeof queueDefinitions;

/** SQS's maximum visibility timeout: no single wait before a retry may be longer. */
export const MAX_VISIBILITY_SECONDS = 12 * 60 * 60;

/**
 * When failed webhook deliveries are tried again (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h): about 27.6
 * hours over the webhooks queue's 8 attempts, each step within the visibility limit. A deployment may
 * set another (WEBHOOK_RETRY_SCHEDULE_SECONDS, shared/platform/config.ts).
 */
export const DEFAULT_RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 36_000] as const;

/** How long dead letters are kept: the SQS maximum, so an operator has two weeks to redrive. */
export const DEAD_LETTER_RETENTION_DAYS = 14;

/** The environment variable of a queue's dead-letter queue URL (the configuration's; redrive uses it). */
export const deadLetterUrlVariable = (queue: QueueName): string =>
  `${QUEUE_URL_VARIABLES[queue].replace(/_URL$/, '')}_DEAD_LETTER_URL`;

/** The message attributes of a queued provider webhook (#schemas/provider-webhook-message.ts), its body aside. */
export const PROVIDER_WEBHOOK_ATTRIBUTES = ['orgId', 'connectionId', 'provider', 'receivedAt'] as const;
