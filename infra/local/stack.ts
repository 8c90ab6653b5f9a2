import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { dirname, resolve } from 'node:path';
import { SQSClient } from '@aws-sdk/client-sqs';
import { localCredentials } from '#admin/local-credentials.ts';
import { type LocalEndpointsFile, localConfiguration, localEndpointsFile } from '#admin/target.ts';
import { type QueueName, queueDefinitions } from '#definitions/queues.ts';
import type { Throttle } from '#definitions/rate-limits.ts';
import { handlerEntry, routes } from '#definitions/routes.ts';
import { type Configuration, loadConfiguration, useConfiguration } from '#platform/config.ts';
import { serviceAwsClient } from '#platform/configured.ts';
import { newLocalKey } from '#platform/secrets.ts';
import { PROVIDERS, type Provider } from '#schemas/import.ts';
import { PROJECT_ROOT } from '../paths.ts';
import { ensureStream, ensureTable, LOCAL_REGION, localDynamoDbClient } from './dynamodb.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './dynamodb-local.ts';
import {
  type AuthorizerHandler,
  type GatewayOptions,
  type LocalRoute,
  type ProxyHandler,
  startGateway,
} from './gateway.ts';
import type { OpenIdProvider } from './openid-provider/index.ts';
import { portFree } from './port.ts';
import {
  type ProviderEmulatorOptions,
  type ProviderEmulators,
  startProviderEmulators,
} from './provider-emulators/index.ts';
import { type SmtpSink, startSmtpSink } from './smtp.ts';
import { type LocalQueues, type QueueConsumer, startLocalQueues, startQueuePoller } from './sqs.ts';
import { type StreamConsumer, startStreamPoller, wakeOnServiceWrites } from './streams.ts';
import { localThrottling } from './usage-plans.ts';

/**
 * The whole service on one machine: DynamoDB Local with the table from the
 * single definition, fauxqs with every queue of the queue definitions, an SMTP
 * sink for outgoing mail, the local API Gateway serving every route of the
 * manifest, and local event source mappings (the table's stream into the
 * outbox relay, each queue into its consumer), all running the same handler
 * code as Lambda. Only configuration differs: the stack installs a
 * configuration object (never `process.env`) that points the clients at the
 * local emulators, sends mail over SMTP and lets webhooks reach this machine.
 */

export const LOCAL_TABLE_NAME = 'outreach-local';
/** The dashboard's client id at the local OpenID provider. */
export const DASHBOARD_CLIENT_ID = 'outreach-dashboard';

export interface LocalStackOptions {
  /** HTTP port; 0 picks a free one. */
  port: number;
  /** Keep the data in this folder across restarts; in memory when absent. */
  dataDir?: string;
  /** Use an already running DynamoDB Local instead of starting one (tests share one per run). */
  dynamodbEndpoint?: string;
  /**
   * A DynamoDB Local the caller has begun to start, for the stack to use and stop as its own (npm
   * start launches its JVM, the slowest part to start, before it loads the stack's code).
   */
  dynamodbLocal?: Promise<DynamoDbLocal>;
  tableName?: string;
  /** Write the endpoints file for `outreach-admin` (the interactive stack does; tests don't). */
  writeEndpointsFile?: boolean;
  /** Also keep received mail as .eml files in this folder. */
  mailDir?: string;
  /** Throttle as the deployed stage and usage plans do (default true); the bench turns it off to measure the service. */
  throttling?: boolean;
  /**
   * The per-address bucket (default the deployed WAF rule's rate). Test stacks, whose every client
   * calls from 127.0.0.1, widen it to the stage's so it does not stand for a single client there.
   */
  clientAddressThrottle?: Throttle;
  /** Sees every response the gateway sends (the contract test checks them). */
  onResponse?: GatewayOptions['onResponse'];
  /** The origins that may call `/public/v1` from a browser, over CORS_ALLOWED_ORIGINS (a test's). */
  corsAllowedOrigins?: readonly string[];
  /** The authorizer cache's TTL (default the deployed 300 s). */
  authorizerCacheSeconds?: number;
  /** How long a handler has (GatewayOptions.invocationTimeoutMs): API Gateway's 29 s unless a test says. */
  invocationTimeoutMs?: number;
  /**
   * Sees each event a function is invoked with, by the function's entry file (the bench replays
   * them into the built bundles to time a cold start's first request).
   */
  onInvoke?: (entry: string, event: unknown) => void;
  /** Run the local OpenID provider for the dashboard's sign-in (default true; test stacks ask for it). */
  openIdProvider?: boolean;
  /**
   * The provider API emulators (infra/local/provider-emulators/): how they play enrolled leads
   * back. Their ports follow the API's (port + 1 … + 4) when it is fixed, else free ones.
   */
  providerEmulators?: Omit<ProviderEmulatorOptions, 'ports' | 'host' | 'rateLimits'>;
  /**
   * Provider rate limits in place of the documented ones, by provider: the emulators enforce them and the
   * service paces its calls to them (the configuration's `providerRateLimits`). For the test stacks whose
   * tests are not about pacing, which would otherwise wait on Smartlead's 60 requests a minute; absent
   * (npm start, the bench), the documented limits.
   */
  providerRateLimits?: Configuration['providerRateLimits'];
  /**
   * Work on the table (npm start's demo seed), begun as soon as the table exists and the
   * configuration is installed, while the rest of the stack starts; the stack is returned once it
   * is done too, and its failure stops the stack. It must queue no work (write no outbox item): a
   * table the stack creates has its stream turned on only once the work is done, because DynamoDB
   * Local writes a third faster without one (the demo seed queues nothing: its organization is new).
   * Requests to the gateway wait for it meanwhile.
   *
   * The stack's own code (handlers, the OpenID provider: about a second of CPU) loads once the work
   * calls `waitsOnTable`, or ends: what the work computes before then (the seed's items) is what
   * DynamoDB Local waits for, so nothing else in this process slows it. The seed calls it when it
   * begins writing its items, which keeps DynamoDB Local busy longer than that loading takes.
   */
  whileStarting?: (store: { freshStore: boolean; waitsOnTable: () => void }) => Promise<void>;
}

/** What `outreach-admin` needs to reach a running local stack (its endpoints file). */
export interface LocalEndpoints extends LocalEndpointsFile {
  apiUrl: string;
  region: string;
  tableName: string;
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  queueUrls: Record<QueueName, string>;
  deadLetterQueueUrls: Record<QueueName, string>;
  smtpUrl: string;
  /** Each provider emulator's API base URL (a connection's `base_url` to use it). */
  providerApiUrls: Record<Provider, string>;
  /**
   * The local OpenID provider the dashboard signs in with (its issuer, the dashboard's client, its admin
   * token); absent when the stack runs without one.
   */
  openIdProvider?: { issuer: string; clientId: string; adminToken: string };
}

export interface LocalStack extends LocalEndpoints {
  /** True when the table was created by this start, i.e. the store was empty. */
  freshStore: boolean;
  /** The SMTP sink, whose received messages tests read. */
  smtp: SmtpSink;
  stop(): Promise<void>;
}

/**
 * The local stack's settings where the environment names none: retries come
 * back within seconds rather than the deployed minutes (the environment's own
 * MAIL_RETRY_BASE_SECONDS or WEBHOOK_RETRY_SCHEDULE_SECONDS still win).
 */
const LOCAL_DEFAULTS = {
  // CloudWatch metric records belong in Lambda's log; locally they would only fill the terminal.
  POWERTOOLS_METRICS_DISABLED: 'true',
  MAIL_RETRY_BASE_SECONDS: '1',
  WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,2,4,8,16,32,60',
} as const;

/**
 * Installs the configuration of a process that uses a table on DynamoDB Local
 * directly, without the rest of the stack (each test file's own table): the
 * environment's settings, pointed at the emulator and the table.
 */
export function useLocalConfiguration(dynamodbEndpoint: string, tableName: string): void {
  const base = loadConfiguration();
  useConfiguration({
    ...base,
    secrets: { localKey: localSecretsKey() },
    aws: {
      region: LOCAL_REGION,
      credentials: localCredentials(),
      endpoints: { ...base.aws.endpoints, dynamodb: dynamodbEndpoint },
    },
    tableName,
  });
}

/** A handler that first shows its event to `onInvoke`, when there is one. */
function watched<Event, Rest extends unknown[], Result>(
  entry: string,
  handler: (event: Event, ...rest: Rest) => Result,
  onInvoke: LocalStackOptions['onInvoke'],
): (event: Event, ...rest: Rest) => Result {
  if (!onInvoke) return handler;
  return (event, ...rest) => {
    onInvoke(entry, event);
    return handler(event, ...rest);
  };
}

/**
 * Every route, its handler loaded on its first request, as Lambda loads a
 * function's code on its first invocation: a start loads none of the forty
 * routes' modules, and a route that is never called never costs its load.
 */
function localRoutesOf(onInvoke: LocalStackOptions['onInvoke']): LocalRoute[] {
  return routes.map((route) => {
    const entry = handlerEntry(route);
    let loaded: Promise<ProxyHandler> | undefined;
    const handler: ProxyHandler = async (event, context) => {
      loaded ??= import(resolve(PROJECT_ROOT, entry)).then(
        (module: { handler: ProxyHandler }) => module.handler,
      );
      return (await loaded)(event, context);
    };
    return { ...route, invoke: watched(entry, handler, onInvoke) };
  });
}

/**
 * The code the stack runs: the routes (their handlers load when first
 * called), the authorizer, the stream relay, each queue's consumer and, when
 * it runs, the OpenID provider (most test stacks do without it). Handlers
 * read the configuration when they are invoked, never when they load, so
 * they load while the emulators start.
 */
async function loadModules(options: Pick<LocalStackOptions, 'onInvoke' | 'openIdProvider'>) {
  const { onInvoke } = options;
  const [authorizer, relay, consumers, openId] = await Promise.all([
    import('../../functions/authorizer/handler.ts').then((module) =>
      watched('functions/authorizer/handler.ts', module.handler as AuthorizerHandler, onInvoke),
    ),
    import('../../functions/stream-relay/handler.ts').then((module) =>
      watched('functions/stream-relay/handler.ts', module.handler as StreamConsumer, onInvoke),
    ),
    Promise.all(
      (Object.keys(queueDefinitions) as QueueName[]).map(async (name) => {
        const { consumer } = queueDefinitions[name];
        const module = await import(resolve(PROJECT_ROOT, consumer));
        return [name, watched(consumer, module.handler as QueueConsumer, onInvoke)] as const;
      }),
    ),
    options.openIdProvider !== false ? import('./openid-provider/index.ts') : undefined,
  ]);
  return {
    localRoutes: localRoutesOf(onInvoke),
    authorizer,
    relay,
    consumers,
    startOpenIdProvider: openId?.startOpenIdProvider,
  };
}

/** Waits for every part started together; the first failure is thrown once none is still starting. */
async function allStarted(parts: Promise<unknown>[]): Promise<void> {
  const outcomes = await Promise.allSettled(parts);
  const failure = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failure) throw failure.reason;
}

/** This process's local secrets key, when no data folder keeps one: one for the whole process. */
let processSecretsKey: string | undefined;

/**
 * The local stack's secrets key (shared/platform/secrets.ts): kept in the data
 * folder when there is one, so provider connections and their webhook URLs
 * survive a restart; otherwise one per process (the stack and the tests of a
 * file share it).
 */
export function localSecretsKey(dataDir?: string): string {
  if (!dataDir) {
    processSecretsKey ??= newLocalKey();
    return processSecretsKey;
  }
  const file = resolve(dataDir, 'secrets.key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, newLocalKey(), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}

/** Starts the local stack; `stop()` shuts every part down. */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const tableName = options.tableName ?? LOCAL_TABLE_NAME;
  // The environment's settings (checked before anything starts), which the emulators' endpoints complete.
  const loaded = loadConfiguration(process.env, LOCAL_DEFAULTS);
  const base = {
    ...loaded,
    ...(options.corsAllowedOrigins && { corsAllowedOrigins: [...options.corsAllowedOrigins] }),
    ...(options.providerRateLimits && { providerRateLimits: options.providerRateLimits }),
  };
  // A busy port is said at once, not after DynamoDB Local and the emulators have started and stopped.
  if (options.port !== 0) await portFree(options.port);
  const endpointsFile = localEndpointsFile(base.admin.localDir);
  let dynamodb: DynamoDbLocal | undefined;
  let server: Server | undefined;
  let queues: LocalQueues | undefined;
  let smtp: SmtpSink | undefined;
  let providers: ProviderEmulators | undefined;
  let openId: OpenIdProvider | undefined;
  let pollerClient: SQSClient | undefined;
  const pollers: { stop(): Promise<void> }[] = [];
  let stopWakingRelay: () => void = () => undefined;
  // Only a stack that wrote the endpoints file removes it: a start that failed (a busy port) leaves the
  // file of the stack already running from this folder alone.
  let wroteEndpointsFile = false;
  const stop = async () => {
    if (wroteEndpointsFile) rmSync(endpointsFile, { force: true });
    if (server) await new Promise((resolve) => server?.close(resolve));
    server?.closeAllConnections();
    stopWakingRelay();
    await Promise.all(pollers.map((poller) => poller.stop()));
    pollerClient?.destroy();
    await queues?.stop();
    await smtp?.stop();
    await providers?.stop();
    await openId?.stop();
    await dynamodb?.stop();
  };
  const reportError = (error: unknown) => {
    if (base.observability.logLevel !== 'SILENT')
      console.error(`local event source: ${(error as Error).message}`);
  };
  // The modules load in this process while DynamoDB Local's JVM starts in its own; when there is work on
  // the table (whileStarting), once that work waits on the table.
  let workWaitsOnTable: () => void = () => undefined;
  const modulesMayLoad = options.whileStarting
    ? new Promise<void>((resolve) => {
        workWaitsOnTable = resolve;
      })
    : Promise.resolve();
  const modules = modulesMayLoad.then(() => loadModules(options));
  // The work does not wait for the provider emulators either.
  const providersStarted = startProviderEmulators({
    ...options.providerEmulators,
    rateLimits: options.providerRateLimits,
    ports:
      options.port === 0
        ? {}
        : Object.fromEntries(PROVIDERS.map((name, index) => [name, options.port + 1 + index])),
  }).then((started) => {
    providers = started;
  });
  // Awaited once the work has begun; a failure before then must not go unhandled meanwhile.
  modules.catch(() => undefined);
  providersStarted.catch(() => undefined);

  try {
    let dynamodbEndpoint = options.dynamodbEndpoint;
    let freshStore = false;
    await allStarted([
      (dynamodbEndpoint
        ? Promise.resolve(dynamodbEndpoint)
        : (options.dynamodbLocal ?? startDynamoDbLocal({ dataDir: options.dataDir })).then((started) => {
            dynamodb = started;
            dynamodbEndpoint = started.endpoint;
            return started.endpoint;
          })
      )
        // The table is made as soon as DynamoDB Local answers, while the other emulators start.
        .then(async (endpoint) => {
          const table = await ensureTable(endpoint, tableName, { stream: !options.whileStarting });
          freshStore = table === 'created';
        }),
      startLocalQueues(LOCAL_REGION).then((started) => {
        queues = started;
      }),
      startSmtpSink({ saveTo: options.mailDir }).then((started) => {
        smtp = started;
      }),
    ]);
    if (!dynamodbEndpoint || !queues || !smtp) throw new Error('The local stack did not start');
    const emulators: LocalEndpointsFile = {
      secretsKey: localSecretsKey(options.dataDir),
      region: LOCAL_REGION,
      tableName,
      dynamodbEndpoint,
      sqsEndpoint: queues.endpoint,
      queueUrls: queues.urls,
      deadLetterQueueUrls: queues.deadLetterUrls,
      smtpUrl: smtp.url,
    };
    // The handlers below run in this process with this configuration, as outreach-admin does against it.
    useConfiguration(localConfiguration(base, emulators));
    const work = options.whileStarting
      ? options
          .whileStarting({ freshStore, waitsOnTable: workWaitsOnTable })
          .finally(workWaitsOnTable)
          // Also on a kept store: one whose first start stopped during its work has no stream yet.
          .then(() => ensureStream(emulators.dynamodbEndpoint, tableName))
      : Promise.resolve();
    // Awaited once the rest has started; a failure before then must not go unhandled meanwhile.
    work.catch(() => undefined);

    await allStarted([providersStarted, modules]);
    if (!providers) throw new Error('The local stack did not start');
    const { localRoutes, authorizer, relay, consumers, startOpenIdProvider } = await modules;
    const tableClient = localDynamoDbClient(dynamodbEndpoint);
    // The event source mappings poll with a client of their own, as Lambda's do.
    // Without the SDK's logger middleware, which would walk every ReceiveMessage answer (streams.ts).
    pollerClient = serviceAwsClient(
      new SQSClient({ endpoint: queues.endpoint, region: LOCAL_REGION, credentials: localCredentials() }),
    );
    for (const [name, consumer] of consumers) {
      pollers.push(
        startQueuePoller(pollerClient, queues.urls[name], consumer, {
          batchSize: queueDefinitions[name].batchSize,
          onError: reportError,
        }),
      );
    }
    server = await startGateway(
      {
        routes: localRoutes,
        authorizer,
        throttling:
          options.throttling === false
            ? undefined
            : localThrottling(tableClient, tableName, options.clientAddressThrottle),
        onResponse: options.onResponse,
        authorizerCacheSeconds: options.authorizerCacheSeconds,
        invocationTimeoutMs: options.invocationTimeoutMs,
        heldUntil: work,
        corsAllowedOrigins: base.corsAllowedOrigins,
      },
      options.port,
    );
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    const apiUrl = `http://127.0.0.1:${port}`;
    // The dashboard's sign-in: a real OpenID provider on the port after the emulators', whose one client
    // is the dashboard at this gateway (so it starts once the gateway's port is known).
    let openIdProvider: LocalEndpoints['openIdProvider'];
    if (startOpenIdProvider) {
      const adminToken = randomBytes(32).toString('base64url');
      openId = await startOpenIdProvider({
        port: options.port === 0 ? 0 : options.port + 1 + PROVIDERS.length,
        dataDir: options.dataDir,
        adminToken,
        clients: [{ clientId: DASHBOARD_CLIENT_ID, redirectUris: [`${apiUrl}/dashboard/callback`] }],
      });
      openIdProvider = { issuer: openId.issuer, clientId: DASHBOARD_CLIENT_ID, adminToken };
      useConfiguration(localConfiguration(base, { ...emulators, openIdProvider }));
    }
    const endpoints: LocalEndpoints = {
      secretsKey: emulators.secretsKey,
      apiUrl,
      region: LOCAL_REGION,
      tableName,
      dynamodbEndpoint,
      sqsEndpoint: queues.endpoint,
      queueUrls: queues.urls,
      deadLetterQueueUrls: queues.deadLetterUrls,
      smtpUrl: smtp.url,
      providerApiUrls: providers.urls,
      openIdProvider,
    };
    await work;
    // The local queues keep nothing across a restart, as SQS would. On a kept store, the relay therefore
    // starts from the oldest outbox item the stream still holds: what was queued but not done is queued
    // again, and what was done is a duplicate every consumer drops. After work on a new table, it starts
    // from the first record of the stream turned on since, before any request is let through.
    const startAt =
      (options.dataDir && !freshStore) || (freshStore && options.whileStarting) ? 'oldest' : 'now';
    const relayPoller = await startStreamPoller(tableClient, dynamodbEndpoint, tableName, relay, {
      onError: reportError,
      startAt,
    });
    pollers.push(relayPoller);
    stopWakingRelay = await wakeOnServiceWrites(relayPoller);
    // Written once the stack is complete: `outreach-admin` finds it from then on.
    if (options.writeEndpointsFile) {
      mkdirSync(dirname(endpointsFile), { recursive: true });
      // It holds the local secrets key: readable by this user only.
      writeFileSync(endpointsFile, `${JSON.stringify(endpoints, null, 2)}\n`, { mode: 0o600 });
      wroteEndpointsFile = true;
    }
    return { ...endpoints, freshStore, smtp, stop };
  } catch (error) {
    // The provider emulators are stopped too, once they have started (the modules hold nothing to stop).
    await Promise.allSettled([providersStarted]);
    await stop();
    throw error;
  }
}
