import { Match } from 'aws-cdk-lib/assertions';
import type { CfnMethod } from 'aws-cdk-lib/aws-apigateway';
import { beforeAll, describe, expect, it } from 'vitest';
import { gatewayResponses } from '#definitions/gateway-responses.ts';
import { queueDefinitions } from '#definitions/queues.ts';
import {
  CLIENT_ADDRESS_LIMIT_PER_WINDOW,
  CLIENT_ADDRESS_THROTTLE,
  CLIENT_ADDRESS_WINDOW_SECONDS,
  DEFAULT_ORGANIZATION_THROTTLE,
  STAGE_THROTTLE,
} from '#definitions/rate-limits.ts';
import { routes } from '#definitions/routes.ts';
import { tableDefinition } from '#definitions/table.ts';
import { ANALYTICS_SHARDS, CAMPAIGN_SHARDS, WRITER_SLOTS } from '#store/counter-shards.ts';
import { synthesize } from '../support/synth.ts';

type Synthesized = ReturnType<typeof synthesize>;
let template: Synthesized['template'];
let stack: Synthesized['stack'];

beforeAll(() => {
  ({ template, stack } = synthesize('dev'));
});

describe('the CDK stack', () => {
  it('builds the table from the single table definition: on demand, point-in-time recovery, stream, TTL', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
      ],
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      StreamSpecification: { StreamViewType: tableDefinition.streamViewType },
      TimeToLiveSpecification: { AttributeName: tableDefinition.timeToLiveAttribute, Enabled: true },
      GlobalSecondaryIndexes: tableDefinition.globalSecondaryIndexes.map((index) =>
        Match.objectLike({
          IndexName: index.indexName,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
        }),
      ),
    });
  });

  it('gives every route, the authorizer, the stream relay and each queue consumer its own Node.js 24 arm64 function', () => {
    const functions = template.findResources('AWS::Lambda::Function', {
      Properties: { Runtime: 'nodejs24.x', Architectures: ['arm64'] },
    });
    const expected = routes.length + 2 + Object.keys(queueDefinitions).length;
    expect(Object.keys(functions)).toHaveLength(expected);
    expect(Object.keys(template.findResources('AWS::Lambda::Function'))).toHaveLength(expected);
  });

  it('is a regional REST API that compresses responses over 1 KiB', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      EndpointConfiguration: { Types: ['REGIONAL'] },
      MinimumCompressionSize: 1024,
    });
  });

  it('authorizes with a cached REQUEST authorizer on the x-api-key header', () => {
    template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      IdentitySource: 'method.request.header.x-api-key',
      AuthorizerResultTtlInSeconds: 300,
    });
  });

  it('declares exactly the manifest’s methods, each with the authorizer its auth mode asks for', () => {
    const declared = stack.api.methods.map((method) => ({
      method: method.httpMethod,
      path: method.resource.path,
      authorization: (method.node.defaultChild as CfnMethod).authorizationType,
    }));
    // The gateway's own mocks (405 and CORS preflights) are checked on their own below.
    const ofRoutes = declared.filter(
      ({ method, path }) =>
        !(method === 'ANY' && !routes.some((route) => route.path === path && route.method === 'ANY')) &&
        method !== 'OPTIONS',
    );
    expect(ofRoutes.sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`))).toEqual(
      routes
        .flatMap((route) => {
          const method = {
            method: route.method as string,
            path: route.path,
            authorization: route.auth === 'apiKey' ? 'CUSTOM' : 'NONE',
          };
          // Every GET has its HEAD, with the same authorizer and function.
          return route.method === 'GET' ? [method, { ...method, method: 'HEAD' }] : [method];
        })
        .sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`)),
    );
  });

  it('answers HEAD on every GET route with the GET’s function, and a known path’s unknown method with 405 and Allow', () => {
    const methods = Object.values(template.findResources('AWS::ApiGateway::Method')) as {
      Properties: {
        HttpMethod: string;
        ResourceId: unknown;
        Integration: {
          Type: string;
          Uri?: unknown;
          Credentials?: unknown;
          RequestTemplates?: Record<string, string>;
          IntegrationResponses?: {
            StatusCode: string;
            SelectionPattern?: string;
            ResponseParameters?: Record<string, string>;
            ResponseTemplates?: Record<string, string>;
          }[];
        };
      };
    }[];
    const key = (value: unknown) => JSON.stringify(value);
    for (const head of methods.filter((method) => method.Properties.HttpMethod === 'HEAD')) {
      const get = methods.find(
        (method) =>
          method.Properties.HttpMethod === 'GET' &&
          key(method.Properties.ResourceId) === key(head.Properties.ResourceId),
      );
      expect(key(head.Properties.Integration.Uri)).toBe(key(get?.Properties.Integration.Uri));
    }
    expect(methods.filter((method) => method.Properties.HttpMethod === 'HEAD')).toHaveLength(
      routes.filter((route) => route.method === 'GET').length,
    );
    // One ANY mock per path whose routes name their methods: 405, its Allow, a problem body with the request id.
    const mocks = methods.filter(
      (method) => method.Properties.HttpMethod === 'ANY' && method.Properties.Integration.Type === 'MOCK',
    );
    const paths = new Set(routes.filter((route) => route.method !== 'ANY').map((route) => route.path));
    const anyPaths = new Set<string>(
      routes.filter((route) => route.method === 'ANY').map((route) => route.path),
    );
    expect(mocks).toHaveLength([...paths].filter((path) => !anyPaths.has(path)).length);
    const allows = mocks.map((mock) => {
      const refusal = mock.Properties.Integration.IntegrationResponses?.find(
        (each) => each.StatusCode === '405',
      );
      expect(refusal?.SelectionPattern).toBeUndefined();
      expect(refusal?.ResponseTemplates?.['application/json']).toMatch(
        /^\{"message":"Method not allowed","request_id":"\$context\.requestId","type":"https:\/\/\$context\.domainName\/\$context\.stage\/docs#errors-method-not-allowed","title":"Method Not Allowed","status":405,"detail":"Method not allowed"\}$/,
      );
      expect(refusal?.ResponseParameters?.['method.response.header.access-control-allow-origin']).toBe("'*'");
      return refusal?.ResponseParameters?.['method.response.header.Allow'];
    });
    expect(allows).toContain("'GET, HEAD, POST'"); // /public/v1/webhooks
    expect(allows).toContain("'POST'"); // /oauth/token
    // The functions are invoked with one role, not a permission per method (the template's 500 resources).
    const integrated = methods.filter((method) => method.Properties.Integration.Type === 'AWS_PROXY');
    for (const method of integrated) expect(method.Properties.Integration.Credentials).toBeDefined();
    expect(Object.keys(template.findResources('AWS::Lambda::Permission'))).toHaveLength(1); // the authorizer's
    expect(Object.keys(template.toJSON().Resources).length).toBeLessThan(500);
  });

  it('answers CORS preflights on the open paths for any origin, and on /public/v1 only for the configured origins', () => {
    const methods = Object.values(template.findResources('AWS::ApiGateway::Method')) as {
      Properties: {
        HttpMethod: string;
        Integration: {
          Type: string;
          RequestTemplates?: Record<string, string>;
          IntegrationResponses?: {
            StatusCode: string;
            ResponseParameters?: Record<string, string>;
            ResponseTemplates?: Record<string, string>;
          }[];
        };
      };
    }[];
    const preflights = methods.flatMap((method) =>
      (method.Properties.Integration.IntegrationResponses ?? []).filter((each) => each.StatusCode === '204'),
    );
    // The open paths: the three discovery documents, registration, token and /mcp (an OPTIONS beside its ANY).
    expect(preflights).toHaveLength(6);
    for (const preflight of preflights) {
      expect(preflight.ResponseParameters).toMatchObject({
        'method.response.header.Access-Control-Allow-Origin': "'*'",
        'method.response.header.Access-Control-Allow-Headers':
          "'authorization, content-type, mcp-protocol-version, mcp-session-id, last-event-id'",
      });
    }
    expect(methods.filter((method) => method.Properties.HttpMethod === 'OPTIONS')).toHaveLength(1);
    // With origins configured, every /public/v1 path answers them, each origin only as itself.
    const { template: withOrigins } = synthesize('dev', { corsAllowedOrigins: ['https://app.example.com'] });
    const configured = Object.values(withOrigins.findResources('AWS::ApiGateway::Method')).flatMap((method) =>
      ((method as (typeof methods)[number]).Properties.Integration.IntegrationResponses ?? []).filter(
        (each) => each.StatusCode === '204',
      ),
    );
    const publicPaths = new Set(
      routes.filter((route) => route.path.startsWith('/public/v1/')).map((r) => r.path),
    );
    expect(configured).toHaveLength(6 + publicPaths.size);
    const reflecting = configured.filter((each) =>
      each.ResponseTemplates?.['application/json']?.includes('$origin == "https://app.example.com"'),
    );
    expect(reflecting).toHaveLength(publicPaths.size);
    withOrigins.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ CORS_ALLOWED_ORIGINS: 'https://app.example.com' }) },
    });
  });

  it('gives every queue an encrypted, SSL-only dead-letter queue and its consumer partial batch responses', () => {
    const queues = Object.keys(queueDefinitions).length;
    template.resourceCountIs('AWS::SQS::Queue', queues * 2 + 1);
    for (const queue of Object.values(template.findResources('AWS::SQS::Queue'))) {
      expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
    }
    template.resourcePropertiesCountIs(
      'AWS::SQS::Queue',
      { RedrivePolicy: Match.objectLike({ maxReceiveCount: Match.anyValue() }) },
      queues,
    );
    template.resourcePropertiesCountIs('AWS::SQS::QueuePolicy', Match.anyValue(), queues * 2 + 1);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      EventSourceArn: Match.objectLike({
        'Fn::GetAtt': Match.arrayWith([Match.stringLikeRegexp('MailQueue')]),
      }),
    });
  });

  it("bounds each queue consumer's concurrency, and batches provider events for up to a second", () => {
    for (const definition of Object.values(queueDefinitions)) {
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        BatchSize: definition.batchSize,
        ScalingConfig: { MaximumConcurrency: definition.maxConcurrency },
      });
    }
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      ScalingConfig: { MaximumConcurrency: queueDefinitions.providerEvents.maxConcurrency },
      MaximumBatchingWindowInSeconds: queueDefinitions.providerEvents.batchingWindowSeconds,
      EventSourceArn: Match.objectLike({
        'Fn::GetAtt': Match.arrayWith([Match.stringLikeRegexp('ProviderEventsQueue')]),
      }),
    });
    // Each provider events consumer running at once can hold a writer slot, with shards of its own.
    expect(queueDefinitions.providerEvents.maxConcurrency).toBeLessThanOrEqual(WRITER_SLOTS);
    expect(WRITER_SLOTS).toBeLessThanOrEqual(Math.min(CAMPAIGN_SHARDS, ANALYTICS_SHARDS));
  });

  it('relays only outbox inserts from the table stream, reporting failures per record', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      StartingPosition: 'TRIM_HORIZON',
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      FilterCriteria: {
        Filters: [
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT'],
              dynamodb: { NewImage: { type: { S: ['outbox'] } } },
            }),
          },
        ],
      },
    });
  });

  it('logs access as JSON, logs errors only without bodies, traces, and throttles the stage', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      AccessLogSetting: {
        DestinationArn: Match.anyValue(),
        Format: Match.stringLikeRegexp('^\\{.*"requestId":"\\$context.requestId"'),
      },
      TracingEnabled: true,
      MethodSettings: [
        Match.objectLike({
          LoggingLevel: 'ERROR',
          DataTraceEnabled: false,
          ThrottlingRateLimit: STAGE_THROTTLE.rateLimit,
          ThrottlingBurstLimit: STAGE_THROTTLE.burstLimit,
        }),
      ],
    });
  });

  it('validates required path parameters at the gateway', () => {
    template.hasResourceProperties('AWS::ApiGateway::RequestValidator', { ValidateRequestParameters: true });
    template.hasResourceProperties('AWS::ApiGateway::Method', {
      HttpMethod: 'GET',
      RequestParameters: { 'method.request.path.id': true },
      RequestValidatorId: Match.anyValue(),
    });
  });

  it('alarms on every dead-letter queue, the 5xx rate, throttles and authorizer and consumer errors, to one SNS topic', () => {
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm'));
    const topic = Object.keys(template.findResources('AWS::SNS::Topic'));
    expect(topic).toHaveLength(1);
    for (const alarm of alarms) expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topic[0] }]);
    const onMetric = (name: string) => alarms.filter((alarm) => alarm.Properties.MetricName === name);
    // One per queue's dead-letter queue, plus the stream relay's failure queue.
    expect(onMetric('ApproximateNumberOfMessagesVisible')).toHaveLength(
      Object.keys(queueDefinitions).length + 1,
    );
    expect(onMetric('Throttles')).toHaveLength(1);
    expect(onMetric('Errors')).toHaveLength(1 + Object.keys(queueDefinitions).length);
    expect(
      alarms.filter((alarm) => JSON.stringify(alarm.Properties.Metrics ?? []).includes('5XXError')),
    ).toHaveLength(1);
    template.hasParameter('AlarmEmail', { Type: 'String', Default: '' });
    template.hasResource('AWS::SNS::Subscription', {
      Condition: Match.anyValue(),
      Properties: { Protocol: 'email' },
    });
  });

  it('alarms when a provider connection turns failing (the ProviderConnectionFailing count, at once)', () => {
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')).filter(
      (alarm) => alarm.Properties.MetricName === 'ProviderConnectionFailing',
    );
    expect(alarms).toHaveLength(1);
    expect(alarms[0]!.Properties).toMatchObject({
      Namespace: 'OutreachPublicApi',
      Dimensions: [{ Name: 'service', Value: 'outreach-public-api' }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
    });
  });

  it('gives each route its own role granting exactly its manifest table actions, on the table and its indexes only', () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function')) as {
      Properties: { Description?: string; Role: { 'Fn::GetAtt': [string, string] } };
    }[];
    const policies = Object.values(template.findResources('AWS::IAM::Policy')) as {
      Properties: {
        Roles: { Ref: string }[];
        PolicyDocument: { Statement: { Action: string | string[]; Resource: unknown }[] };
      };
    }[];
    const [tableId] = Object.keys(template.findResources('AWS::DynamoDB::Table'));
    const roles = new Set<string>();
    for (const route of routes) {
      const fn = functions.find(
        (candidate) => candidate.Properties.Description === `${route.method} ${route.path}`,
      );
      const role = fn!.Properties.Role['Fn::GetAtt'][0];
      roles.add(role);
      const statements = policies
        .filter((policy) => policy.Properties.Roles.some((candidate) => candidate.Ref === role))
        .flatMap((policy) => policy.Properties.PolicyDocument.Statement)
        .filter((statement) => [statement.Action].flat().some((action) => action.startsWith('dynamodb:')));
      const actions = statements.flatMap((statement) => [statement.Action].flat()).sort();
      expect({ route: route.name, actions }).toEqual({
        route: route.name,
        actions: route.table.map((action) => `dynamodb:${action}`).sort(),
      });
      for (const statement of statements) {
        // The table's ARN and its indexes' (`…/index/*`), never a bare '*'.
        const resources = [statement.Resource].flat();
        expect(resources).not.toContain('*');
        for (const resource of resources) expect(JSON.stringify(resource)).toContain(tableId);
      }
    }
    expect(roles.size).toBe(routes.length);
  });

  it('grants each function exactly the secrets uses its route names, and only the provider callers may decrypt', () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function')) as {
      Properties: { Description?: string; Role: { 'Fn::GetAtt': [string, string] } };
    }[];
    const policies = Object.values(template.findResources('AWS::IAM::Policy')) as {
      Properties: {
        Roles: { Ref: string }[];
        PolicyDocument: { Statement: { Action: string | string[]; Condition?: unknown }[] };
      };
    }[];
    const kmsStatements = (role: string) =>
      policies
        .filter((policy) => policy.Properties.Roles.some((candidate) => candidate.Ref === role))
        .flatMap((policy) => policy.Properties.PolicyDocument.Statement)
        .filter((statement) => [statement.Action].flat().some((action) => action.startsWith('kms:')));
    const USE_ACTIONS = { seal: 'kms:GenerateDataKey', open: 'kms:Decrypt', mac: 'kms:GenerateMac' };
    for (const route of routes) {
      const fn = functions.find(
        (candidate) => candidate.Properties.Description === `${route.method} ${route.path}`,
      );
      const statements = kmsStatements(fn!.Properties.Role['Fn::GetAtt'][0]);
      const uses = 'secrets' in route ? route.secrets : [];
      expect({
        route: route.name,
        actions: statements.flatMap((statement) => [statement.Action].flat()).sort(),
      }).toEqual({
        route: route.name,
        actions: uses.map((use) => USE_ACTIONS[use]).sort(),
      });
      // Data keys only for provider API keys (the encryption context), never any other use of the key.
      for (const statement of statements.filter((candidate) => candidate.Action === 'kms:GenerateDataKey')) {
        expect(statement.Condition).toEqual({
          StringEquals: { 'kms:EncryptionContext:purpose': 'provider-api-key' },
        });
      }
    }
    // Only the functions that call a provider open API keys: the enrollment consumer, the mail sender
    // (a reply through the provider), the check of a connection's key, the listing of a provider's
    // campaigns, the linking of a sequence to one (which asks the provider for it) and the dashboard
    // (its connection page lists the campaigns and checks the key), and only keys sealed for that purpose.
    const decrypting = policies.filter((policy) =>
      JSON.stringify(policy.Properties.PolicyDocument).includes('kms:Decrypt'),
    );
    expect(decrypting.map((policy) => policy.Properties.Roles.map((role) => role.Ref).join()).sort()).toEqual(
      [
        expect.stringMatching(/^CheckProviderConnection/),
        expect.stringMatching(/^DashboardItem/),
        expect.stringMatching(/^DashboardPage/),
        expect.stringMatching(/^Dashboard/),
        expect.stringMatching(/^EnrollmentConsumer/),
        expect.stringMatching(/^ListProviderCampaigns/),
        expect.stringMatching(/^MailConsumer/),
        expect.stringMatching(/^PutSequenceProviderLink/),
      ],
    );
    for (const policy of decrypting) {
      const decrypt = policy.Properties.PolicyDocument.Statement.filter((statement) =>
        [statement.Action].flat().includes('kms:Decrypt'),
      );
      expect(decrypt.map((statement) => statement.Condition)).toEqual([
        { StringEquals: { 'kms:EncryptionContext:purpose': 'provider-api-key' } },
      ]);
    }
    template.hasResourceProperties('AWS::KMS::Key', { KeySpec: 'HMAC_256', KeyUsage: 'GENERATE_VERIFY_MAC' });
    template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true, KeySpec: Match.absent() });
  });

  it('lets only the inbound provider webhook function send to the provider events queue, of all routes', () => {
    const inbound = routes.find((route) => route.name === 'receive-provider-webhook')!;
    expect(inbound).toMatchObject({ auth: 'none', sends: ['providerEvents'] });
    expect(routes.filter((route) => 'sends' in route).map((route) => route.name)).toEqual([inbound.name]);
    template.hasResourceProperties('AWS::SQS::Queue', { MaximumMessageSize: 1024 * 1024 });
  });

  it('lets the authorizer only read a key and write its last-used time', () => {
    const policies = Object.values(template.findResources('AWS::IAM::Policy')).filter((policy) =>
      JSON.stringify(policy.Properties.Roles).includes('AuthorizerServiceRole'),
    );
    const actions = policies.flatMap((policy) =>
      policy.Properties.PolicyDocument.Statement.flatMap((statement: { Action: string | string[] }) =>
        [statement.Action].flat(),
      ),
    );
    expect(actions.filter((action: string) => action.startsWith('dynamodb:')).sort()).toEqual([
      'dynamodb:GetItem',
      'dynamodb:UpdateItem',
    ]);
  });

  it('tells a throttled client when to retry', () => {
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'THROTTLED',
      StatusCode: '429',
      ResponseParameters: Match.objectLike({ 'gatewayresponse.header.Retry-After': "'1'" }),
    });
  });

  it('cuts a flood from one address before the stage bucket: a WAF rate rule per client address on the stage, answered like a throttle, with an alarm', () => {
    template.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'REGIONAL',
      DefaultAction: { Allow: {} },
      CustomResponseBodies: {
        Throttled: { ContentType: 'APPLICATION_JSON', Content: '{"message":"Too many requests"}' },
      },
      Rules: [
        Match.objectLike({
          Statement: {
            RateBasedStatement: {
              AggregateKeyType: 'IP',
              Limit: CLIENT_ADDRESS_LIMIT_PER_WINDOW,
              EvaluationWindowSec: CLIENT_ADDRESS_WINDOW_SECONDS,
            },
          },
          Action: {
            Block: {
              CustomResponse: {
                ResponseCode: 429,
                CustomResponseBodyKey: 'Throttled',
                ResponseHeaders: [{ Name: 'Retry-After', Value: '1' }],
              },
            },
          },
        }),
      ],
    });
    const [stageId] = Object.keys(template.findResources('AWS::ApiGateway::Stage'));
    template.hasResourceProperties('AWS::WAFv2::WebACLAssociation', {
      ResourceArn: Match.objectLike({ 'Fn::Join': Match.arrayWith([Match.arrayWith([{ Ref: stageId }])]) }),
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/WAFV2',
      MetricName: 'BlockedRequests',
      AlarmActions: [Match.anyValue()],
    });
    // A quarter of the stage: one address can never spend the stage's bucket on its own.
    expect(CLIENT_ADDRESS_THROTTLE.rateLimit * 4).toBeLessThanOrEqual(STAGE_THROTTLE.rateLimit);
  });

  it('answers a missing or rejected key with 401 JSON, never 403', () => {
    for (const type of ['UNAUTHORIZED', 'ACCESS_DENIED']) {
      template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: type,
        StatusCode: '401',
        ResponseTemplates: {
          'application/json':
            '{"message":"Unauthorized","request_id":"$context.requestId","type":"https://$context.domainName/$context.stage/docs#errors-unauthorized","title":"Unauthorized","status":401,"detail":"Unauthorized"}',
        },
      });
    }
  });

  it('gives every gateway-generated error a JSON {message} body', () => {
    const responses = template.findResources('AWS::ApiGateway::GatewayResponse');
    const types = Object.values(responses).map((response) => response.Properties.ResponseType);
    expect(types.sort()).toEqual(Object.keys(gatewayResponses).sort());
    for (const response of Object.values(responses)) {
      // The contract's message and request id, then the RFC 9457 members, readable from any origin.
      expect(response.Properties.ResponseTemplates['application/json']).toMatch(
        /^\{"message":[^,]+,"request_id":"\$context\.requestId","type":"[^"]+","title":"[^"]+","status":\d{3},"detail":/,
      );
      expect(response.Properties.ResponseParameters).toMatchObject({
        'gatewayresponse.header.access-control-allow-origin': "'*'",
      });
    }
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'MISSING_AUTHENTICATION_TOKEN',
      StatusCode: '404',
    });
  });

  it('outputs what outreach-admin reads: the API and MCP URLs, the table, the API, its stage and the default usage plan', () => {
    for (const output of ['ApiUrl', 'McpUrl', 'TableName', 'RestApiId', 'ApiStage', 'DefaultUsagePlanId']) {
      template.hasOutput(output, {});
    }
  });

  it('rate-limits each organization through usage plans keyed by the authorizer, with a default plan on the stage', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
    template.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      Throttle: {
        RateLimit: DEFAULT_ORGANIZATION_THROTTLE.rateLimit,
        BurstLimit: DEFAULT_ORGANIZATION_THROTTLE.burstLimit,
      },
      ApiStages: [Match.objectLike({ ApiId: Match.anyValue(), Stage: Match.anyValue() })],
    });
    // Every API-key route requires the key, which is what applies the plan; the OAuth and MCP routes don't.
    const methods = Object.values(template.findResources('AWS::ApiGateway::Method')) as {
      Properties: { AuthorizationType: string; ApiKeyRequired?: boolean; HttpMethod: string };
    }[];
    for (const method of methods.filter((candidate) => candidate.Properties.HttpMethod !== 'OPTIONS')) {
      expect(method.Properties.ApiKeyRequired === true).toBe(
        method.Properties.AuthorizationType === 'CUSTOM',
      );
    }
    // Each API-key route's method, and the HEAD of each of its GETs.
    expect(methods.filter((method) => method.Properties.ApiKeyRequired)).toHaveLength(
      routes.filter((route) => route.auth === 'apiKey').length +
        routes.filter((route) => route.auth === 'apiKey' && route.method === 'GET').length,
    );
  });

  it('builds the webhooks queue: eight receives before its dead-letter queue, visibility above the 15 s send timeout', () => {
    const definition = queueDefinitions.webhooks;
    expect(definition.visibilityTimeoutSeconds).toBeGreaterThan(15);
    expect(definition.visibilityTimeoutSeconds).toBeGreaterThan(definition.consumerTimeoutSeconds);
    template.hasResourceProperties('AWS::SQS::Queue', {
      VisibilityTimeout: definition.visibilityTimeoutSeconds,
      RedrivePolicy: Match.objectLike({ maxReceiveCount: 8 }),
    });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BatchSize: definition.batchSize,
      ScalingConfig: { MaximumConcurrency: definition.maxConcurrency },
      EventSourceArn: Match.objectLike({
        'Fn::GetAtt': Match.arrayWith([Match.stringLikeRegexp('WebhooksQueue')]),
      }),
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: 'Consumer of the webhooks queue',
      Timeout: definition.consumerTimeoutSeconds,
      Environment: {
        Variables: Match.objectLike({ TABLE_NAME: Match.anyValue(), WEBHOOKS_QUEUE_URL: Match.anyValue() }),
      },
    });
    template.hasOutput('WebhooksQueueUrl', {});
    template.hasOutput('WebhooksDeadLetterQueueUrl', {});
  });

  it('lets the stream relay read subscriptions and write deliveries (the fan-out) and send to the webhooks queue', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: 'Moves outbox items from the table stream to their queues',
      Environment: {
        Variables: Match.objectLike({ TABLE_NAME: Match.anyValue(), WEBHOOKS_QUEUE_URL: Match.anyValue() }),
      },
    });
    const relayPolicy = (actions: string[]) => ({
      Roles: [{ Ref: Match.stringLikeRegexp('^StreamRelayServiceRole') }],
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Action: Match.arrayWith(actions) })]),
      },
    });
    template.hasResourceProperties(
      'AWS::IAM::Policy',
      relayPolicy(['dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem']),
    );
    template.hasResourceProperties('AWS::IAM::Policy', relayPolicy(['sqs:SendMessage']));
  });

  it('never lets a deployed function send webhooks over http to loopback (a local-stack-only setting)', () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));
    expect(functions.length).toBeGreaterThan(0);
    for (const fn of functions) {
      expect(Object.keys(fn.Properties.Environment?.Variables ?? {})).not.toContain(
        'WEBHOOK_ALLOW_HTTP_LOOPBACK',
      );
    }
  });

  it('signs the dashboard in with a Cognito user pool: invited members, managed login, a public PKCE client', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      UsernameAttributes: ['email'],
      Policies: { PasswordPolicy: Match.objectLike({ MinimumLength: 12 }) },
    });
    template.hasResourceProperties('AWS::Cognito::UserPoolDomain', { ManagedLoginVersion: 2 });
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthScopes: Match.arrayWith(['openid', 'email']),
      CallbackURLs: [Match.anyValue()],
      SupportedIdentityProviders: ['COGNITO'],
    });
    template.resourceCountIs('AWS::Cognito::ManagedLoginBranding', 1);
    template.hasOutput('DashboardUserPoolId', Match.anyValue());
  });

  it('gives the sign-in settings to the functions that read sessions, and to no other', () => {
    const sessionRoutes = routes.filter((route) => 'session' in route && route.session);
    expect(sessionRoutes.map((route) => route.name).sort()).toEqual(
      ['dashboard', 'dashboard-item', 'dashboard-page', 'oauth-authorize', 'oauth-authorize-submit'].sort(),
    );
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));
    const withIssuer = functions.filter((fn) =>
      Object.keys(fn.Properties.Environment?.Variables ?? {}).includes('DASHBOARD_OIDC_ISSUER'),
    );
    expect(withIssuer).toHaveLength(sessionRoutes.length);
    for (const fn of withIssuer)
      expect(Object.keys(fn.Properties.Environment.Variables)).toContain('DASHBOARD_OIDC_CLIENT_ID');
  });

  it('lets the dashboard, and no other function, invite people to the user pool (AdminCreateUser emails them)', () => {
    const inviting = routes.filter((route) => 'invites' in route && route.invites);
    expect(inviting.map((route) => route.name).sort()).toEqual([
      'dashboard',
      'dashboard-item',
      'dashboard-page',
    ]);
    const [userPool] = Object.keys(template.findResources('AWS::Cognito::UserPool'));
    const functions = template.findResources('AWS::Lambda::Function');
    const withPool = Object.entries(functions).filter(([, fn]) =>
      Object.keys(fn.Properties.Environment?.Variables ?? {}).includes('COGNITO_USER_POOL_ID'),
    );
    expect(withPool.map(([id]) => id.replace(/[0-9A-F]{8}$/, '')).sort()).toEqual([
      'Dashboard',
      'DashboardItem',
      'DashboardPage',
    ]);
    for (const [, fn] of withPool)
      expect(fn.Properties.Environment.Variables.COGNITO_USER_POOL_ID).toEqual({ Ref: userPool });
    // Each dashboard function's role may create and read users of this pool, and nothing else of Cognito.
    const cognitoStatements = Object.values(template.findResources('AWS::IAM::Policy')).flatMap((policy) =>
      (policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
        .filter((statement) => [statement.Action].flat().some((action) => action.startsWith('cognito-idp:')))
        .map((statement) => ({ roles: policy.Properties.Roles, ...statement })),
    );
    expect(cognitoStatements).toHaveLength(inviting.length);
    for (const statement of cognitoStatements) {
      expect([statement.Action].flat().sort()).toEqual([
        'cognito-idp:AdminCreateUser',
        'cognito-idp:AdminGetUser',
      ]);
      expect(statement.Resource).toEqual({ 'Fn::GetAtt': [userPool, 'Arn'] });
    }
  });
});
