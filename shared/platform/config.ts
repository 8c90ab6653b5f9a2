import * as z from 'zod/mini';
import '#definitions/zod-english.ts';
import { METRICS_SERVICE } from '#definitions/metrics.ts';
import {
  DEFAULT_RETRY_SCHEDULE_SECONDS,
  deadLetterUrlVariable,
  MAX_VISIBILITY_SECONDS,
  QUEUE_URL_VARIABLES,
  type QueueName,
} from '#definitions/queues.ts';

/**
 * The service's configuration: one typed, validated object per process. On
 * Lambda it is built from the environment the CDK stack sets, once, on first
 * use (`configuration()`); the local stack, the operator CLI and the tests
 * build one themselves and install it (`useConfiguration`) instead of writing
 * to `process.env`. This is the only module of shared/ and functions/ that
 * reads `process.env` (but for the trace header of each invocation, which
 * Lambda sets per invocation: xray.ts, logger.ts); the client factories take
 * their settings from the object and build their clients on first use, so
 * importing a module never reads configuration. docs/deploy.md#configuration
 * lists every setting.
 *
 * Every function imports this module, so what it costs a bundle counts
 * everywhere: the environment is checked variable by variable with a few
 * lines of its own, and the zod schema of the whole object, which installed
 * configurations are checked against, is built only when one is installed,
 * so that no function bundle carries it (docs/architecture.md, Bundles).
 */

/** Each setting's environment variable: the names the CDK stack sets on Lambda (do not rename). */
export const VARIABLES = {
  region: 'AWS_REGION',
  dynamodbEndpoint: 'AWS_ENDPOINT_URL_DYNAMODB',
  sqsEndpoint: 'AWS_ENDPOINT_URL_SQS',
  tableName: 'TABLE_NAME',
  mailTransport: 'MAIL_TRANSPORT',
  smtpUrl: 'SMTP_URL',
  mailDefaultFrom: 'MAIL_DEFAULT_FROM',
  mailMessageIdDomain: 'MAIL_MESSAGE_ID_DOMAIN',
  mailRetryBaseSeconds: 'MAIL_RETRY_BASE_SECONDS',
  webhookAllowHttpLoopback: 'WEBHOOK_ALLOW_HTTP_LOOPBACK',
  webhookRetrySchedule: 'WEBHOOK_RETRY_SCHEDULE_SECONDS',
  publicBaseUrl: 'PUBLIC_BASE_URL',
  localDir: 'OUTREACH_LOCAL_DIR',
  demoAccounts: 'OUTREACH_DEMO_ACCOUNTS',
  restApiId: 'API_GATEWAY_REST_API_ID',
  stage: 'API_GATEWAY_STAGE',
  defaultUsagePlanId: 'DEFAULT_USAGE_PLAN_ID',
  secretsKmsKeyId: 'SECRETS_KMS_KEY_ID',
  secretsMacKeyId: 'SECRETS_MAC_KEY_ID',
  secretsLocalKey: 'SECRETS_LOCAL_KEY',
  dashboardOidcIssuer: 'DASHBOARD_OIDC_ISSUER',
  dashboardOidcClientId: 'DASHBOARD_OIDC_CLIENT_ID',
  dashboardSecureCookies: 'DASHBOARD_SECURE_COOKIES',
  userPoolId: 'COGNITO_USER_POOL_ID',
  // Read by Powertools, whose conventions the logger, metrics and traces keep, and set by Lambda.
  logLevel: 'POWERTOOLS_LOG_LEVEL',
  lambdaLogLevel: 'AWS_LAMBDA_LOG_LEVEL',
  serviceName: 'POWERTOOLS_SERVICE_NAME',
  metricsDisabled: 'POWERTOOLS_METRICS_DISABLED',
  tracingEnabled: 'POWERTOOLS_TRACE_ENABLED',
  xrayDaemonAddress: 'AWS_XRAY_DAEMON_ADDRESS',
} as const;

/**
 * The X-Ray trace header Lambda sets for the current invocation: per
 * invocation, so read when a trace or a log record starts, never kept in the
 * configuration built once.
 */
export const invocationTraceHeader = (): string | undefined => process.env._X_AMZN_TRACE_ID;

/** The logger's levels, least severe first; SILENT writes nothing (the tests). */
export const LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const QUEUE_NAMES = Object.keys(QUEUE_URL_VARIABLES) as [QueueName, ...QueueName[]];

/**
 * The schema of the configuration, which an installed configuration is
 * checked against (`useConfiguration`). Built on that first call rather than
 * at import: Lambda functions load theirs from the environment, checked
 * variable by variable (`loadConfiguration`), and so never need it.
 */
function buildConfigurationSchema() {
  const text = z.string().check(z.minLength(1));
  const url = z.url();

  const mailSchema = z
    .strictObject({
      /** `ses` on AWS; `smtp` (with `smtpUrl`) for the local stack's sink. */
      transport: z.enum(['ses', 'smtp']),
      smtpUrl: z.optional(url),
      /** The sender of a reply before any mailbox has written to the contact. */
      defaultFrom: text,
      /** The right-hand side of the Message-IDs of replies. */
      messageIdDomain: text,
      /** The first retry of a failed send waits about this long, doubling up to 15 minutes. */
      retryBaseSeconds: z.int().check(z.positive()),
    })
    .check(
      z.refine((mail) => mail.transport !== 'smtp' || mail.smtpUrl !== undefined, {
        message: 'the smtp transport needs an SMTP URL',
        path: ['smtpUrl'],
      }),
    );

  return z.strictObject({
    /** Where the AWS clients go; what is absent is left to the SDK's own resolution (Lambda's role, a profile). */
    aws: z.strictObject({
      region: z.optional(text),
      /** Explicit credentials: the local stack's and the CLI's for it. Never set on Lambda. */
      credentials: z.optional(
        z.strictObject({ accessKeyId: text, secretAccessKey: text, sessionToken: z.optional(text) }),
      ),
      endpoints: z.strictObject({ dynamodb: z.optional(url), sqs: z.optional(url) }),
    }),
    /** The single table; absent for the functions that use none (`tableName()` then throws). */
    tableName: z.optional(text),
    /** Each queue's URL (the functions that send to it or consume it) and its dead-letter queue's (the CLI). */
    queues: z.record(
      z.enum(QUEUE_NAMES),
      z.strictObject({ url: z.optional(url), deadLetterUrl: z.optional(url) }),
    ),
    mail: mailSchema,
    webhooks: z.strictObject({
      /** http to loopback receivers: the local stack only, never on AWS. */
      allowHttpLoopback: z.boolean(),
      retryScheduleSeconds: z
        .array(z.int().check(z.gte(0), z.lte(MAX_VISIBILITY_SECONDS)))
        .check(z.minLength(1)),
    }),
    /** The API's own URL (a custom domain); absent, it is taken from each request's context. */
    publicBaseUrl: z.optional(url),
    /**
     * The keys of secrets at rest (shared/platform/secrets.ts): on AWS the KMS key that wraps the data keys
     * of provider API keys and the KMS HMAC key of provider webhook URLs; in the local stack and tests one
     * local key (32 bytes, base64) does both. The local key wins when both are set.
     */
    secrets: z.strictObject({
      kmsKeyId: z.optional(text),
      macKeyId: z.optional(text),
      localKey: z.optional(
        z.base64().check(z.refine((value) => Buffer.from(value, 'base64').length === 32, 'must be 32 bytes')),
      ),
    }),
    /**
     * The dashboard's sign-in: the OpenID provider (Cognito's user pool on AWS, the local provider of
     * `npm start`) and the dashboard's client at it. Without them the dashboard answers that sign-in is
     * not configured.
     */
    dashboard: z.strictObject({
      oidcIssuer: z.optional(url),
      oidcClientId: z.optional(text),
      /** Cookies marked Secure: always on AWS (https); the local stack serves http on 127.0.0.1. */
      secureCookies: z.boolean(),
    }),
    /** The operator CLI's settings. */
    admin: z.strictObject({
      /** The folder of a running local stack's endpoints file. */
      localDir: text,
      /** The deployed API and its default usage plan, for the organizations' rate limits. */
      deployedApi: z.optional(z.strictObject({ restApiId: text, stage: text, defaultUsagePlanId: text })),
      /** Accounts in the demo seed (five contacts each); absent, the full demo. */
      demoAccounts: z.optional(z.int().check(z.positive())),
      /**
       * Where `member add` creates people: the deployed stack's Cognito user pool, or the local
       * OpenID provider's admin API (its URL and bearer token, from the endpoints file).
       */
      identityDirectory: z.optional(
        z.discriminatedUnion('kind', [
          z.strictObject({ kind: z.literal('cognito'), userPoolId: text }),
          z.strictObject({ kind: z.literal('local'), url, token: text }),
        ]),
      ),
    }),
    /** The logger's level and service, the metrics switch, and where traces go (logger.ts, observability.ts, xray.ts). */
    observability: z.strictObject({
      logLevel: z.enum(LOG_LEVELS),
      serviceName: text,
      /** CloudWatch embedded-metric records; off in the local stack and the tests. */
      metrics: z.boolean(),
      /** X-Ray subsegments, sent when there is a daemon and the invocation is sampled. */
      tracing: z.boolean(),
      xrayDaemon: z.optional(
        z.strictObject({ host: text, port: z.int().check(z.positive(), z.lte(65_535)) }),
      ),
    }),
  });
}

export type Configuration = z.infer<ReturnType<typeof buildConfigurationSchema>>;

/** A configuration that cannot be used; the message names each setting and what is wrong with it. */
export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
}

/** Environment variables by name (`process.env`, or a plain object). */
export type Environment = Readonly<Record<string, string | undefined>>;

const problem = (name: string, rule: string, raw: string) => `${name} ${rule}, got ${JSON.stringify(raw)}`;

/**
 * Parses a webhook retry schedule such as `1,1,2` (WEBHOOK_RETRY_SCHEDULE_SECONDS:
 * local stacks and tests retry within seconds); the default when absent.
 */
export function parseRetrySchedule(raw: string | undefined): number[] {
  if (raw === undefined || raw.trim() === '') return [...DEFAULT_RETRY_SCHEDULE_SECONDS];
  const steps = raw.split(',').map((part) => Number(part.trim()));
  if (steps.some((step) => !Number.isSafeInteger(step) || step < 0 || step > MAX_VISIBILITY_SECONDS)) {
    throw new ConfigurationError(
      problem(
        VARIABLES.webhookRetrySchedule,
        `must be comma-separated whole seconds from 0 to ${MAX_VISIBILITY_SECONDS}`,
        raw,
      ),
    );
  }
  return steps;
}

/** A variable's value, or the rule it breaks: what each setting read from the environment is checked with. */
type Reading<T> = { value: T } | { rule: string };

const positiveInteger = (raw: string): Reading<number> =>
  /^[0-9]{1,9}$/.test(raw) && Number(raw) > 0
    ? { value: Number(raw) }
    : { rule: 'must be a positive integer' };

/** A URL as zod's `z.url()` takes one: trimmed, parseable, then without the tabs and line breaks URL parsing ignores. */
function urlValue(raw: string): Reading<string> {
  const trimmed = raw.trim();
  return URL.canParse(trimmed) ? { value: trimmed.replace(/[\t\n\r]/g, '') } : { rule: 'must be a URL' };
}

const flag = (raw: string): Reading<boolean> =>
  raw === 'true' || raw === 'false' ? { value: raw === 'true' } : { rule: 'must be true or false' };

const mailTransport = (raw: string): Reading<'ses' | 'smtp'> =>
  raw === 'ses' || raw === 'smtp' ? { value: raw } : { rule: 'must be ses or smtp' };

/** Standard base64 (with padding), as zod's `z.base64()` takes it. */
const BASE64 = /^(?:[0-9a-zA-Z+/]{4})*(?:(?:[0-9a-zA-Z+/]{2}==)|(?:[0-9a-zA-Z+/]{3}=))?$/;
const LOCAL_KEY_BYTES = 32;

/** The daemon's UDP address: `host:port`, or `tcp:host:port udp:host:port` as Lambda sets it. */
function xrayDaemonAddress(setting: string | undefined): Configuration['observability']['xrayDaemon'] {
  if (!setting) return undefined;
  const udp = setting.split(' ').find((part) => part.startsWith('udp:')) ?? setting;
  const match = /^(?:udp:)?([^:\s]+):(\d+)$/.exec(udp);
  const port = Number(match?.[2]);
  return match && port > 0 && port <= 65_535 ? { host: match[1]!, port } : undefined;
}

/**
 * The logger's, the metrics' and the traces' settings, read as Powertools
 * reads its own: never refused (an unknown log level is INFO, as it was), so
 * that they can be had even when the rest of the configuration cannot.
 */
function loadObservability(raw: (name: string) => string | undefined): Configuration['observability'] {
  const level = (raw(VARIABLES.logLevel) ?? raw(VARIABLES.lambdaLogLevel) ?? 'INFO').toUpperCase();
  return {
    logLevel: LOG_LEVELS.find((known) => known === level) ?? 'INFO',
    serviceName: raw(VARIABLES.serviceName) ?? METRICS_SERVICE,
    metrics: raw(VARIABLES.metricsDisabled) !== 'true',
    tracing: raw(VARIABLES.tracingEnabled) !== 'false',
    xrayDaemon: xrayDaemonAddress(raw(VARIABLES.xrayDaemonAddress)),
  };
}

/** The variables of `env`, an unset or empty one taken from `defaults`, else absent. */
const variablesOf =
  (env: Environment, defaults: Environment = {}) =>
  (name: string): string | undefined =>
    env[name] || defaults[name] || undefined;

/**
 * Builds the configuration from environment variables, validated: every
 * problem is reported at once, naming its variable. A variable that is unset
 * or empty takes its value from `defaults` (the local stack's), then the
 * setting's own default. Each variable is checked as it is read, so what
 * this returns satisfies the configuration's schema without being checked
 * against it again.
 */
export function loadConfiguration(env: Environment = process.env, defaults: Environment = {}): Configuration {
  const problems: string[] = [];
  const raw = variablesOf(env, defaults);
  function read<T>(name: string, check: (value: string) => Reading<T>): T | undefined {
    const value = raw(name);
    if (value === undefined) return undefined;
    const reading = check(value);
    if ('value' in reading) return reading.value;
    problems.push(problem(name, reading.rule, value));
    return undefined;
  }
  const string = (name: string) => raw(name);
  const urlVariable = (name: string) => read(name, urlValue);

  let retryScheduleSeconds: number[] = [...DEFAULT_RETRY_SCHEDULE_SECONDS];
  try {
    retryScheduleSeconds = parseRetrySchedule(raw(VARIABLES.webhookRetrySchedule));
  } catch (error) {
    problems.push((error as Error).message);
  }
  const transport = read(VARIABLES.mailTransport, mailTransport) ?? 'ses';
  const smtpUrl = urlVariable(VARIABLES.smtpUrl);
  if (transport === 'smtp' && smtpUrl === undefined && raw(VARIABLES.smtpUrl) === undefined) {
    problems.push(`${VARIABLES.smtpUrl} is required when ${VARIABLES.mailTransport} is smtp`);
  }
  const localKey = string(VARIABLES.secretsLocalKey);
  // Not quoted, unlike other values: it is a secret.
  if (
    localKey !== undefined &&
    !(BASE64.test(localKey) && Buffer.from(localKey, 'base64').length === LOCAL_KEY_BYTES)
  ) {
    problems.push(`${VARIABLES.secretsLocalKey} must be ${LOCAL_KEY_BYTES} bytes in base64`);
  }
  const restApiId = string(VARIABLES.restApiId);
  const stage = string(VARIABLES.stage);
  const defaultUsagePlanId = string(VARIABLES.defaultUsagePlanId);
  const userPoolId = string(VARIABLES.userPoolId);

  const configuration: Configuration = {
    aws: {
      region: string(VARIABLES.region),
      endpoints: {
        dynamodb: urlVariable(VARIABLES.dynamodbEndpoint),
        sqs: urlVariable(VARIABLES.sqsEndpoint),
      },
    },
    tableName: string(VARIABLES.tableName),
    queues: Object.fromEntries(
      QUEUE_NAMES.map((queue) => [
        queue,
        {
          url: urlVariable(QUEUE_URL_VARIABLES[queue]),
          deadLetterUrl: urlVariable(deadLetterUrlVariable(queue)),
        },
      ]),
    ) as Configuration['queues'],
    mail: {
      transport,
      smtpUrl,
      defaultFrom: string(VARIABLES.mailDefaultFrom) ?? 'outreach@localhost',
      messageIdDomain: string(VARIABLES.mailMessageIdDomain) ?? 'outreach.local',
      retryBaseSeconds: read(VARIABLES.mailRetryBaseSeconds, positiveInteger) ?? 30,
    },
    webhooks: {
      allowHttpLoopback: read(VARIABLES.webhookAllowHttpLoopback, flag) ?? false,
      retryScheduleSeconds,
    },
    publicBaseUrl: urlVariable(VARIABLES.publicBaseUrl),
    secrets: {
      kmsKeyId: string(VARIABLES.secretsKmsKeyId),
      macKeyId: string(VARIABLES.secretsMacKeyId),
      localKey,
    },
    dashboard: {
      oidcIssuer: urlVariable(VARIABLES.dashboardOidcIssuer),
      oidcClientId: string(VARIABLES.dashboardOidcClientId),
      secureCookies: read(VARIABLES.dashboardSecureCookies, flag) ?? true,
    },
    admin: {
      localDir: string(VARIABLES.localDir) ?? '.local',
      deployedApi:
        restApiId && stage && defaultUsagePlanId ? { restApiId, stage, defaultUsagePlanId } : undefined,
      demoAccounts: read(VARIABLES.demoAccounts, positiveInteger),
      identityDirectory: userPoolId ? { kind: 'cognito', userPoolId } : undefined,
    },
    observability: loadObservability(raw),
  };
  if (problems.length > 0) throw new ConfigurationError(`Invalid configuration: ${problems.join('; ')}`);
  return deepFreeze(configuration);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

let configurationSchema: ReturnType<typeof buildConfigurationSchema> | undefined;

/** The configuration checked against the schema, as a frozen copy. */
function validated(candidate: Configuration): Configuration {
  configurationSchema ??= buildConfigurationSchema();
  const parsed = configurationSchema.safeParse(candidate);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
    throw new ConfigurationError(`Invalid configuration: ${issues.join('; ')}`);
  }
  return deepFreeze(parsed.data);
}

let current: Configuration | undefined;

/**
 * The process's configuration: the one installed with `useConfiguration`, or
 * else the environment's, built on the first call and kept.
 */
export function configuration(): Configuration {
  current ??= loadConfiguration();
  return current;
}

/**
 * The observability settings of the process's configuration, or the
 * environment's own when the configuration cannot be loaded: the logger has
 * to be able to report that too.
 */
export function observabilitySettings(): Configuration['observability'] {
  try {
    return configuration().observability;
  } catch {
    return loadObservability(variablesOf(process.env));
  }
}

/**
 * Installs `config` (validated, frozen) as the process's configuration: the
 * local stack, the CLI (its target) and tests do, before or between uses. The
 * clients built from the previous one are built again on their next use where
 * the settings they depend on changed. Returns the installed configuration.
 */
export function useConfiguration(config: Configuration): Configuration {
  current = validated(config);
  return current;
}

/** Name of the single DynamoDB table (TABLE_NAME on Lambda, the local stack's own table locally). */
export function tableName(): string {
  const name = configuration().tableName;
  if (name === undefined) {
    throw new ConfigurationError(`The configuration names no table (${VARIABLES.tableName})`);
  }
  return name;
}
