import { afterAll, describe, expect, it } from 'vitest';
import { localConfiguration } from '#admin/target.ts';
import { DEFAULT_RETRY_SCHEDULE_SECONDS } from '#definitions/queues.ts';
import {
  type Configuration,
  ConfigurationError,
  configuration,
  loadConfiguration,
  tableName,
  useConfiguration,
} from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { queueUrl, sqs } from '#platform/queue-client.ts';
import { configuredUrlPolicy } from '#platform/ssrf.ts';

/**
 * The one configuration: built from the environment the CDK stack sets (or
 * installed by the local stack, the CLI and tests), validated, and the only
 * source of the clients' settings.
 */

/** What the CDK stack sets on a queue consumer, plus what Lambda itself sets. */
const LAMBDA_ENVIRONMENT = {
  AWS_REGION: 'eu-west-1',
  TABLE_NAME: 'OutreachPublicApi-prod-Table',
  MAIL_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/mail',
  WEBHOOKS_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/webhooks',
  MAIL_DEFAULT_FROM: 'outreach@example.com',
  MAIL_MESSAGE_ID_DOMAIN: 'outreach.example.com',
  PUBLIC_BASE_URL: 'https://api.example.com',
  SECRETS_KMS_KEY_ID: 'arn:aws:kms:eu-west-1:123456789012:key/secrets',
  SECRETS_MAC_KEY_ID: 'arn:aws:kms:eu-west-1:123456789012:key/mac',
  DASHBOARD_OIDC_ISSUER: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Example',
  DASHBOARD_OIDC_CLIENT_ID: 'dashboardclient',
  // Not the service's: Powertools and the runtime read their own.
  POWERTOOLS_SERVICE_NAME: 'outreach-public-api',
  NODE_OPTIONS: '--enable-source-maps',
};

const environment = configuration();
afterAll(() => {
  useConfiguration(environment);
});

async function endpointOf(client: {
  config: { endpoint?: () => Promise<{ hostname?: string; port?: number }> };
}) {
  const endpoint = await client.config.endpoint?.();
  return endpoint ? `${endpoint.hostname}:${endpoint.port}` : undefined;
}

describe('loading the configuration from the environment', () => {
  it('reads the variables the CDK stack sets, and defaults the rest', () => {
    const config = loadConfiguration(LAMBDA_ENVIRONMENT);
    expect(config).toEqual({
      aws: { region: 'eu-west-1', endpoints: {} },
      tableName: 'OutreachPublicApi-prod-Table',
      queues: {
        mail: { url: LAMBDA_ENVIRONMENT.MAIL_QUEUE_URL },
        webhooks: { url: LAMBDA_ENVIRONMENT.WEBHOOKS_QUEUE_URL },
        providerEvents: {},
        enrollment: {},
      },
      mail: {
        transport: 'ses',
        defaultFrom: 'outreach@example.com',
        messageIdDomain: 'outreach.example.com',
        retryBaseSeconds: 30,
      },
      webhooks: { allowHttpLoopback: false, retryScheduleSeconds: [...DEFAULT_RETRY_SCHEDULE_SECONDS] },
      publicBaseUrl: 'https://api.example.com',
      secrets: {
        kmsKeyId: LAMBDA_ENVIRONMENT.SECRETS_KMS_KEY_ID,
        macKeyId: LAMBDA_ENVIRONMENT.SECRETS_MAC_KEY_ID,
      },
      dashboard: {
        oidcIssuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Example',
        oidcClientId: 'dashboardclient',
        secureCookies: true,
      },
      admin: { localDir: '.local' },
      observability: {
        logLevel: 'INFO',
        serviceName: 'outreach-public-api',
        metrics: true,
        tracing: true,
      },
    } satisfies Configuration);
  });

  it('loads what the configuration’s schema accepts, without checking it against the schema again', () => {
    for (const env of [
      LAMBDA_ENVIRONMENT,
      {},
      { SECRETS_LOCAL_KEY: Buffer.alloc(32, 7).toString('base64') },
    ]) {
      const loaded = loadConfiguration(env);
      expect(useConfiguration(loaded)).toEqual(loaded);
    }
  });

  it('reads the logger’s, the metrics’ and the traces’ settings as Powertools and Lambda name them', () => {
    expect(
      loadConfiguration({
        POWERTOOLS_LOG_LEVEL: 'warn',
        AWS_LAMBDA_LOG_LEVEL: 'DEBUG',
        POWERTOOLS_SERVICE_NAME: 'another',
        POWERTOOLS_METRICS_DISABLED: 'true',
        POWERTOOLS_TRACE_ENABLED: 'false',
        AWS_XRAY_DAEMON_ADDRESS: '169.254.79.129:2000',
      }).observability,
    ).toEqual({
      logLevel: 'WARN',
      serviceName: 'another',
      metrics: false,
      tracing: false,
      xrayDaemon: { host: '169.254.79.129', port: 2000 },
    });
    const lambda = loadConfiguration({
      AWS_LAMBDA_LOG_LEVEL: 'ERROR',
      AWS_XRAY_DAEMON_ADDRESS: 'tcp:127.0.0.1:2001 udp:127.0.0.2:2000',
    }).observability;
    expect(lambda).toMatchObject({ logLevel: 'ERROR', xrayDaemon: { host: '127.0.0.2', port: 2000 } });
    // Never refused, as Powertools never refused them: an unknown level is INFO, an unreadable address none.
    expect(
      loadConfiguration({ POWERTOOLS_LOG_LEVEL: 'FATAL', AWS_XRAY_DAEMON_ADDRESS: 'nowhere' }).observability,
    ).toMatchObject({ logLevel: 'INFO', xrayDaemon: undefined });
  });

  it('refuses a local secrets key that is not 32 bytes of base64, without quoting it', () => {
    for (const key of ['not base64!', Buffer.alloc(16).toString('base64')]) {
      expect(() => loadConfiguration({ SECRETS_LOCAL_KEY: key })).toThrow(
        /^Invalid configuration: SECRETS_LOCAL_KEY must be 32 bytes in base64$/,
      );
    }
  });

  it('needs nothing: a function without a table or queues loads, and says what is missing when used', () => {
    const config = loadConfiguration({});
    expect(config.tableName).toBeUndefined();
    expect(config.mail).toMatchObject({
      defaultFrom: 'outreach@localhost',
      messageIdDomain: 'outreach.local',
    });
    useConfiguration(config);
    expect(() => tableName()).toThrow('The configuration names no table (TABLE_NAME)');
    expect(() => queueUrl('webhooks')).toThrow(/WEBHOOKS_QUEUE_URL/);
  });

  it('reads the local and operator settings', () => {
    const config = loadConfiguration({
      AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:8000',
      AWS_ENDPOINT_URL_SQS: 'http://127.0.0.1:9324',
      MAIL_TRANSPORT: 'smtp',
      SMTP_URL: 'smtp://127.0.0.1:2525',
      MAIL_RETRY_BASE_SECONDS: '1',
      WEBHOOK_ALLOW_HTTP_LOOPBACK: 'true',
      WEBHOOK_RETRY_SCHEDULE_SECONDS: '1, 2,4',
      WEBHOOKS_QUEUE_DEAD_LETTER_URL: 'http://127.0.0.1:9324/000000000000/webhooks-dlq',
      OUTREACH_LOCAL_DIR: '/tmp/outreach',
      OUTREACH_DEMO_ACCOUNTS: '20',
      API_GATEWAY_REST_API_ID: 'abc123',
      API_GATEWAY_STAGE: 'prod',
      DEFAULT_USAGE_PLAN_ID: 'plan',
      COGNITO_USER_POOL_ID: 'eu-west-1_Example',
      DASHBOARD_SECURE_COOKIES: 'false',
    });
    expect(config.aws.endpoints).toEqual({ dynamodb: 'http://127.0.0.1:8000', sqs: 'http://127.0.0.1:9324' });
    expect(config.mail).toMatchObject({
      transport: 'smtp',
      smtpUrl: 'smtp://127.0.0.1:2525',
      retryBaseSeconds: 1,
    });
    expect(config.webhooks).toEqual({ allowHttpLoopback: true, retryScheduleSeconds: [1, 2, 4] });
    expect(config.queues.webhooks.deadLetterUrl).toBe('http://127.0.0.1:9324/000000000000/webhooks-dlq');
    expect(config.admin).toEqual({
      localDir: '/tmp/outreach',
      demoAccounts: 20,
      deployedApi: { restApiId: 'abc123', stage: 'prod', defaultUsagePlanId: 'plan' },
      identityDirectory: { kind: 'cognito', userPoolId: 'eu-west-1_Example' },
    });
    expect(config.dashboard.secureCookies).toBe(false);
  });

  it('takes unset or empty variables from the defaults given', () => {
    const config = loadConfiguration(
      { MAIL_RETRY_BASE_SECONDS: '', WEBHOOK_RETRY_SCHEDULE_SECONDS: '60' },
      { MAIL_RETRY_BASE_SECONDS: '1', WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,2' },
    );
    expect(config.mail.retryBaseSeconds).toBe(1);
    expect(config.webhooks.retryScheduleSeconds).toEqual([60]);
  });

  it('refuses invalid values, naming every variable at fault at once', () => {
    const load = () =>
      loadConfiguration({
        MAIL_RETRY_BASE_SECONDS: 'soon',
        WEBHOOK_ALLOW_HTTP_LOOPBACK: 'yes',
        WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,x',
        PUBLIC_BASE_URL: 'api.example.com',
        MAIL_TRANSPORT: 'pigeon',
        OUTREACH_DEMO_ACCOUNTS: '0',
      });
    expect(load).toThrow(ConfigurationError);
    const message = (() => {
      try {
        load();
      } catch (error) {
        return (error as Error).message;
      }
    })();
    for (const fragment of [
      'MAIL_RETRY_BASE_SECONDS must be a positive integer, got "soon"',
      'WEBHOOK_ALLOW_HTTP_LOOPBACK must be true or false, got "yes"',
      'WEBHOOK_RETRY_SCHEDULE_SECONDS must be comma-separated whole seconds',
      'PUBLIC_BASE_URL must be a URL, got "api.example.com"',
      'MAIL_TRANSPORT must be ses or smtp, got "pigeon"',
      'OUTREACH_DEMO_ACCOUNTS must be a positive integer, got "0"',
    ]) {
      expect(message).toContain(fragment);
    }
  });

  it('needs an SMTP URL with the smtp transport', () => {
    expect(() => loadConfiguration({ MAIL_TRANSPORT: 'smtp' })).toThrow(
      'SMTP_URL is required when MAIL_TRANSPORT is smtp',
    );
  });
});

describe('the process configuration', () => {
  it('is the environment’s until one is installed, then the installed one, frozen', () => {
    useConfiguration(environment);
    expect(tableName()).toBe('unit-test-table');
    const installed = useConfiguration({ ...environment, tableName: 'another-table' });
    expect(configuration()).toBe(installed);
    expect(tableName()).toBe('another-table');
    expect(Object.isFrozen(installed.webhooks)).toBe(true);
    expect(() => {
      (installed as { tableName?: string }).tableName = 'mutated';
    }).toThrow(TypeError);
  });

  it('is validated when installed', () => {
    expect(() =>
      useConfiguration({
        ...environment,
        mail: { ...environment.mail, transport: 'smtp', smtpUrl: undefined },
      }),
    ).toThrow(/mail\.smtpUrl: the smtp transport needs an SMTP URL/);
    expect(() =>
      useConfiguration({ ...environment, webhooks: { ...environment.webhooks, retryScheduleSeconds: [] } }),
    ).toThrow(ConfigurationError);
  });

  it('gives the clients their endpoint, region and credentials, rebuilding them only when those change', async () => {
    const local = localConfiguration(environment, {
      region: 'us-east-1',
      tableName: 'local-table',
      dynamodbEndpoint: 'http://127.0.0.1:8111',
      sqsEndpoint: 'http://127.0.0.1:9111',
      smtpUrl: 'smtp://127.0.0.1:2525',
    });
    useConfiguration(local);
    expect(await endpointOf(dynamo)).toBe('127.0.0.1:8111');
    expect(await endpointOf(sqs)).toBe('127.0.0.1:9111');
    expect(await dynamo.config.region()).toBe('us-east-1');
    expect(await dynamo.config.credentials()).toMatchObject({ accessKeyId: 'local' });
    const client = dynamo.middlewareStack;
    // No SDK logger: it masked every request and response for a log line nobody writes (serviceAwsClient).
    for (const stack of [dynamo.middlewareStack, sqs.middlewareStack])
      expect(stack.identify().filter((name) => name.startsWith('loggerMiddleware'))).toEqual([]);

    // Another table, the same emulator: the same client.
    useConfiguration({ ...local, tableName: 'other-table' });
    expect(dynamo.middlewareStack).toBe(client);

    useConfiguration({ ...local, aws: { ...local.aws, endpoints: { dynamodb: 'http://127.0.0.1:8222' } } });
    expect(await endpointOf(dynamo)).toBe('127.0.0.1:8222');
    expect(dynamo.middlewareStack).not.toBe(client);
  });

  it('is where the webhook URL policy comes from (loopback only where the local stack allows it)', () => {
    useConfiguration(environment);
    expect(configuredUrlPolicy()).toEqual({ allowLoopback: false });
    const local = localConfiguration(environment, {
      region: 'us-east-1',
      tableName: 'local-table',
      dynamodbEndpoint: 'http://127.0.0.1:8111',
    });
    useConfiguration(local);
    expect(configuredUrlPolicy()).toEqual({ allowLoopback: true });
  });
});
