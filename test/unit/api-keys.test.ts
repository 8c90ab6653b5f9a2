import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApiKey, isExpired, newApiKeyOptions, parseApiKey, verifyApiKey } from '#domain/api-keys.ts';
import { ApiKeyOptionInvalid } from '#domain/errors.ts';

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
    dynamoMock.on(GetCommand).resolves({ Item: { orgId: 7, keyId: 3, scope: 'read-write' } });
    dynamoMock.on(UpdateCommand).resolves({});
    expect(await verifyApiKey(`7.${SECRET}`)).toEqual({ orgId: 7, keyId: 3, scope: 'read-write' });
    expect(dynamoMock.commandCalls(UpdateCommand)).toHaveLength(1);
  });

  it('resolves a read key with its scope', async () => {
    dynamoMock.on(GetCommand).resolves({ Item: { orgId: 7, keyId: 4, scope: 'read' } });
    dynamoMock.on(UpdateCommand).resolves({});
    expect(await verifyApiKey(`7.${SECRET}`)).toEqual({ orgId: 7, keyId: 4, scope: 'read' });
  });

  it('gives a key stored before scopes existed (no scope attribute) the read-write scope', async () => {
    dynamoMock.on(GetCommand).resolves({ Item: { orgId: 7, keyId: 3 } });
    dynamoMock.on(UpdateCommand).resolves({});
    expect(await verifyApiKey(`7.${SECRET}`)).toEqual({ orgId: 7, keyId: 3, scope: 'read-write' });
  });

  it('returns null for an expired key, without recording a use', async () => {
    const expiresAt = new Date(Date.now() - 1000).toISOString();
    dynamoMock.on(GetCommand).resolves({ Item: { orgId: 7, keyId: 3, scope: 'read', expiresAt } });
    expect(await verifyApiKey(`7.${SECRET}`)).toBeNull();
    expect(dynamoMock.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('resolves a key whose expiry is still ahead', async () => {
    const expiresAt = new Date(Date.now() + 60_000).toISOString();
    dynamoMock.on(GetCommand).resolves({ Item: { orgId: 7, keyId: 3, scope: 'read', expiresAt } });
    dynamoMock.on(UpdateCommand).resolves({});
    expect(await verifyApiKey(`7.${SECRET}`)).toEqual({ orgId: 7, keyId: 3, scope: 'read' });
  });

  it('throws on a stored scope it does not know: an authorizer failure, never a guessed scope', async () => {
    dynamoMock.on(GetCommand).resolves({ Item: { orgId: 7, keyId: 3, scope: 'admin' } });
    await expect(verifyApiKey(`7.${SECRET}`)).rejects.toThrow();
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
    expect(await verifyApiKey(`7.${SECRET}`)).toEqual({ orgId: 7, keyId: 3, scope: 'read-write' });
  });

  it('never stores or sends the secret itself', async () => {
    dynamoMock.on(GetCommand).resolves({ Item: { orgId: 7, keyId: 3 } });
    dynamoMock.on(UpdateCommand).resolves({});
    await verifyApiKey(`7.${SECRET}`);
    for (const call of dynamoMock.calls()) expect(JSON.stringify(call.args[0].input)).not.toContain(SECRET);
  });
});

describe('isExpired', () => {
  const now = Date.parse('2026-05-01T12:00:00.000Z');

  it('is false for a key without an expiry or one still ahead', () => {
    expect(isExpired({ expiresAt: null }, now)).toBe(false);
    expect(isExpired({ expiresAt: '2026-05-01T12:00:00.001Z' }, now)).toBe(false);
  });

  it('is true from the expiry on', () => {
    expect(isExpired({ expiresAt: '2026-05-01T12:00:00.000Z' }, now)).toBe(true);
    expect(isExpired({ expiresAt: '2026-04-30T00:00:00.000Z' }, now)).toBe(true);
  });

  it('counts an expiry that is no time as passed', () => {
    expect(isExpired({ expiresAt: 'soon' }, now)).toBe(true);
  });
});

describe('newApiKeyOptions', () => {
  const messageOf = (options: unknown) => {
    const result = newApiKeyOptions.safeParse(options);
    return result.success
      ? null
      : `${result.error.issues[0]!.path.join('.')}: ${result.error.issues[0]!.message}`;
  };

  it('defaults to a read-write key without a name or expiry', () => {
    expect(newApiKeyOptions.parse({})).toEqual({ scope: 'read-write' });
  });

  it('takes both scopes, a trimmed name and a whole number of days', () => {
    expect(newApiKeyOptions.parse({ scope: 'read', name: '  CI sync ', expiresInDays: 30 })).toEqual({
      scope: 'read',
      name: 'CI sync',
      expiresInDays: 30,
    });
    expect(newApiKeyOptions.parse({ scope: 'read-write', expiresInDays: 3650 }).expiresInDays).toBe(3650);
    expect(newApiKeyOptions.parse({ expiresInDays: 1 }).expiresInDays).toBe(1);
  });

  it('takes names of 1 to 100 characters, counting characters rather than UTF-16 units', () => {
    expect(newApiKeyOptions.parse({ name: 'x' }).name).toBe('x');
    expect(newApiKeyOptions.parse({ name: 'é'.repeat(100) }).name).toHaveLength(100);
    expect(newApiKeyOptions.parse({ name: '🔑'.repeat(100) }).name).toBe('🔑'.repeat(100));
    expect(newApiKeyOptions.parse({ name: 'Zapier – Straße, 東京 #2' }).name).toBe(
      'Zapier – Straße, 東京 #2',
    );
  });

  it.each([
    [{ scope: 'admin' }, 'scope: must be read or read-write'],
    [{ scope: 'READ' }, 'scope: must be read or read-write'],
    [{ name: 'x'.repeat(101) }, 'name: must be 1-100 characters'],
    [{ name: '' }, 'name: must be 1-100 characters'],
    [{ name: '   ' }, 'name: must be 1-100 characters'],
    [{ name: 'tab\there' }, 'name: must be printable: no tabs, line breaks or control characters'],
    [{ name: 'two\nlines' }, 'name: must be printable: no tabs, line breaks or control characters'],
    [{ name: 'bell\u0007' }, 'name: must be printable: no tabs, line breaks or control characters'],
    [{ name: 'evil\u202Etxt.exe' }, 'name: must be printable: no tabs, line breaks or control characters'],
    [{ name: 'line\u2028separator' }, 'name: must be printable: no tabs, line breaks or control characters'],
    [{ expiresInDays: 0 }, 'expiresInDays: must be a whole number from 1 to 3650'],
    [{ expiresInDays: 3651 }, 'expiresInDays: must be a whole number from 1 to 3650'],
    [{ expiresInDays: 1.5 }, 'expiresInDays: must be a whole number from 1 to 3650'],
    [{ expiresInDays: '30' }, 'expiresInDays: must be a whole number from 1 to 3650'],
  ])('refuses %j', (options, message) => {
    expect(messageOf(options)).toBe(message);
  });
});

describe('createApiKey', () => {
  beforeEach(() => dynamoMock.reset());

  it('refuses options outside newApiKeyOptions, naming the field, before touching the table', async () => {
    const refusal = createApiKey(7, { name: 'x'.repeat(101) });
    await expect(refusal).rejects.toBeInstanceOf(ApiKeyOptionInvalid);
    await expect(refusal).rejects.toMatchObject({
      message: 'must be 1-100 characters',
      field: { in: 'body', name: 'name' },
    });
    await expect(createApiKey(7, { expiresInDays: 0 })).rejects.toMatchObject({
      field: { in: 'body', name: 'expiresInDays' },
    });
    expect(dynamoMock.calls()).toHaveLength(0);
  });
});
