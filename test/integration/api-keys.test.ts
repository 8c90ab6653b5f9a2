import { createHash } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createApiKey, listApiKeys, revokeApiKey, verifyApiKey } from '#domain/api-keys.ts';
import { ApiKeyNotFound, OrganizationNotFound } from '#domain/errors.ts';
import { createOrganization } from '#domain/organizations.ts';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { keys } from '#store/keys.ts';

const secretOf = (apiKey: string) => apiKey.split('.')[1]!;

describe('API keys against DynamoDB Local', () => {
  it('issues keys of the form <ORG_ID>.<SECRET> with at least 128 random bits', async () => {
    const { orgId } = await createOrganization('Keys Inc');
    const { apiKey } = await createApiKey(orgId);
    expect(apiKey).toMatch(new RegExp(`^${orgId}\\.[A-Za-z0-9_-]{43}$`));
    expect(Buffer.from(secretOf(apiKey), 'base64url').length * 8).toBeGreaterThanOrEqual(128);
  });

  it('stores only a hash of the secret', async () => {
    const { orgId } = await createOrganization('Hash Inc');
    const { apiKey } = await createApiKey(orgId);
    const hash = createHash('sha256').update(secretOf(apiKey)).digest('hex');
    const { Item } = await dynamo.send(
      new GetCommand({ TableName: tableName(), Key: keys.apiKeyLookup(hash) }),
    );
    expect(Item).toBeDefined();
    expect(JSON.stringify(Item)).not.toContain(secretOf(apiKey));
  });

  it('resolves a valid key to its organization and key', async () => {
    const { orgId } = await createOrganization('Valid Inc');
    const { apiKey, keyId } = await createApiKey(orgId);
    expect(await verifyApiKey(apiKey)).toEqual({ orgId, keyId });
  });

  it('keeps several keys per organization, each valid on its own', async () => {
    const { orgId } = await createOrganization('Many Keys Inc');
    const first = await createApiKey(orgId);
    const second = await createApiKey(orgId);
    expect(await verifyApiKey(first.apiKey)).toEqual({ orgId, keyId: first.keyId });
    expect(await verifyApiKey(second.apiKey)).toEqual({ orgId, keyId: second.keyId });
    expect((await listApiKeys(orgId)).map((key) => key.keyId)).toEqual([first.keyId, second.keyId]);
  });

  it('lists keys without secrets or hashes', async () => {
    const { orgId } = await createOrganization('List Inc');
    const { apiKey } = await createApiKey(orgId);
    const listed = await listApiKeys(orgId);
    expect(Object.keys(listed[0]!).sort()).toEqual(['createdAt', 'keyId', 'lastUsedAt', 'revokedAt']);
    expect(JSON.stringify(listed)).not.toContain(secretOf(apiKey));
  });

  it('rejects a revoked key and keeps the first revocation time', async () => {
    const { orgId } = await createOrganization('Revoke Inc');
    const { apiKey, keyId } = await createApiKey(orgId);
    const first = await revokeApiKey(orgId, keyId);
    const second = await revokeApiKey(orgId, keyId);
    expect(second.revokedAt).toBe(first.revokedAt);
    expect(await verifyApiKey(apiKey)).toBeNull();
  });

  it('rejects the secret of one organization presented under another organization id', async () => {
    const { orgId } = await createOrganization('Owner Inc');
    const other = await createOrganization('Other Inc');
    const { apiKey } = await createApiKey(orgId);
    expect(await verifyApiKey(`${other.orgId}.${secretOf(apiKey)}`)).toBeNull();
  });

  it('cannot revoke another organization’s key', async () => {
    const { orgId } = await createOrganization('Mine Inc');
    const other = await createOrganization('Theirs Inc');
    const { keyId } = await createApiKey(orgId);
    await expect(revokeApiKey(other.orgId, keyId)).rejects.toBeInstanceOf(ApiKeyNotFound);
  });

  it('refuses a key for an organization that does not exist', async () => {
    await expect(createApiKey(987_654_321)).rejects.toBeInstanceOf(OrganizationNotFound);
  });

  it('writes the last-used time on first use and not again within a minute', async () => {
    const { orgId } = await createOrganization('Used Inc');
    const { apiKey } = await createApiKey(orgId);
    await verifyApiKey(apiKey);
    const [afterFirst] = await listApiKeys(orgId);
    expect(afterFirst!.lastUsedAt).not.toBeNull();
    await verifyApiKey(apiKey);
    const [afterSecond] = await listApiKeys(orgId);
    expect(afterSecond!.lastUsedAt).toBe(afterFirst!.lastUsedAt);
  });

  it('lists an organization’s keys from its own partition of the index only', async () => {
    const { orgId } = await createOrganization('Index Inc');
    await createApiKey(orgId);
    const { Items } = await dynamo.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.apiKeysOfOrganization(orgId).gsi1pk },
      }),
    );
    expect(Items?.every((item) => item.orgId === orgId)).toBe(true);
  });
});
