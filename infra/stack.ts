import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import {
  AuthorizationType,
  EndpointType,
  IdentitySource,
  LambdaIntegration,
  RequestAuthorizer,
  ResponseType,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import { AttributeType, BillingMode, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { STACK_OUTPUTS } from '../shared/admin/target.ts';
import { type GatewayResponseType, gatewayResponses } from '../shared/gateway-responses.ts';
import { API_KEY_HEADER, AUTHORIZER_CACHE_TTL_SECONDS, handlerEntry, routes } from '../shared/routes.ts';
import { tableDefinition } from '../shared/table.ts';
import { ServiceFunction } from './constructs/service-function.ts';

export type StageName = 'dev' | 'prod';

export interface OutreachApiStackProps extends StackProps {
  stage: StageName;
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
 * and gateway responses that speak `{message}` JSON.
 */
export class OutreachApiStack extends Stack {
  readonly table: Table;
  readonly api: RestApi;

  constructor(scope: Construct, id: string, props: OutreachApiStackProps) {
    super(scope, id, props);
    const isProd = props.stage === 'prod';
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

    const authorizerFunction = new ServiceFunction(this, 'Authorizer', {
      entry: 'functions/authorizer/handler.ts',
      description: 'REQUEST authorizer for the x-api-key header',
      logRemovalPolicy: removalPolicy,
    }).bindTable(this.table, 'readWrite');

    this.api = new RestApi(this, 'Api', {
      restApiName: `outreach-public-api-${props.stage}`,
      endpointConfiguration: { types: [EndpointType.REGIONAL] },
      deployOptions: { stageName: props.stage },
      cloudWatchRole: false,
    });
    const authorizer = new RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      handler: authorizerFunction,
      identitySources: [IdentitySource.header(API_KEY_HEADER)],
      resultsCacheTtl: Duration.seconds(AUTHORIZER_CACHE_TTL_SECONDS),
    });

    for (const route of routes) {
      const handler = new ServiceFunction(this, constructId(route.name), {
        entry: handlerEntry(route),
        description: `${route.method} ${route.path}`,
        logRemovalPolicy: removalPolicy,
      }).bindTable(this.table, route.table);
      this.api.root
        .resourceForPath(route.path)
        .addMethod(
          route.method,
          new LambdaIntegration(handler),
          route.auth === 'apiKey' ? { authorizer, authorizationType: AuthorizationType.CUSTOM } : {},
        );
    }

    for (const [type, response] of Object.entries(gatewayResponses)) {
      this.api.addGatewayResponse(`Gateway${constructId(type.toLowerCase())}`, {
        type: ResponseType.of(type as GatewayResponseType),
        statusCode: response.statusCode === null ? undefined : String(response.statusCode),
        templates: {
          'application/json':
            response.message === null
              ? '{"message":$context.error.messageString}'
              : JSON.stringify({ message: response.message }),
        },
        responseHeaders: { 'Content-Type': "'application/json'" },
      });
    }

    new CfnOutput(this, 'ApiUrl', { value: this.api.url });
    new CfnOutput(this, STACK_OUTPUTS.tableName, { value: this.table.tableName });
  }
}
