import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { dirname, resolve } from 'node:path';
import { localEndpointsFile } from '#admin/target.ts';
import { deadLetterUrlVariable, type QueueName, queueDefinitions } from '#definitions/queues.ts';
import { handlerEntry, routes } from '#definitions/routes.ts';
import { PROJECT_ROOT } from '../paths.ts';
import {
  type DynamoDbLocal,
  ensureTable,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  localDynamoDbClient,
  startDynamoDbLocal,
} from './dynamodb.ts';
import {
  type AuthorizerHandler,
  type GatewayOptions,
  type LocalRoute,
  type ProxyHandler,
  startGateway,
} from './gateway.ts';
import { type SmtpSink, startSmtpSink } from './smtp.ts';
import { type LocalQueues, type QueueConsumer, startLocalQueues, startQueuePoller } from './sqs.ts';
import { type StreamConsumer, startStreamPoller } from './streams.ts';
import { localThrottling } from './usage-plans.ts';

/**
 * The whole service on one machine: DynamoDB Local with the table from the
 * single definition, fauxqs with every queue of the queue definitions, an SMTP
 * sink for outgoing mail, the local API Gateway serving every route of the
 * manifest, and local event source mappings (the table's stream into the
 * outbox relay, each queue into its consumer), all running the same handler
 * code as Lambda. Only configuration differs: the SDK's endpoint variables
 * point at the local emulators and mail goes over SMTP.
 */

export const LOCAL_TABLE_NAME = 'outreach-local';

export interface LocalStackOptions {
  /** HTTP port; 0 picks a free one. */
  port: number;
  /** Keep the data in this folder across restarts; in memory when absent. */
  dataDir?: string;
  /** Use an already running DynamoDB Local instead of starting one (tests share one per run). */
  dynamodbEndpoint?: string;
  tableName?: string;
  /** Write the endpoints file for `outreach-admin` (the interactive stack does; tests don't). */
  writeEndpointsFile?: boolean;
  /** Also keep received mail as .eml files in this folder. */
  mailDir?: string;
  /** Throttle as the deployed stage and usage plans do (default true); the bench turns it off to measure the service. */
  throttling?: boolean;
  /** Sees every response the gateway sends (the contract test checks them). */
  onResponse?: GatewayOptions['onResponse'];
}

/** What `outreach-admin` needs to reach a running local stack. */
export interface LocalEndpoints {
  apiUrl: string;
  region: string;
  tableName: string;
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  queueUrls: Record<QueueName, string>;
  deadLetterQueueUrls: Record<QueueName, string>;
  smtpUrl: string;
}

export interface LocalStack extends LocalEndpoints {
  /** True when the table was created by this start, i.e. the store was empty. */
  freshStore: boolean;
  /** The SMTP sink, whose received messages tests read. */
  smtp: SmtpSink;
  stop(): Promise<void>;
}

/** Points the AWS SDK (and the service's configuration) at local queues and the SMTP sink. */
function configureLocalMessaging(queues: LocalQueues, smtpUrl: string): void {
  process.env.AWS_ENDPOINT_URL_SQS = queues.endpoint;
  for (const [name, definition] of Object.entries(queueDefinitions) as [
    QueueName,
    (typeof queueDefinitions)[QueueName],
  ][]) {
    process.env[definition.urlVariable] = queues.urls[name];
    process.env[deadLetterUrlVariable(name)] = queues.deadLetterUrls[name];
  }
  process.env.MAIL_TRANSPORT = 'smtp';
  process.env.SMTP_URL = smtpUrl;
  // Local retries come back within seconds rather than the deployed minutes.
  process.env.MAIL_RETRY_BASE_SECONDS ??= '1';
  // Webhooks may reach a receiver on this machine over http here, and only here (never set on AWS).
  process.env.WEBHOOK_ALLOW_HTTP_LOOPBACK = 'true';
  process.env.WEBHOOK_RETRY_SCHEDULE_SECONDS ??= '1,2,4,8,16,32,60';
}

/** Points the AWS SDK (and the service's configuration) at the local emulators. */
export function configureLocalEnvironment(dynamodbEndpoint: string, tableName: string): void {
  process.env.AWS_REGION = LOCAL_REGION;
  process.env.AWS_ACCESS_KEY_ID = LOCAL_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = LOCAL_CREDENTIALS.secretAccessKey;
  process.env.AWS_ENDPOINT_URL_DYNAMODB = dynamodbEndpoint;
  process.env.TABLE_NAME = tableName;
  // Metrics go to CloudWatch from Lambda's log; locally they would only fill the terminal.
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
}

async function loadRoutes(): Promise<LocalRoute[]> {
  return Promise.all(
    routes.map(async (route) => {
      const module = (await import(resolve(PROJECT_ROOT, handlerEntry(route)))) as { handler: ProxyHandler };
      return { ...route, invoke: module.handler };
    }),
  );
}

/** Starts the local stack; `stop()` shuts every part down. */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const tableName = options.tableName ?? LOCAL_TABLE_NAME;
  let dynamodb: DynamoDbLocal | undefined;
  let server: Server | undefined;
  let queues: LocalQueues | undefined;
  let smtp: SmtpSink | undefined;
  const pollers: { stop(): Promise<void> }[] = [];
  const stop = async () => {
    if (options.writeEndpointsFile) rmSync(localEndpointsFile(), { force: true });
    if (server) await new Promise((resolve) => server?.close(resolve));
    server?.closeAllConnections();
    await Promise.all(pollers.map((poller) => poller.stop()));
    await queues?.stop();
    await smtp?.stop();
    await dynamodb?.stop();
  };
  const reportError = (error: unknown) => {
    if (process.env.POWERTOOLS_LOG_LEVEL !== 'SILENT')
      console.error(`local event source: ${(error as Error).message}`);
  };
  try {
    let dynamodbEndpoint = options.dynamodbEndpoint;
    if (!dynamodbEndpoint) {
      dynamodb = await startDynamoDbLocal({ dataDir: options.dataDir });
      dynamodbEndpoint = dynamodb.endpoint;
    }
    configureLocalEnvironment(dynamodbEndpoint, tableName);
    const freshStore = (await ensureTable(dynamodbEndpoint, tableName)) === 'created';
    queues = await startLocalQueues(LOCAL_REGION);
    smtp = await startSmtpSink({ saveTo: options.mailDir });
    configureLocalMessaging(queues, smtp.url);

    const [localRoutes, authorizer] = await Promise.all([
      loadRoutes(),
      import('../../functions/authorizer/handler.ts').then((module) => module.handler as AuthorizerHandler),
    ]);
    const relay = (await import('../../functions/stream-relay/handler.ts')).handler as StreamConsumer;
    const tableClient = localDynamoDbClient(dynamodbEndpoint);
    // The local queues keep nothing across a restart, as SQS would. On a kept store, the relay therefore
    // starts from the oldest outbox item the stream still holds: what was queued but not done is queued
    // again, and what was done is a duplicate every consumer drops.
    const startAt = options.dataDir && !freshStore ? 'oldest' : 'now';
    pollers.push(
      await startStreamPoller(tableClient, dynamodbEndpoint, tableName, relay, reportError, startAt),
    );
    const { sqs } = await import('#platform/queue-client.ts');
    for (const [name, definition] of Object.entries(queueDefinitions) as [
      QueueName,
      (typeof queueDefinitions)[QueueName],
    ][]) {
      const consumer = (await import(resolve(PROJECT_ROOT, definition.consumer))).handler as QueueConsumer;
      pollers.push(
        startQueuePoller(sqs, queues.urls[name], consumer, {
          batchSize: definition.batchSize,
          onError: reportError,
        }),
      );
    }
    server = await startGateway(
      {
        routes: localRoutes,
        authorizer,
        throttling: options.throttling === false ? undefined : localThrottling(tableClient, tableName),
        onResponse: options.onResponse,
      },
      options.port,
    );
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    const endpoints: LocalEndpoints = {
      apiUrl: `http://127.0.0.1:${port}`,
      region: LOCAL_REGION,
      tableName,
      dynamodbEndpoint,
      sqsEndpoint: queues.endpoint,
      queueUrls: queues.urls,
      deadLetterQueueUrls: queues.deadLetterUrls,
      smtpUrl: smtp.url,
    };
    if (options.writeEndpointsFile) {
      mkdirSync(dirname(localEndpointsFile()), { recursive: true });
      writeFileSync(localEndpointsFile(), `${JSON.stringify(endpoints, null, 2)}\n`);
    }
    return { ...endpoints, freshStore, smtp, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
