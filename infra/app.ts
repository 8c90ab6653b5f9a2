import { App } from 'aws-cdk-lib';
import { OutreachApiStack, type StageName } from './stack.ts';

/** The CDK app: `cdk synth -c stage=prod` for production, `dev` by default. */
const app = new App();
const stage = (app.node.tryGetContext('stage') ?? 'dev') as StageName;
if (stage !== 'dev' && stage !== 'prod')
  throw new Error(`Unknown stage ${stage}: use -c stage=dev or -c stage=prod`);
const optionalContext = (name: string): string | undefined => app.node.tryGetContext(name) ?? undefined;
new OutreachApiStack(app, `OutreachPublicApi-${stage}`, {
  stage,
  mailDefaultFrom: optionalContext('mailDefaultFrom'),
  mailMessageIdDomain: optionalContext('mailMessageIdDomain'),
  publicBaseUrl: optionalContext('publicBaseUrl'),
  // `-c corsAllowedOrigins=https://app.example.com,https://admin.example.com` (docs/deploy.md#cors).
  corsAllowedOrigins: optionalContext('corsAllowedOrigins')
    ?.split(',')
    .map((origin) => origin.trim())
    .filter(Boolean),
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
