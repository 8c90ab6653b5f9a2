import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { type QueueName, queueDefinitions } from '#definitions/queues.ts';
import { queueOutputKeys, STACK_OUTPUTS } from '#definitions/stack-outputs.ts';
import type { Configuration } from '#platform/config.ts';
import { awsClientOptions } from '#platform/configured.ts';
import { localCredentials } from './local-credentials.ts';

/**
 * Where `outreach-admin` points the service's code: a running local stack (its
 * endpoints file, found with no flags) or a deployed stack (its outputs).
 * Resolving the target only builds a configuration, which the CLI installs;
 * the commands then run the same domain operations as the API.
 */

/** What a running local stack's endpoints file says (the stack writes it; the CLI reads it). */
export interface LocalEndpointsFile {
  region: string;
  tableName: string;
  dynamodbEndpoint: string;
  sqsEndpoint?: string;
  queueUrls?: Partial<Record<QueueName, string>>;
  deadLetterQueueUrls?: Partial<Record<QueueName, string>>;
  smtpUrl?: string;
  /** The API's URL, once it listens. */
  apiUrl?: string;
  /** The stack's local secrets key (base64), so the CLI seals and tags as the stack does. */
  secretsKey?: string;
  /** The local OpenID provider the dashboard signs in with, and the token of its user admin API. */
  openIdProvider?: { issuer: string; clientId: string; adminToken: string };
}

/**
 * Where a running local stack writes its endpoints: `endpoints.json` in the
 * configured folder (`admin.localDir`: OUTREACH_LOCAL_DIR, default `.local`,
 * relative to the folder it was started in), so `outreach-admin` run from the
 * same folder finds it without flags.
 */
export const localEndpointsFile = (localDir: string): string => resolve(localDir, 'endpoints.json');

/** Thrown when there is nothing to talk to; the message says how to fix it. */
export class TargetError extends Error {}

const queueNames = () => Object.keys(queueDefinitions) as QueueName[];

/**
 * `base` pointed at a running local stack: its region, emulators, table,
 * queues and SMTP sink, with the local webhook URL policy (receivers on this
 * machine over http, docs/webhooks.md). The local stack configures itself
 * with this too, so the CLI and the stack see the same settings.
 */
export function localConfiguration(base: Configuration, endpoints: LocalEndpointsFile): Configuration {
  return {
    ...base,
    aws: {
      region: endpoints.region,
      credentials: localCredentials(),
      endpoints: {
        dynamodb: endpoints.dynamodbEndpoint,
        sqs: endpoints.sqsEndpoint ?? base.aws.endpoints.sqs,
      },
    },
    tableName: endpoints.tableName,
    queues: Object.fromEntries(
      queueNames().map((queue) => [
        queue,
        {
          url: endpoints.queueUrls?.[queue] ?? base.queues[queue].url,
          deadLetterUrl: endpoints.deadLetterQueueUrls?.[queue] ?? base.queues[queue].deadLetterUrl,
        },
      ]),
    ) as Configuration['queues'],
    mail: endpoints.smtpUrl ? { ...base.mail, transport: 'smtp', smtpUrl: endpoints.smtpUrl } : base.mail,
    webhooks: { ...base.webhooks, allowHttpLoopback: true },
    // The stack's own URL once it listens (the CLI shows provider webhook URLs below it).
    publicBaseUrl: endpoints.apiUrl ?? base.publicBaseUrl,
    secrets: endpoints.secretsKey ? { localKey: endpoints.secretsKey } : base.secrets,
    // The local stack serves http: its cookies cannot be Secure. The dashboard signs in at its provider.
    dashboard: {
      ...base.dashboard,
      ...(endpoints.openIdProvider && {
        oidcIssuer: endpoints.openIdProvider.issuer,
        oidcClientId: endpoints.openIdProvider.clientId,
      }),
      secureCookies: false,
    },
    admin: endpoints.openIdProvider
      ? {
          ...base.admin,
          identityDirectory: {
            kind: 'local',
            url: endpoints.openIdProvider.issuer,
            token: endpoints.openIdProvider.adminToken,
          },
        }
      : base.admin,
  };
}

/** `base` pointed at a deployed stack, from its CloudFormation outputs. */
async function deployedConfiguration(
  base: Configuration,
  stack: string,
  region: string,
): Promise<Configuration> {
  const client = new CloudFormationClient(awsClientOptions({ ...base.aws, region }));
  try {
    const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: stack }));
    const outputs = new Map(
      (Stacks?.[0]?.Outputs ?? []).map((entry) => [entry.OutputKey, entry.OutputValue]),
    );
    const table = outputs.get(STACK_OUTPUTS.tableName);
    if (!table) throw new TargetError(`Stack ${stack} has no ${STACK_OUTPUTS.tableName} output`);
    // The API and its default usage plan, for the organization rate limits (rate-limits.ts).
    const restApiId = outputs.get(STACK_OUTPUTS.restApiId);
    const stage = outputs.get(STACK_OUTPUTS.stage);
    const defaultUsagePlanId = outputs.get(STACK_OUTPUTS.defaultUsagePlanId);
    const apiUrl = outputs.get(STACK_OUTPUTS.apiUrl);
    return {
      ...base,
      // Without a custom domain, provider webhook URLs are the API's own (its stage in the path).
      publicBaseUrl: base.publicBaseUrl ?? apiUrl?.replace(/\/$/, ''),
      secrets: {
        kmsKeyId: outputs.get(STACK_OUTPUTS.secretsKmsKeyId) ?? base.secrets.kmsKeyId,
        macKeyId: outputs.get(STACK_OUTPUTS.secretsMacKeyId) ?? base.secrets.macKeyId,
      },
      aws: { ...base.aws, region },
      tableName: table,
      // Queue URLs for the commands that move messages (webhook redrive).
      queues: Object.fromEntries(
        queueNames().map((queue) => {
          const keys = queueOutputKeys(queue);
          return [
            queue,
            {
              url: outputs.get(keys.url) || base.queues[queue].url,
              deadLetterUrl: outputs.get(keys.deadLetterUrl) || base.queues[queue].deadLetterUrl,
            },
          ];
        }),
      ) as Configuration['queues'],
      admin: {
        ...base.admin,
        identityDirectory: outputs.get(STACK_OUTPUTS.userPoolId)
          ? { kind: 'cognito', userPoolId: outputs.get(STACK_OUTPUTS.userPoolId)! }
          : base.admin.identityDirectory,
        deployedApi:
          restApiId && stage && defaultUsagePlanId
            ? { restApiId, stage, defaultUsagePlanId }
            : base.admin.deployedApi,
      },
    };
  } finally {
    client.destroy();
  }
}

/**
 * The configuration for the target the flags name: `base` (the process's
 * configuration) pointed at the deployed stack `--stack` in `--region` (or
 * the configured region, AWS_REGION), or else at the local stack whose
 * endpoints file is in `base.admin.localDir`.
 */
export async function targetConfiguration(
  options: { stack?: string; region?: string },
  base: Configuration,
): Promise<Configuration> {
  if (options.stack) {
    const region = options.region ?? base.aws.region;
    if (!region) throw new TargetError('--region (or AWS_REGION) is required with --stack');
    return deployedConfiguration(base, options.stack, region);
  }
  const endpointsFile = localEndpointsFile(base.admin.localDir);
  if (!existsSync(endpointsFile)) {
    throw new TargetError(
      'No local stack is running here (start it with `npm start`), and no --stack was given.',
    );
  }
  return localConfiguration(base, JSON.parse(readFileSync(endpointsFile, 'utf8')) as LocalEndpointsFile);
}
