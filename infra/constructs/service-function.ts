import { dirname } from 'node:path';
import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { type ICommandHooks, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import type { BuildOptions } from 'esbuild';
import type { TableAction } from '#definitions/routes.ts';
import { PROJECT_ROOT } from '../paths.ts';

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
 * The bundle settings of every function, shared with the test that runs the
 * built bundles on the Lambda runtime's Node major.
 */
export const BUNDLE = {
  target: 'node24',
  mainFields: ['module', 'main'],
  // Some bundled CommonJS dependencies call require(); ESM output needs it defined.
  banner:
    "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
} as const;

/** esbuild's options for a function's bundle, as CDK builds it: for the tests and the bench that build bundles themselves. */
export const bundleBuildOptions = (entryFile: string, outfile: string) =>
  ({
    entryPoints: [entryFile],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    minify: true,
    target: BUNDLE.target,
    mainFields: [...BUNDLE.mainFields],
    banner: { js: BUNDLE.banner },
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

/** Copies package files into the asset's `node_modules/`, where the bundle resolves them as the project does. */
const shipPackageFiles = (files: readonly string[]): ICommandHooks => ({
  beforeBundling: () => [],
  beforeInstall: () => [],
  afterBundling: (inputDir, outputDir) =>
    files.map(
      (file) =>
        `mkdir -p "${outputDir}/node_modules/${dirname(file)}" && cp "${inputDir}/node_modules/${file}" "${outputDir}/node_modules/${file}"`,
    ),
});

/**
 * Every Lambda of the service: Node.js 24 on arm64, a minified ESM bundle of
 * only what the entry imports, its own log group with retention, tracing on.
 * `bindTable` sets the table's name and grants exactly the access asked for, so
 * the code's configuration and its permissions cannot drift apart.
 */
export class ServiceFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id, {
      entry: `${PROJECT_ROOT}/${props.entry}`,
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: `${PROJECT_ROOT}/package-lock.json`,
      handler: 'handler',
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
      bundling: {
        format: OutputFormat.ESM,
        minify: true,
        sourceMap: true,
        target: BUNDLE.target,
        mainFields: [...BUNDLE.mainFields],
        // The AWS SDK is bundled, not taken from the runtime, so what is deployed is the version that was tested.
        externalModules: [],
        banner: BUNDLE.banner,
        ...(props.packageFiles && { commandHooks: shipPackageFiles(props.packageFiles) }),
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
