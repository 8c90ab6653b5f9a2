import { DecryptCommand, GenerateDataKeyCommand, GenerateMacCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { configuration, loadConfiguration, useConfiguration } from '#platform/config.ts';
import {
  macMatches,
  macOf,
  newLocalKey,
  openSecret,
  openWithMacKey,
  SecretUnreadable,
  sealSecret,
  sealWithMacKey,
} from '#platform/secrets.ts';

/**
 * Secrets at rest: envelope encryption bound to its context, and URL token
 * tags, with the local key (the local stack's and the tests') and with KMS
 * (its calls mocked: which key, which context, what is stored).
 */

const environment = configuration();
afterAll(() => {
  useConfiguration(environment);
});

const CONTEXT = { purpose: 'provider-api-key', orgId: '7', connectionId: '3' };

describe('with the local key', () => {
  beforeEach(() => {
    useConfiguration({ ...loadConfiguration({}), secrets: { localKey: newLocalKey() } });
  });

  it('seals a secret so that nothing of it shows, and opens it with the same context', async () => {
    const sealed = await sealSecret('sl-api-key-123456', CONTEXT);
    expect(JSON.stringify(sealed)).not.toContain('sl-api-key');
    expect(sealed.wrappedBy).toBe('local');
    expect(await openSecret(sealed, CONTEXT)).toBe('sl-api-key-123456');
  });

  it('seals the same secret differently each time (a fresh data key and IV)', async () => {
    const [first, second] = [await sealSecret('same', CONTEXT), await sealSecret('same', CONTEXT)];
    expect(first.ciphertext === second.ciphertext && first.iv === second.iv).toBe(false);
  });

  it('refuses to open under another context, or altered', async () => {
    const sealed = await sealSecret('key', CONTEXT);
    await expect(openSecret(sealed, { ...CONTEXT, orgId: '8' })).rejects.toBeInstanceOf(SecretUnreadable);
    const flipped = Buffer.from(sealed.ciphertext, 'base64');
    flipped[0] = flipped[0]! ^ 1;
    await expect(
      openSecret({ ...sealed, ciphertext: flipped.toString('base64') }, CONTEXT),
    ).rejects.toBeInstanceOf(SecretUnreadable);
  });

  it('opens what was sealed before: the context is in the same key order as it always was', async () => {
    // Sealed when the keys were ordered by the locale's collation: the stored provider keys and
    // idempotent answers of both contexts must keep opening.
    useConfiguration({
      ...loadConfiguration({}),
      secrets: { localKey: Buffer.alloc(32, 7).toString('base64') },
    });
    const apiKey = {
      wrappedKey: 'qXAGi0V8PTU45pE5yf7Z4DSdkYJZkF7jNcT8LaTvuxvq2CipHaPgv1PyAnQnDprlHyrhjFKoqdiTuBmo',
      wrappedBy: 'local' as const,
      iv: 'lFHlU6w/y2z/FXTH',
      ciphertext: 'l2bzbJpGmUUODnTIHRRnt9I=',
      tag: 'TD/kiL1HKhe1w1ffvLz1vQ==',
    };
    expect(await openSecret(apiKey, CONTEXT)).toBe('sl-api-key-123456');
    const answer = {
      wrappedKey: 'Km1/cJxhmJUaOpzn1FxIVoUs/rd3pPRDdyDA9NuV3LcCT8LFBdqG104wVJCCFqPz0F3cPijG0/PWp3m/',
      wrappedBy: 'local' as const,
      iv: 'K4NUoQb819RpgXsv',
      ciphertext: 'H6avhXVNM0FDfkXYvEU=',
      tag: 'sZh6oOoKcgUatXqfKrng+Q==',
    };
    const answerContext = { purpose: 'idempotent-answer', orgId: '7', idempotencyKey: 'k-1' };
    expect(await openSecret(answer, answerContext)).toBe('{"status":201}');
  });

  it('refuses to open with another local key', async () => {
    const sealed = await sealSecret('key', CONTEXT);
    useConfiguration({ ...loadConfiguration({}), secrets: { localKey: newLocalKey() } });
    await expect(openSecret(sealed, CONTEXT)).rejects.toBeInstanceOf(SecretUnreadable);
  });

  it('tags messages: the same message the same tag, checked in constant time', async () => {
    const tag = await macOf('provider-webhook:7:3:1');
    expect(tag).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await macOf('provider-webhook:7:3:1')).toBe(tag);
    expect(await macOf('provider-webhook:7:3:2')).not.toBe(tag);
    expect(await macMatches('provider-webhook:7:3:1', tag)).toBe(true);
    expect(await macMatches('provider-webhook:7:3:1', `${tag.slice(0, -1)}x`)).toBe(false);
    expect(await macMatches('provider-webhook:7:3:1', '')).toBe(false);
  });
});

describe('with KMS', () => {
  const kms = mockClient(KMSClient);
  const dataKey = Buffer.alloc(32, 9);
  beforeEach(() => {
    kms.reset();
    useConfiguration({
      ...loadConfiguration({ AWS_REGION: 'eu-west-1' }),
      secrets: { kmsKeyId: 'arn:secrets', macKeyId: 'arn:mac' },
    });
  });

  it('wraps each data key with the secrets key, bound to the context, and unwraps it to open', async () => {
    kms
      .on(GenerateDataKeyCommand)
      .resolves({ Plaintext: new Uint8Array(dataKey), CiphertextBlob: new Uint8Array([1, 2, 3]) });
    kms.on(DecryptCommand).resolves({ Plaintext: new Uint8Array(dataKey) });
    const sealed = await sealSecret('key-at-kms', CONTEXT);
    expect(sealed).toMatchObject({ wrappedBy: 'kms', wrappedKey: Buffer.from([1, 2, 3]).toString('base64') });
    expect(kms.commandCalls(GenerateDataKeyCommand)[0]!.args[0].input).toEqual({
      KeyId: 'arn:secrets',
      KeySpec: 'AES_256',
      EncryptionContext: CONTEXT,
    });
    expect(await openSecret(sealed, CONTEXT)).toBe('key-at-kms');
    expect(kms.commandCalls(DecryptCommand)[0]!.args[0].input.EncryptionContext).toEqual(CONTEXT);
  });

  it('tags with the HMAC key, which never leaves KMS', async () => {
    kms.on(GenerateMacCommand).resolves({ Mac: new Uint8Array([255, 254]) });
    expect(await macOf('message')).toBe(Buffer.from([255, 254]).toString('base64url'));
    expect(kms.commandCalls(GenerateMacCommand)[0]!.args[0].input).toMatchObject({
      KeyId: 'arn:mac',
      MacAlgorithm: 'HMAC_SHA_256',
    });
  });

  it('asks KMS once per message: a warm function lists connections and checks webhook tokens without it', async () => {
    kms.on(GenerateMacCommand).resolves({ Mac: new Uint8Array([1, 2]) });
    const first = await macOf('provider-webhook:7:3:1');
    expect(await macOf('provider-webhook:7:3:1')).toBe(first);
    expect(await macMatches('provider-webhook:7:3:1', first)).toBe(true);
    expect(kms.commandCalls(GenerateMacCommand)).toHaveLength(1);
    await macOf('provider-webhook:7:3:2');
    expect(kms.commandCalls(GenerateMacCommand)).toHaveLength(2);
  });

  it('derives the key of a MAC-sealed value from KMS every time, keeping none of it', async () => {
    kms.on(GenerateMacCommand).resolves({ Mac: new Uint8Array(32).fill(7) });
    const sealed = await sealWithMacKey('kept answer', CONTEXT);
    expect(await openWithMacKey(sealed, CONTEXT)).toBe('kept answer');
    expect(kms.commandCalls(GenerateMacCommand)).toHaveLength(2);
  });

  it('says which setting is missing when no key is configured', async () => {
    useConfiguration({ ...loadConfiguration({}), secrets: {} });
    await expect(sealSecret('key', CONTEXT)).rejects.toThrow(/SECRETS_KMS_KEY_ID/);
    await expect(macOf('message')).rejects.toThrow(/SECRETS_MAC_KEY_ID/);
  });

  it('propagates a KMS failure (nothing is sealed without it)', async () => {
    kms.on(GenerateDataKeyCommand).rejects(new Error('AccessDeniedException'));
    await expect(sealSecret('key', CONTEXT)).rejects.toThrow('AccessDeniedException');
  });
});
