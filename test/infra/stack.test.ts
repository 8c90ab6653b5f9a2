import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { gatewayResponses } from '#shared/gateway-responses.ts';
import { routes } from '#shared/routes.ts';
import { tableDefinition } from '#shared/table.ts';
import { synthesize } from '../support/synth.ts';

type Template = ReturnType<typeof synthesize>['template'];
let template: Template;

beforeAll(() => {
  ({ template } = synthesize('dev'));
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

  it('gives every route and the authorizer its own Node.js 24 arm64 function', () => {
    const functions = template.findResources('AWS::Lambda::Function', {
      Properties: { Runtime: 'nodejs24.x', Architectures: ['arm64'] },
    });
    expect(Object.keys(functions)).toHaveLength(routes.length + 1);
  });

  it('is a regional REST API', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      EndpointConfiguration: { Types: ['REGIONAL'] },
    });
  });

  it('authorizes with a cached REQUEST authorizer on the x-api-key header', () => {
    template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      IdentitySource: 'method.request.header.x-api-key',
      AuthorizerResultTtlInSeconds: 300,
    });
  });

  it('declares one method per manifest route with the authorizer its auth mode asks for', () => {
    const methods = template.findResources('AWS::ApiGateway::Method');
    for (const route of routes) {
      const matching = Object.values(methods).filter(
        (method) =>
          method.Properties.HttpMethod === route.method &&
          JSON.stringify(method.Properties.ResourceId).includes(
            route.path.split('/').at(-1)!.replace(/[{}]/g, ''),
          ),
      );
      expect(matching.length).toBeGreaterThan(0);
      for (const method of matching) {
        expect(method.Properties.AuthorizationType).toBe(route.auth === 'apiKey' ? 'CUSTOM' : 'NONE');
      }
    }
  });

  it('answers a missing or rejected key with 401 JSON, never 403', () => {
    for (const type of ['UNAUTHORIZED', 'ACCESS_DENIED']) {
      template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: type,
        StatusCode: '401',
        ResponseTemplates: { 'application/json': '{"message":"Unauthorized"}' },
      });
    }
  });

  it('gives every gateway-generated error a JSON {message} body', () => {
    const responses = template.findResources('AWS::ApiGateway::GatewayResponse');
    const types = Object.values(responses).map((response) => response.Properties.ResponseType);
    expect(types.sort()).toEqual(Object.keys(gatewayResponses).sort());
    for (const response of Object.values(responses)) {
      expect(response.Properties.ResponseTemplates['application/json']).toMatch(/^\{"message":/);
    }
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'MISSING_AUTHENTICATION_TOKEN',
      StatusCode: '404',
    });
  });

  it('outputs the API URL and the table name', () => {
    template.hasOutput('ApiUrl', {});
    template.hasOutput('TableName', {});
  });
});
