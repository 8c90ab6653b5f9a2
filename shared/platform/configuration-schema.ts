import * as z from 'zod/mini';
import '#definitions/zod-english.ts';
import { LOG_LEVELS } from '#definitions/log-levels.ts';
import { PROVIDERS } from '#definitions/providers.ts';
import { MAX_VISIBILITY_SECONDS, QUEUE_NAMES } from '#definitions/queues.ts';

/**
 * The schema of the service's configuration (config.ts), a module of its own:
 * only installing a configuration (`useConfiguration`: the local stack, the
 * CLI, the tests) checks one against it, so a Lambda function, which loads
 * its configuration from the environment variable by variable, neither builds
 * nor carries it, nor zod's English messages, which its errors are written in.
 */

/**
 * The schema of the configuration, which an installed configuration is
 * checked against (`useConfiguration`). Built on that first call rather than
 * at import: Lambda functions load theirs from the environment, checked
 * variable by variable (`loadConfiguration`), and so never need it.
 */
export function buildConfigurationSchema() {
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
    /**
     * Provider rate limits in place of the documented ones (each provider's facts.ts), which the calls to
     * the provider then keep below: only a local stack whose emulators enforce the same figures, for the
     * tests that do not test pacing (LocalStackOptions.providerRateLimits). Never on AWS, nor from the
     * environment.
     */
    providerRateLimits: z.optional(
      z.partialRecord(
        z.enum(PROVIDERS),
        z.strictObject({ requests: z.int().check(z.positive()), perMs: z.int().check(z.positive()) }),
      ),
    ),
    /** The API's own URL (a custom domain); absent, it is taken from each request's context. */
    publicBaseUrl: z.optional(url),
    /** The web origins that may call `/public/v1` from a browser (CORS); absent or empty, none may. */
    corsAllowedOrigins: z.optional(
      z.array(z.string().check(z.regex(/^https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?$/))),
    ),
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
