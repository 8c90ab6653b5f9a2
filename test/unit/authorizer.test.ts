import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../functions/authorizer/handler.ts';

const dynamoMock = mockClient(DynamoDBDocumentClient);
const METHOD_ARN = 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/GET/public/v1/auth';
const VALID_KEY = `5.${'b'.repeat(43)}`;

const eventWithHeaders = (headers: Record<string, string>): APIGatewayRequestAuthorizerEvent =>
  ({ type: 'REQUEST', methodArn: METHOD_ARN, headers }) as unknown as APIGatewayRequestAuthorizerEvent;

describe('authorizer handler', () => {
  beforeEach(() => {
    dynamoMock.reset();
    dynamoMock.on(UpdateCommand).resolves({});
  });

  it.each([['abc'], ['.x'], ['1.'], ['z'.repeat(10_240)], ['']])(
    'rejects the malformed key %# with the Unauthorized signal',
    async (key) => {
      await expect(handler(eventWithHeaders({ 'x-api-key': key }))).rejects.toThrow(/^Unauthorized$/);
    },
  );

  it('rejects a request without the header', async () => {
    await expect(handler(eventWithHeaders({}))).rejects.toThrow(/^Unauthorized$/);
  });

  it('rejects an unknown key', async () => {
    dynamoMock.on(GetCommand).resolves({});
    await expect(handler(eventWithHeaders({ 'x-api-key': VALID_KEY }))).rejects.toThrow(/^Unauthorized$/);
  });

  it('fails as an authorizer failure, not as a 401, when the table cannot be read', async () => {
    dynamoMock.on(GetCommand).rejects(new Error('ProvisionedThroughputExceededException'));
    await expect(handler(eventWithHeaders({ 'x-api-key': VALID_KEY }))).rejects.toThrow(
      /^Authorizer failure$/,
    );
  });

  it('rejects a revoked key', async () => {
    dynamoMock
      .on(GetCommand)
      .resolves({ Item: { orgId: 5, keyId: 9, revokedAt: '2026-01-01T00:00:00.000Z' } });
    await expect(handler(eventWithHeaders({ 'x-api-key': VALID_KEY }))).rejects.toThrow(/^Unauthorized$/);
  });

  it('rejects an expired key exactly like a revoked one', async () => {
    const expiresAt = new Date(Date.now() - 1000).toISOString();
    dynamoMock.on(GetCommand).resolves({ Item: { orgId: 5, keyId: 9, scope: 'read-write', expiresAt } });
    await expect(handler(eventWithHeaders({ 'x-api-key': VALID_KEY }))).rejects.toThrow(/^Unauthorized$/);
  });

  it('passes a read key’s scope on in the context', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    dynamoMock.on(GetCommand).resolves({ Item: { orgId: 5, keyId: 10, scope: 'read', expiresAt } });
    const result = await handler(eventWithHeaders({ 'x-api-key': VALID_KEY }));
    expect(result.context).toEqual({ orgId: 5, keyId: 10, scope: 'read' });
  });

  it('allows every route of the stage for a valid key and passes the organization, its scope and its usage plan key on', async () => {
    // A key stored before scopes existed: read-write.
    dynamoMock.on(GetCommand).resolves({ Item: { orgId: 5, keyId: 9 } });
    const result = await handler(eventWithHeaders({ 'X-Api-Key': VALID_KEY }));
    expect(result).toEqual({
      principalId: 'org:5',
      policyDocument: {
        Version: '2012-10-17',
        Statement: [
          {
            Action: 'execute-api:Invoke',
            Effect: 'Allow',
            Resource: 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/*',
          },
        ],
      },
      context: { orgId: 5, keyId: 9, scope: 'read-write' },
      usageIdentifierKey: 'outreach-abc123-org-5',
    });
  });
});
