import { execFileSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AssetHashType, DockerImage, Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Architecture, Code, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import type { BuildOptions } from 'esbuild';
import type { TableAction } from '#definitions/routes.ts';
import { PROJECT_ROOT } from '../paths.ts';
import { nodeHttpBuiltin } from './node-http-builtin.ts';
import { sdkSchemaKeys } from './sdk-schema-keys.ts';

/**
 * Every item action but Scan: what the queue consumers and the stream relay
 * get, since they run whatever the outbox hands them (routes get exactly their
 * manifest's actions).
 */
export const ITEM_ACTIONS: readonly TableAction[] = [
  'GetItem',
  'BatchGetItem',
  'Query',
  'ConditionCheckItem',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
];

/**
 * The bundle settings of every function, shared with the tests and the bench
 * that build bundles themselves.
 */
export const BUNDLE = {
  target: 'node24',
  mainFields: ['module', 'main'],
  // Some bundled CommonJS dependencies call require(); ESM output needs it defined.
  banner:
    "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
} as const;

/**
 * Modules a Lambda bundle takes from elsewhere than the package that names
 * them: the SDK's default credential chain becomes the environment provider,
 * where Lambda puts the role's credentials (shared/platform/lambda-credentials.ts).
 */
export const LAMBDA_ALIASES = {
  '@aws-sdk/credential-provider-node': resolve(PROJECT_ROOT, 'shared/platform/lambda-credentials.ts'),
} as const;

/** Builds one bundle in a child process: CDK's hook is synchronous, esbuild's plugins are not (bundle-function.ts). */
const BUNDLE_SCRIPT = resolve(PROJECT_ROOT, 'infra/constructs/bundle-function.ts');

/** The file a function's bundle starts at, in its output folder (the Lambda handler is `index.handler`). */
export const BUNDLE_ENTRY_FILE = 'index.mjs';

/**
 * esbuild's options for a function's bundle: minified ESM for Node 24, the
 * AWS SDK bundled (what is deployed is the version that was tested), and
 * split, so that a module the code imports with `import()` (a dashboard page,
 * the KMS client, the SMTP transport) is a chunk of its own that a cold start
 * does not read until a request needs it; the SDK's schema modules are read
 * with literal keys (sdk-schema-keys.ts), so a client's unused operations drop
 * out, and `node:http` is read without its module facade (node-http-builtin.ts).
 */
export const bundleBuildOptions = (entryFile: string, outdir: string) =>
  ({
    entryPoints: { index: entryFile },
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    minify: true,
    target: BUNDLE.target,
    mainFields: [...BUNDLE.mainFields],
    banner: { js: BUNDLE.banner },
    alias: { ...LAMBDA_ALIASES },
    plugins: [sdkSchemaKeys, nodeHttpBuiltin],
    logLevel: 'silent',
  }) satisfies BuildOptions;

export interface ServiceFunctionProps {
  /** Project-relative entry file. */
  entry: string;
  description?: string;
  timeout?: Duration;
  memorySize?: number;
  logRemovalPolicy: RemovalPolicy;
  /** Files of installed packages the code reads at run time (routes.ts `packageFiles`). */
  packageFiles?: readonly string[];
}

/**
 * A function's code: its bundle built with esbuild (bundleBuildOptions,
 * with source maps, in a child process: bundle-function.ts), plus the package files it reads at run time under the
 * asset's `node_modules/`, where the bundle resolves them as the project does.
 * The asset is hashed by its output, so an unchanged bundle is not uploaded
 * again. (CDK's NodejsFunction builds one output file and cannot split.)
 */
function bundledCode(entry: string, packageFiles: readonly string[]): Code {
  return Code.fromAsset(resolve(PROJECT_ROOT, entry, '..'), {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Only used if local bundling declined, which it never does: esbuild is a dev dependency.
      image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs24.x'),
      local: {
        tryBundle(outputDir) {
          execFileSync(process.execPath, ['--import', 'tsx', BUNDLE_SCRIPT, entry, outputDir], {
            cwd: PROJECT_ROOT,
            stdio: 'inherit',
          });
          for (const file of packageFiles) {
            cpSync(resolve(PROJECT_ROOT, 'node_modules', file), join(outputDir, 'node_modules', file));
          }
          return true;
        },
      },
    },
  });
}

/**
 * Every Lambda of the service: Node.js 24 on arm64, a minified ESM bundle of
 * only what the entry imports, its own log group with retention, tracing on.
 * `bindTable` sets the table's name and grants exactly the access asked for, so
 * the code's configuration and its permissions cannot drift apart.
 */
export class ServiceFunction extends LambdaFunction {
  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id, {
      code: bundledCode(props.entry, props.packageFiles ?? []),
      handler: `${BUNDLE_ENTRY_FILE.replace(/\.mjs$/, '')}.handler`,
      description: props.description,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      tracing: Tracing.ACTIVE,
      logGroup: new LogGroup(scope, `${id}Logs`, {
        retention: RetentionDays.ONE_MONTH,
        removalPolicy: props.logRemovalPolicy,
      }),
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: 'outreach-public-api',
      },
    });
    this.acknowledgeSharedFindings();
  }

  /** The acknowledged cdk-nag findings every function shares, with why each is acceptable. */
  private acknowledgeSharedFindings(): void {
    NagSuppressions.addResourceSuppressions(
      this,
      [
        {
          id: 'AwsSolutions-IAM4',
          reason: 'The Lambda basic execution policy only lets the function write its CloudWatch logs.',
          appliesTo: [
            'Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole',
          ],
        },
        {
          id: 'AwsSolutions-IAM5',
          reason: 'X-Ray trace segments and telemetry cannot be scoped to a resource (tracing is on).',
          appliesTo: ['Resource::*'],
        },
        {
          id: 'AwsSolutions-IAM5',
          reason: 'Queries of the table include its global secondary indexes (…/index/*), no other table.',
          appliesTo: [{ regex: '/^Resource::<Table[0-9A-F]+\\.Arn>\\/index\\/\\*$/' }],
        },
      ],
      true,
    );
  }

  /**
   * Passes the table name and grants the function exactly `actions` on the
   * table and its indexes; no actions, no table.
   */
  bindTable(table: ITable, actions: readonly TableAction[]): this {
    if (actions.length === 0) return this;
    this.addEnvironment('TABLE_NAME', table.tableName);
    table.grant(this, ...actions.map((action) => `dynamodb:${action}`));
    return this;
  }
}
