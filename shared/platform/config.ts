import { LOG_LEVELS } from '#definitions/log-levels.ts';
import { METRICS_SERVICE } from '#definitions/metrics.ts';
import {
  DEFAULT_RETRY_SCHEDULE_SECONDS,
  deadLetterUrlVariable,
  MAX_VISIBILITY_SECONDS,
  QUEUE_NAMES,
  QUEUE_URL_VARIABLES,
} from '#definitions/queues.ts';

/**
 * The service's configuration: one typed, validated object per process. On
 * Lambda it is built from the environment the CDK stack sets, once, on first
 * use (`configuration()`); the local stack, the operator CLI and the tests
 * build one themselves and install it (`useConfiguration`) instead of writing
 * to `process.env`. This is the only module of shared/ and functions/ that
 * reads `process.env` (but for the trace header of each invocation, which
 * Lambda sets per invocation: xray.ts); the client factories take
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
  corsAllowedOrigins: 'CORS_ALLOWED_ORIGINS',
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

import { buildConfigurationSchema, type Configuration } from './configuration-schema.ts';

export type { Configuration };

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

/** Web origins (`https://app.example.com`), comma-separated: the `/public/v1` CORS list (docs/deploy.md#cors). */
const ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?$/;
const origins = (raw: string): Reading<string[]> => {
  const list = raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  return list.every((origin) => ORIGIN.test(origin))
    ? { value: list }
    : { rule: 'must be comma-separated origins (scheme://host[:port])' };
};

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
    corsAllowedOrigins: read(VARIABLES.corsAllowedOrigins, origins),
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
