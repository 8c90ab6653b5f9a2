import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseApiKey, verifyApiKey } from '#domain/api-keys.ts';

const dynamoMock = mockClient(DynamoDBDocumentClient);
const SECRET = 'A'.repeat(43);

describe('parseApiKey', () => {
  it.each([
    ['abc'],
    ['.x'],
    ['1.'],
    [`0.${SECRET}`],
    [`01.${SECRET}`],
    [`-1.${SECRET}`],
    [`1.${SECRET}A`],
    [`1.${'A'.repeat(42)}`],
    [`1.${'A'.repeat(42)}=`],
    [`1.${SECRET}.2`],
    [`99999999999999999.${SECRET}`],
    ['x'.repeat(10_240)],
    [''],
  ])('rejects the malformed key %#', (raw) => {
    expect(parseApiKey(raw)).toBeNull();
  });

  it('splits a well-formed key into organization and secret', () => {
    expect(parseApiKey(`42.${SECRET}`)).toEqual({ orgId: 42, secret: SECRET });
  });

  it('rejects an absent key', () => {
    expect(parseApiKey(undefined)).toBeNull();
  });
});

describe('verifyApiKey', () => {
  beforeEach(() => dynamoMock.reset());

  it('returns null without reading the table for a malformed key', async () => {
    expect(await verifyApiKey('abc')).toBeNull();
    expect(dynamoMock.calls()).toHaveLength(0);
  });

  it('returns null for an unknown key', async () => {
    dynamoMock.on(GetCommand).resolves({});
    expect(await verifyApiKey(`7.${SECRET}`)).toBeNull();
  });

  it('returns null for a revoked key', async () => {
    dynamoMock
      .on(GetCommand)
      .resolves({ Item: { orgId: 7, keyId: 1, revokedAt: '2026-01-01T00:00:00.000Z' } });
    expect(await verifyApiKey(`7.${SECRET}`)).toBeNull();
  });

  it('returns null when the secret belongs to another organization than the key names', async () => {
    dynamoMock.on(GetCommand).resolves({ Item: { orgId: 8, keyId: 1 } });
    expect(await verifyApiKey(`7.${SECRET}`)).toBeNull();
  });

  it('resolves a valid key and records its first use', async () => {
    dynamoMock.on(GetCommand).resolves({ Item: { orgId: 7, keyId: 3 } });
    dynamoMock.on(UpdateCommand).resolves({});
    expect(await verifyApiKey(`7.${SECRET}`)).toEqual({ orgId: 7, keyId: 3 });
    expect(dynamoMock.commandCalls(UpdateCommand)).toHaveLength(1);
  });

  it('does not write the last-used time again within a minute', async () => {
    dynamoMock
      .on(GetCommand)
      .resolves({ Item: { orgId: 7, keyId: 3, lastUsedAt: new Date().toISOString() } });
    await verifyApiKey(`7.${SECRET}`);
    expect(dynamoMock.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('treats a concurrent last-used write by another instance as success', async () => {
    dynamoMock.on(GetCommand).resolves({ Item: { orgId: 7, keyId: 3 } });
    dynamoMock
      .on(UpdateCommand)
      .rejects(new ConditionalCheckFailedException({ message: 'conditional', $metadata: {} }));
    expect(await verifyApiKey(`7.${SECRET}`)).toEqual({ orgId: 7, keyId: 3 });
  });

  it('never stores or sends the secret itself', async () => {
    dynamoMock.on(GetCommand).resolves({ Item: { orgId: 7, keyId: 3 } });
    dynamoMock.on(UpdateCommand).resolves({});
    await verifyApiKey(`7.${SECRET}`);
    for (const call of dynamoMock.calls()) expect(JSON.stringify(call.args[0].input)).not.toContain(SECRET);
  });
});
