import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { deadLetterUrlVariable, type QueueName, queueDefinitions } from '#definitions/queues.ts';

/**
 * Where `outreach-admin` points the service's code: a running local stack (its
 * endpoints file, found with no flags) or a deployed stack (its outputs).
 * Resolving the target only sets configuration; the commands then run the same
 * domain operations as the API.
 */

/** Fields of the local stack's endpoints file that the CLI uses. */
interface LocalEndpointsFile {
  region: string;
  tableName: string;
  dynamodbEndpoint: string;
  sqsEndpoint?: string;
  queueUrls?: Partial<Record<QueueName, string>>;
  deadLetterQueueUrls?: Partial<Record<QueueName, string>>;
}

/**
 * Where a running local stack writes its endpoints (relative to the folder it
 * was started in), so `outreach-admin` run from the same folder finds it
 * without flags. OUTREACH_LOCAL_DIR moves it.
 */
export const localEndpointsFile = (): string =>
  resolve(process.env.OUTREACH_LOCAL_DIR ?? '.local', 'endpoints.json');

/** Thrown when there is nothing to talk to; the message says how to fix it. */
export class TargetError extends Error {}

/** The output keys of the CDK stack the CLI reads. */
export const STACK_OUTPUTS = {
  tableName: 'TableName',
  restApiId: 'RestApiId',
  stage: 'ApiStage',
  defaultUsagePlanId: 'DefaultUsagePlanId',
} as const;

/** Where the deployed API and its default usage plan are passed to the rate-limit commands (rate-limits.ts). */
export const USAGE_PLAN_VARIABLES = {
  restApiId: 'API_GATEWAY_REST_API_ID',
  stage: 'API_GATEWAY_STAGE',
  defaultUsagePlanId: 'DEFAULT_USAGE_PLAN_ID',
} as const;

/** The output keys of a queue's URL and its dead-letter queue's URL (`webhooks` → `WebhooksQueueUrl`). */
export function queueOutputKeys(queue: QueueName): { url: string; deadLetterUrl: string } {
  const base = queue
    .split(/[-_]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
  return { url: `${base}QueueUrl`, deadLetterUrl: `${base}DeadLetterQueueUrl` };
}

const queueNames = () => Object.keys(queueDefinitions) as QueueName[];

/** Configures the process for the target named by the flags. */
export async function configureTarget(options: { stack?: string; region?: string }): Promise<string> {
  if (options.stack) {
    const region = options.region ?? process.env.AWS_REGION;
    if (!region) throw new TargetError('--region (or AWS_REGION) is required with --stack');
    const client = new CloudFormationClient({ region });
    const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: options.stack }));
    const output = Stacks?.[0]?.Outputs?.find((candidate) => candidate.OutputKey === STACK_OUTPUTS.tableName);
    if (!output?.OutputValue)
      throw new TargetError(`Stack ${options.stack} has no ${STACK_OUTPUTS.tableName} output`);
    process.env.AWS_REGION = region;
    process.env.TABLE_NAME = output.OutputValue;
    // Queue URLs for the commands that move messages (webhook redrive).
    const outputs = new Map(
      (Stacks?.[0]?.Outputs ?? []).map((entry) => [entry.OutputKey, entry.OutputValue]),
    );
    for (const queue of queueNames()) {
      const { url, deadLetterUrl } = queueOutputKeys(queue);
      if (outputs.get(url)) process.env[queueDefinitions[queue].urlVariable] = outputs.get(url);
      if (outputs.get(deadLetterUrl)) process.env[deadLetterUrlVariable(queue)] = outputs.get(deadLetterUrl);
    }
    // The API and its default usage plan, for the organization rate limits (rate-limits.ts).
    for (const name of ['restApiId', 'stage', 'defaultUsagePlanId'] as const) {
      const value = outputs.get(STACK_OUTPUTS[name]);
      if (value) process.env[USAGE_PLAN_VARIABLES[name]] = value;
    }
    return `stack ${options.stack} (${region})`;
  }
  const endpointsFile = localEndpointsFile();
  if (!existsSync(endpointsFile)) {
    throw new TargetError(
      'No local stack is running here (start it with `npm start`), and no --stack was given.',
    );
  }
  const endpoints = JSON.parse(readFileSync(endpointsFile, 'utf8')) as LocalEndpointsFile;
  process.env.AWS_REGION = endpoints.region;
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
  process.env.AWS_ENDPOINT_URL_DYNAMODB = endpoints.dynamodbEndpoint;
  process.env.TABLE_NAME = endpoints.tableName;
  if (endpoints.sqsEndpoint) process.env.AWS_ENDPOINT_URL_SQS = endpoints.sqsEndpoint;
  // The local stack's webhook URL policy: receivers on this machine over http (docs/webhooks.md).
  process.env.WEBHOOK_ALLOW_HTTP_LOOPBACK = 'true';
  for (const queue of queueNames()) {
    const url = endpoints.queueUrls?.[queue];
    const deadLetterUrl = endpoints.deadLetterQueueUrls?.[queue];
    if (url) process.env[queueDefinitions[queue].urlVariable] = url;
    if (deadLetterUrl) process.env[deadLetterUrlVariable(queue)] = deadLetterUrl;
  }
  return `local stack (${endpoints.dynamodbEndpoint})`;
}
