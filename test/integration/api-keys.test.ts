import { createHash } from 'node:crypto';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createApiKey, listApiKeys, revokeApiKey, verifyApiKey } from '#domain/api-keys.ts';
import { ApiKeyNotFound, ApiKeyOptionInvalid, OrganizationNotFound } from '#domain/errors.ts';
import { createOrganization } from '#domain/organizations.ts';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { keys } from '#store/keys.ts';

const secretOf = (apiKey: string) => apiKey.split('.')[1]!;
const lookupKeyOf = (apiKey: string) =>
  keys.apiKeyLookup(createHash('sha256').update(secretOf(apiKey)).digest('hex'));

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
    expect(await verifyApiKey(apiKey)).toEqual({ orgId, keyId, scope: 'read-write' });
  });

  it('keeps several keys per organization, each valid on its own', async () => {
    const { orgId } = await createOrganization('Many Keys Inc');
    const first = await createApiKey(orgId);
    const second = await createApiKey(orgId);
    expect(await verifyApiKey(first.apiKey)).toEqual({ orgId, keyId: first.keyId, scope: 'read-write' });
    expect(await verifyApiKey(second.apiKey)).toEqual({ orgId, keyId: second.keyId, scope: 'read-write' });
    expect((await listApiKeys(orgId)).map((key) => key.keyId)).toEqual([first.keyId, second.keyId]);
  });

  it('lists keys without secrets or hashes', async () => {
    const { orgId } = await createOrganization('List Inc');
    const { apiKey } = await createApiKey(orgId);
    const listed = await listApiKeys(orgId);
    expect(Object.keys(listed[0]!).sort()).toEqual([
      'createdAt',
      'expiresAt',
      'keyId',
      'lastUsedAt',
      'name',
      'revokedAt',
      'scope',
    ]);
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

  it('creates a read key with a name and an expiry, stores them, and lists and revokes it with them', async () => {
    const { orgId } = await createOrganization('Scoped Inc');
    const before = Date.now();
    const created = await createApiKey(orgId, { scope: 'read', name: '  CI sync  ', expiresInDays: 30 });
    expect(created).toMatchObject({ scope: 'read', name: 'CI sync' });
    const lifetime = Date.parse(created.expiresAt!) - Date.parse(created.createdAt);
    expect(lifetime).toBe(30 * 86_400_000);
    expect(Date.parse(created.createdAt)).toBeGreaterThanOrEqual(before);
    expect(await verifyApiKey(created.apiKey)).toEqual({ orgId, keyId: created.keyId, scope: 'read' });

    const [listed] = await listApiKeys(orgId);
    expect(listed).toMatchObject({
      keyId: created.keyId,
      scope: 'read',
      name: 'CI sync',
      createdAt: created.createdAt,
      expiresAt: created.expiresAt,
      revokedAt: null,
    });
    const revoked = await revokeApiKey(orgId, created.keyId);
    expect(revoked).toMatchObject({ scope: 'read', name: 'CI sync', expiresAt: created.expiresAt });
    expect(revoked.revokedAt).not.toBeNull();
  });

  it('stores a key without a name or expiry without those attributes, and the scope always', async () => {
    const { orgId } = await createOrganization('Plain Inc');
    const created = await createApiKey(orgId);
    expect(created).toMatchObject({ scope: 'read-write', name: null, expiresAt: null });
    const { Item } = await dynamo.send(
      new GetCommand({ TableName: tableName(), Key: lookupKeyOf(created.apiKey) }),
    );
    expect(Item).toMatchObject({ scope: 'read-write' });
    expect(Item).not.toHaveProperty('name');
    expect(Item).not.toHaveProperty('expiresAt');
  });

  it('treats a key stored before scopes existed as read-write, in the authorizer and the list', async () => {
    const { orgId } = await createOrganization('Legacy Inc');
    const { apiKey, keyId } = await createApiKey(orgId);
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: lookupKeyOf(apiKey),
        // `scope` is a reserved word of DynamoDB's expressions.
        UpdateExpression: 'REMOVE #scope',
        ExpressionAttributeNames: { '#scope': 'scope' },
      }),
    );
    expect(await verifyApiKey(apiKey)).toEqual({ orgId, keyId, scope: 'read-write' });
    expect((await listApiKeys(orgId))[0]).toMatchObject({
      keyId,
      scope: 'read-write',
      name: null,
      expiresAt: null,
    });
  });

  it('rejects a key once its expiry has passed', async () => {
    const { orgId } = await createOrganization('Expiring Inc');
    const { apiKey } = await createApiKey(orgId, { expiresInDays: 1 });
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: lookupKeyOf(apiKey),
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
      }),
    );
    expect(await verifyApiKey(apiKey)).toBeNull();
  });

  it('refuses options a key may not have, writing nothing', async () => {
    const { orgId } = await createOrganization('Refused Inc');
    await expect(createApiKey(orgId, { name: 'x'.repeat(101) })).rejects.toBeInstanceOf(ApiKeyOptionInvalid);
    await expect(createApiKey(orgId, { expiresInDays: 3651 })).rejects.toBeInstanceOf(ApiKeyOptionInvalid);
    expect(await listApiKeys(orgId)).toEqual([]);
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
