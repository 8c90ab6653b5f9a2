import { CfnOutput, Duration, RemovalPolicy, Size, Stack, type StackProps } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  ApiKeySourceType,
  AuthorizationType,
  AwsIntegration,
  EndpointType,
  IdentitySource,
  type IResource,
  LogGroupLogDestination,
  MethodLoggingLevel,
  MockIntegration,
  RequestAuthorizer,
  RequestValidator,
  ResponseType,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import { AttributeType, BillingMode, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { type GatewayResponseType, gatewayResponses } from '#definitions/gateway-responses.ts';
import {
  allowedMethods,
  CORS_MAX_AGE_SECONDS,
  GATEWAY_CORS_HEADERS,
  isOpenCorsPath,
  METHOD_NOT_ALLOWED_MESSAGE,
  MIN_COMPRESSION_BYTES,
  OPEN_CORS_ALLOWED_HEADERS,
  PROBLEM_MEDIA_TYPE,
  PUBLIC_API_PREFIX,
  PUBLIC_CORS_ALLOWED_HEADERS,
  problemTitle,
  problemTypePath,
} from '#definitions/http-conventions.ts';
import { DEAD_LETTER_RETENTION_DAYS, type QueueName, queueDefinitions } from '#definitions/queues.ts';
import { DEFAULT_ORGANIZATION_THROTTLE, STAGE_THROTTLE } from '#definitions/rate-limits.ts';
import {
  API_KEY_HEADER,
  AUTHORIZER_CACHE_TTL_SECONDS,
  handlerEntry,
  routes,
  type SecretUse,
} from '#definitions/routes.ts';
import { queueOutputKeys, STACK_OUTPUTS } from '#definitions/stack-outputs.ts';
import { tableDefinition } from '#definitions/table.ts';
import { OperationalAlarms } from './constructs/alarms.ts';
import { ClientAddressFirewall } from './constructs/client-address-firewall.ts';
import { DashboardSignIn } from './constructs/dashboard-sign-in.ts';
import { ITEM_ACTIONS, ServiceFunction } from './constructs/service-function.ts';

export type StageName = 'dev' | 'prod';

export interface OutreachApiStackProps extends StackProps {
  stage: StageName;
  /** Sender of replies to contacts no mailbox has written to yet (an SES-verified identity). */
  mailDefaultFrom?: string;
  /** Right-hand side of Message-IDs of replies. */
  mailMessageIdDomain?: string;
  /** The API's public URL when it sits on a custom domain (OAuth metadata and the MCP resource use it). */
  publicBaseUrl?: string;
  /** Web origins that may call `/public/v1` from a browser (CORS, docs/deploy.md#cors); none by default. */
  corsAllowedOrigins?: readonly string[];
}

/** `auth` → `Auth`, `campaign-contacts` → `CampaignContacts`: construct ids from route names. */
const constructId = (name: string) =>
  name
    .split(/[-_]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

/**
 * The deployed service: the single table, one function per route of the
 * manifest behind a regional REST API with the `x-api-key` REQUEST authorizer,
 * gateway responses that speak `{message}` JSON, the outbox relay on the
 * table's stream, and one queue (with its dead-letter queue) and consumer per
 * queue definition.
 */
export class OutreachApiStack extends Stack {
  readonly table: Table;
  readonly api: RestApi;

  constructor(scope: Construct, id: string, props: OutreachApiStackProps) {
    super(scope, id, props);
    const isProd = props.stage === 'prod';
    const corsOrigins = props.corsAllowedOrigins ?? [];
    const removalPolicy = isProd ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    this.table = new Table(this, 'Table', {
      partitionKey: { name: tableDefinition.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableDefinition.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      stream: StreamViewType[tableDefinition.streamViewType],
      timeToLiveAttribute: tableDefinition.timeToLiveAttribute,
      deletionProtection: isProd,
      removalPolicy,
    });
    for (const index of tableDefinition.globalSecondaryIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
      });
    }

    // Secrets at rest (shared/platform/secrets.ts): the key that wraps provider API keys' data keys, and
    // the HMAC key of provider webhook URL tokens. Each function gets only the uses its route names.
    const secretsKey = new Key(this, 'ProviderSecretsKey', {
      description: 'Wraps the data keys of provider API keys',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const webhookUrlKey = new Key(this, 'ProviderWebhookUrlKey', {
      description: 'Tags provider webhook URL tokens',
      keySpec: KeySpec.HMAC_256,
      keyUsage: KeyUsage.GENERATE_VERIFY_MAC,
      removalPolicy,
    });
    const grantSecretUses = (fn: ServiceFunction, uses: readonly SecretUse[]) => {
      const apiKeysOnly = { StringEquals: { 'kms:EncryptionContext:purpose': 'provider-api-key' } };
      if (uses.includes('seal')) {
        fn.addToRolePolicy(
          new PolicyStatement({
            actions: ['kms:GenerateDataKey'],
            resources: [secretsKey.keyArn],
            conditions: apiKeysOnly,
          }),
        );
      }
      if (uses.includes('open')) {
        fn.addToRolePolicy(
          new PolicyStatement({
            actions: ['kms:Decrypt'],
            resources: [secretsKey.keyArn],
            conditions: apiKeysOnly,
          }),
        );
      }
      if (uses.includes('mac')) {
        fn.addToRolePolicy(
          new PolicyStatement({ actions: ['kms:GenerateMac'], resources: [webhookUrlKey.keyArn] }),
        );
      }
    };

    const queues = {} as Record<QueueName, Queue>;
    const deadLetterQueues: Record<string, Queue> = {};
    const consumers = {} as Record<QueueName, ServiceFunction>;
    // Deployment settings every function may read (config.ts, oauth/metadata.ts).
    const serviceEnvironment: Record<string, string> = {
      MAIL_DEFAULT_FROM: props.mailDefaultFrom ?? 'outreach@example.com',
      MAIL_MESSAGE_ID_DOMAIN: props.mailMessageIdDomain ?? 'outreach.example.com',
      ...(props.publicBaseUrl && { PUBLIC_BASE_URL: props.publicBaseUrl }),
      ...(corsOrigins.length > 0 && { CORS_ALLOWED_ORIGINS: corsOrigins.join(',') }),
      SECRETS_KMS_KEY_ID: secretsKey.keyArn,
      SECRETS_MAC_KEY_ID: webhookUrlKey.keyArn,
    };
    for (const [name, definition] of Object.entries(queueDefinitions) as [
      QueueName,
      (typeof queueDefinitions)[QueueName],
    ][]) {
      const deadLetters = new Queue(this, `${constructId(name)}DeadLetters`, {
        retentionPeriod: Duration.days(DEAD_LETTER_RETENTION_DAYS),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        ...('maxMessageBytes' in definition && { maxMessageSizeBytes: definition.maxMessageBytes }),
      });
      const queue = new Queue(this, `${constructId(name)}Queue`, {
        visibilityTimeout: Duration.seconds(definition.visibilityTimeoutSeconds),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        deadLetterQueue: { queue: deadLetters, maxReceiveCount: definition.maxReceiveCount },
        ...('maxMessageBytes' in definition && { maxMessageSizeBytes: definition.maxMessageBytes }),
      });
      queues[name] = queue;
      deadLetterQueues[constructId(name)] = deadLetters;
      const consumer = new ServiceFunction(this, `${constructId(name)}Consumer`, {
        entry: definition.consumer,
        description: `Consumer of the ${name} queue`,
        timeout: Duration.seconds(definition.consumerTimeoutSeconds),
        logRemovalPolicy: removalPolicy,
      }).bindTable(this.table, ITEM_ACTIONS);
      consumers[name] = consumer;
      grantSecretUses(consumer, 'secrets' in definition ? definition.secrets : []);
      if ('requeues' in definition) queue.grantSendMessages(consumer);
      consumer.addEnvironment(definition.urlVariable, queue.queueUrl);
      for (const [variable, value] of Object.entries(serviceEnvironment))
        consumer.addEnvironment(variable, value);
      // Each mapping's maximum concurrency bounds its consumers, so one queue's backlog cannot take the
      // account's Lambda concurrency from the API (docs/scaling.md).
      consumer.addEventSource(
        new SqsEventSource(queue, {
          batchSize: definition.batchSize,
          reportBatchItemFailures: true,
          maxConcurrency: definition.maxConcurrency,
          ...('batchingWindowSeconds' in definition && {
            maxBatchingWindow: Duration.seconds(definition.batchingWindowSeconds),
          }),
        }),
      );
      if (name === 'mail') {
        NagSuppressions.addResourceSuppressions(
          consumer,
          [
            {
              id: 'AwsSolutions-IAM5',
              reason:
                'Replies are sent from the mailbox that last wrote to each contact, any SES identity verified in the account.',
              appliesTo: ['Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:identity/*'],
            },
          ],
          true,
        );
        consumer.addToRolePolicy(
          new PolicyStatement({
            actions: ['ses:SendEmail', 'ses:SendRawEmail'],
            resources: [this.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' })],
          }),
        );
      }
      new CfnOutput(this, queueOutputKeys(name).url, { value: queue.queueUrl });
      new CfnOutput(this, queueOutputKeys(name).deadLetterUrl, { value: deadLetters.queueUrl });
    }

    // The outbox relay: only outbox inserts reach it (an event filter), in stream order per shard.
    const relayFailures = new Queue(this, 'StreamRelayFailures', {
      retentionPeriod: Duration.days(DEAD_LETTER_RETENTION_DAYS),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    // It reads the organization's webhook subscriptions and writes each event's deliveries (the fan-out).
    deadLetterQueues.StreamRelay = relayFailures;
    NagSuppressions.addResourceSuppressions(relayFailures, [
      {
        id: 'AwsSolutions-SQS3',
        reason: 'This queue is itself the dead-letter destination of the stream relay.',
      },
    ]);
    const relay = new ServiceFunction(this, 'StreamRelay', {
      entry: 'functions/stream-relay/handler.ts',
      description: 'Moves outbox items from the table stream to their queues',
      timeout: Duration.seconds(60),
      logRemovalPolicy: removalPolicy,
    }).bindTable(this.table, ITEM_ACTIONS);
    for (const [name, queue] of Object.entries(queues) as [QueueName, Queue][]) {
      relay.addEnvironment(queueDefinitions[name].urlVariable, queue.queueUrl);
      queue.grantSendMessages(relay);
    }
    relay.addEventSource(
      new DynamoEventSource(this.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        reportBatchItemFailures: true,
        retryAttempts: 20,
        onFailure: new SqsDlq(relayFailures),
        filters: [
          FilterCriteria.filter({
            eventName: FilterRule.isEqual('INSERT'),
            dynamodb: { NewImage: { type: { S: FilterRule.isEqual('outbox') } } },
          }),
        ],
      }),
    );

    const authorizerFunction = new ServiceFunction(this, 'Authorizer', {
      entry: 'functions/authorizer/handler.ts',
      description: 'REQUEST authorizer for the x-api-key header',
      logRemovalPolicy: removalPolicy,
    }).bindTable(this.table, ['GetItem', 'UpdateItem']); // the key, and its last-used time

    const accessLogs = new LogGroup(this, 'ApiAccessLogs', {
      retention: RetentionDays.THREE_MONTHS,
      removalPolicy,
    });
    this.api = new RestApi(this, 'Api', {
      restApiName: `outreach-public-api-${props.stage}`,
      endpointConfiguration: { types: [EndpointType.REGIONAL] },
      // Compresses responses over 1 KiB for clients that accept it (list pages, the reference page's script).
      minCompressionSize: Size.bytes(MIN_COMPRESSION_BYTES),
      // Usage plans (per-organization rate limits) apply to the key the authorizer names, never one a client sends.
      apiKeySourceType: ApiKeySourceType.AUTHORIZER,
      // Execution logs need API Gateway's account-level CloudWatch role.
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: removalPolicy,
      deployOptions: {
        stageName: props.stage,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.jsonWithStandardFields({
          caller: false,
          httpMethod: true,
          ip: true,
          protocol: true,
          requestTime: true,
          resourcePath: true,
          responseLength: true,
          status: true,
          user: false,
        }),
        // Errors only, and never request or response bodies (they carry contact data and message bodies).
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        tracingEnabled: true,
        throttlingRateLimit: STAGE_THROTTLE.rateLimit,
        throttlingBurstLimit: STAGE_THROTTLE.burstLimit,
      },
    });
    // API Gateway checks what it can before invoking a function: required path parameters.
    const validator = new RequestValidator(this, 'RequestValidator', {
      restApi: this.api,
      validateRequestParameters: true,
      // Bodies are validated by the zod schemas in the functions; without API Gateway models this checks nothing more.
      validateRequestBody: true,
    });
    const authorizer = new RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      handler: authorizerFunction,
      identitySources: [IdentitySource.header(API_KEY_HEADER)],
      resultsCacheTtl: Duration.seconds(AUTHORIZER_CACHE_TTL_SECONDS),
    });

    const signIn = new DashboardSignIn(this, 'DashboardSignIn', {
      // Built from the API's id and the stage's name, not `api.url`: the URL's stage reference would make
      // the client depend on the deployment, which depends on the functions that read the client's id.
      callbackUrl: `${props.publicBaseUrl ?? `https://${this.api.restApiId}.execute-api.${this.region}.${this.urlSuffix}/${props.stage}`}/dashboard/callback`,
      domainPrefix: `outreach-${props.stage}-${this.account}`,
      removalPolicy,
    });

    // API Gateway invokes the routes' functions with one role rather than a resource policy per method:
    // a permission per method (two with the console's test invocation) would take a hundred of the
    // template's 500 resources, and each HEAD method another (docs/decisions.md, HTTP conventions on AWS).
    const invoker = new Role(this, 'ApiInvokeRole', {
      assumedBy: new ServicePrincipal('apigateway.amazonaws.com'),
      description: 'API Gateway invokes the functions of the routes',
    });
    const integrationOf = (fn: ServiceFunction) =>
      new AwsIntegration({
        proxy: true,
        service: 'lambda',
        path: `2015-03-31/functions/${fn.functionArn}/invocations`,
        options: { credentialsRole: invoker },
      });
    /** The methods of each resource, for its 405's `Allow` and its preflight. */
    const methodsOf = new Map<string, { resource: IResource; methods: string[] }>();

    for (const route of routes) {
      const handler = new ServiceFunction(this, constructId(route.name), {
        entry: handlerEntry(route),
        description: `${route.method} ${route.path}`,
        logRemovalPolicy: removalPolicy,
        packageFiles: 'packageFiles' in route ? route.packageFiles : undefined,
      }).bindTable(this.table, route.table);
      for (const [variable, value] of Object.entries(serviceEnvironment))
        handler.addEnvironment(variable, value);
      if ('session' in route && route.session)
        for (const [variable, value] of Object.entries(signIn.environment))
          handler.addEnvironment(variable, value);
      if ('invites' in route && route.invites) signIn.allowInvitations(handler);
      for (const queue of 'sends' in route ? route.sends : []) {
        queues[queue].grantSendMessages(handler);
        handler.addEnvironment(queueDefinitions[queue].urlVariable, queues[queue].queueUrl);
      }
      grantSecretUses(handler, 'secrets' in route ? route.secrets : []);
      invoker.addToPolicy(
        new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [handler.functionArn] }),
      );
      const pathParameters = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
      const resource = this.api.root.resourceForPath(route.path);
      const integration = integrationOf(handler);
      const methodOptions = {
        ...(route.auth === 'apiKey'
          ? // Requiring the (authorizer-sourced) API key is what puts the call under a usage plan.
            { authorizer, authorizationType: AuthorizationType.CUSTOM, apiKeyRequired: true }
          : {}),
        requestValidator: validator,
        requestParameters: Object.fromEntries(
          pathParameters.map((name) => [`method.request.path.${name}`, true]),
        ),
      };
      const method = resource.addMethod(route.method, integration, methodOptions);
      // HEAD is the GET without its body (RFC 9110 §9.3.2), which API Gateway routes only to a method of
      // its own: the same function, which answers it as its GET with no body (#api/http/conventions.ts).
      const head =
        route.method === 'GET' ? resource.addMethod('HEAD', integration, methodOptions) : undefined;
      const known = methodsOf.get(route.path) ?? { resource, methods: [] };
      known.methods.push(route.method);
      methodsOf.set(route.path, known);
      if (route.auth === 'none') {
        NagSuppressions.addResourceSuppressions(
          [method, ...(head ? [head] : [])],
          [
            {
              id: 'AwsSolutions-APIG4',
              reason: `${route.method} ${route.path} is public by design: the OpenAPI document and reference page, OAuth discovery, registration and token endpoints, the consent page and the dashboard, which check their session cookie themselves, and /mcp, which checks its bearer token itself.`,
            },
            {
              id: 'AwsSolutions-COG4',
              reason:
                'Not a Cognito authorizer: the dashboard and the consent page check their own session (from a Cognito sign-in) and /mcp its own OAuth 2.1 tokens.',
            },
          ],
        );
      } else {
        NagSuppressions.addResourceSuppressions(
          [method, ...(head ? [head] : [])],
          [
            {
              id: 'AwsSolutions-COG4',
              reason:
                'Organizations authenticate with API keys (<ORG_ID>.<SECRET>) checked by the REQUEST authorizer, not Cognito users.',
            },
          ],
        );
      }
    }
    const base = props.publicBaseUrl ?? BASE_URL_OF_REQUEST;
    for (const [path, { resource, methods }] of methodsOf) {
      this.addMethodConventions(path, resource, methods, corsOrigins, base);
    }

    NagSuppressions.addResourceSuppressions(
      this.api,
      [
        {
          id: 'AwsSolutions-IAM4',
          reason:
            'The account-level API Gateway CloudWatch role uses the AWS-managed push-to-CloudWatch-Logs policy, as API Gateway requires.',
          appliesTo: [
            'Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs',
          ],
        },
      ],
      true,
    );

    for (const [type, response] of Object.entries(gatewayResponses)) {
      const status = response.statusCode;
      // Simple substitution only (no VTL in a gateway response's template): the message as API Gateway
      // words it (a quoted JSON string) or ours, the request id, and the RFC 9457 members.
      const message =
        response.message === null ? '$context.error.messageString' : JSON.stringify(response.message);
      const template = `{"message":${message},"request_id":"$context.requestId",${problemMembers(status, base)},"detail":${message}}`;
      this.api.addGatewayResponse(`Gateway${constructId(type.toLowerCase())}`, {
        type: ResponseType.of(type as GatewayResponseType),
        statusCode: String(status),
        // Always JSON here: a gateway response's media type is not chosen by the request's Accept
        // (docs/decisions.md, Problem details), unlike the functions' answers and the 405 mocks'.
        templates: { 'application/json': template },
        responseHeaders: {
          'Content-Type': "'application/json'",
          ...quotedHeaders(GATEWAY_CORS_HEADERS),
          ...Object.fromEntries(
            Object.entries(('headers' in response && response.headers) || {}).map(([name, value]) => [
              name,
              `'${value}'`,
            ]),
          ),
        },
      });
    }

    // Every organization's API Gateway key starts here; `outreach-admin org set --rate --burst` moves it
    // to a plan of its own (shared/admin/rate-limits.ts).
    const defaultUsagePlan = this.api.addUsagePlan('DefaultUsagePlan', {
      name: `outreach-${props.stage}-default`,
      description: 'Default per-organization rate limit',
      throttle: DEFAULT_ORGANIZATION_THROTTLE,
      apiStages: [{ api: this.api, stage: this.api.deploymentStage }],
    });

    const alarms = new OperationalAlarms(this, 'Alarms', {
      api: this.api,
      deadLetterQueues,
      watchedFunctions: {
        Authorizer: authorizerFunction,
        ...Object.fromEntries(
          Object.entries(consumers).map(([name, fn]) => [`${constructId(name)}Consumer`, fn]),
        ),
      },
    });
    new ClientAddressFirewall(this, 'ClientAddressFirewall', {
      stage: this.api.deploymentStage,
      onAlarm: alarms.page,
    });
    new CfnOutput(this, 'AlarmTopicArn', { value: alarms.topic.topicArn });
    new CfnOutput(this, STACK_OUTPUTS.apiUrl, { value: this.api.url });
    new CfnOutput(this, 'McpUrl', { value: this.api.urlForPath('/mcp') });
    new CfnOutput(this, STACK_OUTPUTS.tableName, { value: this.table.tableName });
    new CfnOutput(this, STACK_OUTPUTS.restApiId, { value: this.api.restApiId });
    new CfnOutput(this, STACK_OUTPUTS.stage, { value: this.api.deploymentStage.stageName });
    new CfnOutput(this, STACK_OUTPUTS.defaultUsagePlanId, { value: defaultUsagePlan.usagePlanId });
    new CfnOutput(this, STACK_OUTPUTS.secretsKmsKeyId, { value: secretsKey.keyArn });
    new CfnOutput(this, STACK_OUTPUTS.secretsMacKeyId, { value: webhookUrlKey.keyArn });
    new CfnOutput(this, STACK_OUTPUTS.userPoolId, { value: signIn.userPool.userPoolId });
    new CfnOutput(this, 'DashboardUrl', { value: this.api.urlForPath('/dashboard') });
  }

  /**
   * What a resource answers beyond its routes' methods, as the local gateway does
   * (infra/local/gateway.ts): a method it does not take is 405 with `Allow`, and on a path open to
   * browsers an `OPTIONS` preflight is answered (any origin on the open paths, the listed ones on
   * `/public/v1`). One `ANY` mock each, which API Gateway picks only when no method of the resource's
   * own matches; no function runs, and no authorizer, as a 404 of the gateway has none.
   */
  private addMethodConventions(
    path: string,
    resource: IResource,
    methods: readonly string[],
    corsOrigins: readonly string[],
    base: string,
  ): void {
    const open = isOpenCorsPath(path);
    const cors = open || (path.startsWith(PUBLIC_API_PREFIX) && corsOrigins.length > 0);
    const allow = allowedMethods(methods).join(', ');
    const preflightParameters = {
      'method.response.header.Access-Control-Allow-Methods': `'${allow}'`,
      'method.response.header.Access-Control-Allow-Headers': `'${(open ? OPEN_CORS_ALLOWED_HEADERS : PUBLIC_CORS_ALLOWED_HEADERS).join(', ')}'`,
      'method.response.header.Access-Control-Max-Age': `'${CORS_MAX_AGE_SECONDS}'`,
      ...(open && { 'method.response.header.Access-Control-Allow-Origin': "'*'" }),
    };
    // On /public/v1 the origin is answered only when listed, and so the answer varies with it.
    const originCheck = corsOrigins.map((origin) => `$origin == ${JSON.stringify(origin)}`).join(' || ');
    const preflightTemplate = open
      ? ''
      : `#set($origin = $input.params().header.get("Origin"))#if(${originCheck || 'false'})#set($context.responseOverride.header.Access-Control-Allow-Origin = $origin)#end#set($context.responseOverride.header.Vary = "Origin")`;
    const preflight = {
      statusCode: '204',
      selectionPattern: '204',
      responseParameters: preflightParameters,
      responseTemplates: { 'application/json': preflightTemplate },
    };
    const methodResponse = (statusCode: string, headers: Record<string, string>) => ({
      statusCode,
      responseParameters: Object.fromEntries(Object.keys(headers).map((name) => [name, true])),
    });
    const problem = `{"message":"${METHOD_NOT_ALLOWED_MESSAGE}","request_id":"$context.requestId",${problemMembers(405, base)},"detail":"${METHOD_NOT_ALLOWED_MESSAGE}"}`;
    const refusalParameters = {
      'method.response.header.Allow': `'${allow}'`,
      ...Object.fromEntries(
        Object.entries(quotedHeaders(GATEWAY_CORS_HEADERS)).map(([name, value]) => [
          `method.response.header.${name}`,
          value,
        ]),
      ),
    };
    const refusal = {
      statusCode: '405',
      responseParameters: refusalParameters,
      responseTemplates: { 'application/json': problem, [PROBLEM_MEDIA_TYPE]: problem },
    };
    const anyRouteTakes = methods.includes('ANY');
    // A resource of an ANY route takes every method but a preflight, which is the mock's.
    if (anyRouteTakes && !cors) return;
    const mock = new MockIntegration({
      requestTemplates: {
        'application/json': cors
          ? '{"statusCode": #if($context.httpMethod == "OPTIONS")204#{else}405#end}'
          : '{"statusCode": 405}',
      },
      integrationResponses: [...(anyRouteTakes ? [] : [refusal]), ...(cors ? [preflight] : [])],
    });
    const added = resource.addMethod(anyRouteTakes ? 'OPTIONS' : 'ANY', mock, {
      methodResponses: [
        ...(anyRouteTakes ? [] : [methodResponse('405', refusalParameters)]),
        ...(cors
          ? [
              methodResponse('204', {
                ...preflightParameters,
                'method.response.header.Access-Control-Allow-Origin': '',
                'method.response.header.Vary': '',
              }),
            ]
          : []),
      ],
    });
    NagSuppressions.addResourceSuppressions(added, [
      {
        id: 'AwsSolutions-APIG4',
        reason: `A mock of the gateway's own: 405 for a method ${path} does not take, and CORS preflights, which browsers send without credentials.`,
      },
      { id: 'AwsSolutions-COG4', reason: 'A mock that reaches no function and no data.' },
    ]);
  }
}

/** The service's base URL in a gateway template when no custom domain is configured: its execute-api stage. */
const BASE_URL_OF_REQUEST = 'https://$context.domainName/$context.stage';

/** The RFC 9457 members of a gateway template's body but `detail` (its message): JSON members, no braces. */
function problemMembers(status: number, base: string): string {
  const path = problemTypePath(status);
  return [
    `"type":${JSON.stringify(path ? `${base}${path}` : 'about:blank')}`,
    `"title":${JSON.stringify(problemTitle(status))}`,
    `"status":${status}`,
  ].join(',');
}

/** Headers as API Gateway's response parameters take static values: each in single quotes. */
const quotedHeaders = (headers: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, `'${value}'`]));
