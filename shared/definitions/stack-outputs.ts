import type { QueueName } from './queues.ts';

/** The output keys of the CDK stack that the operator CLI reads (the stack writes them, the CLI finds its target by them). */
export const STACK_OUTPUTS = {
  tableName: 'TableName',
  restApiId: 'RestApiId',
  stage: 'ApiStage',
  defaultUsagePlanId: 'DefaultUsagePlanId',
  /** Where provider webhook URLs point (the API's URL), for `outreach-admin provider …`. */
  apiUrl: 'ApiUrl',
  secretsKmsKeyId: 'SecretsKmsKeyId',
  secretsMacKeyId: 'SecretsMacKeyId',
  /** The dashboard's Cognito user pool, where `outreach-admin member add` invites people. */
  userPoolId: 'DashboardUserPoolId',
} as const;

/** The output keys of a queue's URL and its dead-letter queue's URL (`webhooks` → `WebhooksQueueUrl`). */
export function queueOutputKeys(queue: QueueName): { url: string; deadLetterUrl: string } {
  const base = queue
    .split(/[-_]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
  return { url: `${base}QueueUrl`, deadLetterUrl: `${base}DeadLetterQueueUrl` };
}
