import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import * as z from 'zod/mini';
import { type Configuration, ConfigurationError, configuration, VARIABLES } from './config.ts';
import { awsClientOptions, awsSettings, perConfiguration, serviceAwsClient } from './configured.ts';

/**
 * Secrets at rest, and proofs that need no stored secret.
 *
 * Sealing is envelope encryption: each secret gets a fresh 256-bit data key
 * that encrypts it with AES-256-GCM; the data key itself is stored only
 * wrapped — by KMS on AWS (GenerateDataKey / Decrypt, bound to an encryption
 * context naming what the secret is and whose), by the local key in the local
 * stack and tests. A sealed secret is useless without the key service, and
 * on AWS the IAM policy decides which functions may unwrap (docs/providers.md).
 *
 * Proofs are HMAC-SHA-256 tags: with the KMS HMAC key on AWS (GenerateMac:
 * the key never leaves KMS), with a key derived from the local key locally.
 * A provider webhook URL's token is one, so no token is stored anywhere.
 */

/** A sealed secret as stored: every part base64. */
export const sealedSecret = z.object({
  /** The data key, wrapped (a KMS ciphertext blob, or IV ‖ tag ‖ ciphertext under the local key). */
  wrappedKey: z.string(),
  /** Which key wrapped it: `kms` or `local`. */
  wrappedBy: z.enum(['kms', 'local']),
  iv: z.string(),
  ciphertext: z.string(),
  tag: z.string(),
});
export type SealedSecret = z.infer<typeof sealedSecret>;

/** What a secret is and whose: bound to its ciphertext (the AAD) and, on AWS, to its KMS data key. */
export type SecretContext = Readonly<Record<string, string>>;

/** A sealed secret could not be opened: it was altered, or sealed for another context or key. */
export class SecretUnreadable extends Error {
  override name = 'SecretUnreadable';
}

type KmsSdk = typeof import('@aws-sdk/client-kms');

let kmsSdkLoading: Promise<KmsSdk> | undefined;

/**
 * The KMS SDK, loaded at the first KMS call: a bundled function imports it
 * as a chunk of its own, so a cold start of a function that only sometimes
 * seals, opens or proves (and never does locally, with the local key) does
 * not read it.
 */
const kmsSdk = (): Promise<KmsSdk> => {
  kmsSdkLoading ??= import('@aws-sdk/client-kms');
  return kmsSdkLoading;
};

/** The process's KMS client for the configuration, with the SDK's commands. */
const kmsOfConfiguration = perConfiguration(
  (config) => awsSettings(config),
  async (config: Configuration) => {
    const sdk = await kmsSdk();
    return {
      sdk,
      client: serviceAwsClient(new sdk.KMSClient({ maxAttempts: 3, ...awsClientOptions(config.aws) })),
    };
  },
);

/** The configured local key, when there is one (it then wins over KMS). */
function localKey(): Buffer | undefined {
  const key = configuration().secrets.localKey;
  return key === undefined ? undefined : Buffer.from(key, 'base64');
}

function configured(setting: 'kmsKeyId' | 'macKeyId', variable: string): string {
  const value = configuration().secrets[setting];
  if (value === undefined) {
    throw new ConfigurationError(
      `The configuration has no key for secrets (${variable}, or ${VARIABLES.secretsLocalKey} locally)`,
    );
  }
  return value;
}

/**
 * The AAD of a context: its entries in key order (UTF-16 code units, not the locale's collation, whose
 * first use costs a cold start about 12 ms), so the same context always gives the same bytes.
 */
const additionalData = (context: SecretContext): Buffer =>
  Buffer.from(JSON.stringify(Object.entries(context).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));

function encrypt(key: Buffer, plaintext: Buffer, aad: Buffer) {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, ciphertext, tag: cipher.getAuthTag() };
}

function decrypt(key: Buffer, parts: { iv: Buffer; ciphertext: Buffer; tag: Buffer }, aad: Buffer): Buffer {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, parts.iv);
    decipher.setAAD(aad);
    decipher.setAuthTag(parts.tag);
    return Buffer.concat([decipher.update(parts.ciphertext), decipher.final()]);
  } catch {
    throw new SecretUnreadable('The secret does not open with this key and context');
  }
}

/** Seals a secret for its context (envelope encryption; see the module comment). */
export async function sealSecret(plaintext: string, context: SecretContext): Promise<SealedSecret> {
  const aad = additionalData(context);
  const local = localKey();
  let dataKey: Buffer;
  let wrappedKey: Buffer;
  if (local) {
    dataKey = randomBytes(32);
    const wrapped = encrypt(local, dataKey, aad);
    wrappedKey = Buffer.concat([wrapped.iv, wrapped.tag, wrapped.ciphertext]);
  } else {
    const { sdk, client } = await kmsOfConfiguration();
    const generated = await client.send(
      new sdk.GenerateDataKeyCommand({
        KeyId: configured('kmsKeyId', VARIABLES.secretsKmsKeyId),
        KeySpec: 'AES_256',
        EncryptionContext: { ...context },
      }),
    );
    if (!generated.Plaintext || !generated.CiphertextBlob) throw new Error('KMS returned no data key');
    dataKey = Buffer.from(generated.Plaintext);
    wrappedKey = Buffer.from(generated.CiphertextBlob);
  }
  const sealed = encrypt(dataKey, Buffer.from(plaintext, 'utf8'), aad);
  dataKey.fill(0);
  return {
    wrappedKey: wrappedKey.toString('base64'),
    wrappedBy: local ? 'local' : 'kms',
    iv: sealed.iv.toString('base64'),
    ciphertext: sealed.ciphertext.toString('base64'),
    tag: sealed.tag.toString('base64'),
  };
}

/** Opens a secret sealed for the same context; SecretUnreadable when it does not open. */
export async function openSecret(sealed: SealedSecret, context: SecretContext): Promise<string> {
  const aad = additionalData(context);
  const wrapped = Buffer.from(sealed.wrappedKey, 'base64');
  let dataKey: Buffer;
  if (sealed.wrappedBy === 'local') {
    const local = localKey();
    if (!local) throw new SecretUnreadable('The secret was sealed with a local key, and none is configured');
    dataKey = decrypt(
      local,
      { iv: wrapped.subarray(0, 12), tag: wrapped.subarray(12, 28), ciphertext: wrapped.subarray(28) },
      aad,
    );
  } else {
    const { sdk, client } = await kmsOfConfiguration();
    const { Plaintext } = await client.send(
      new sdk.DecryptCommand({ CiphertextBlob: wrapped, EncryptionContext: { ...context } }),
    );
    if (!Plaintext) throw new SecretUnreadable('KMS returned no data key');
    dataKey = Buffer.from(Plaintext);
  }
  const plaintext = decrypt(
    dataKey,
    {
      iv: Buffer.from(sealed.iv, 'base64'),
      ciphertext: Buffer.from(sealed.ciphertext, 'base64'),
      tag: Buffer.from(sealed.tag, 'base64'),
    },
    aad,
  );
  dataKey.fill(0);
  return plaintext.toString('utf8');
}

/** The local key's MAC key, derived once per local key: a listing computes a tag per provider connection. */
let localMacKey: { from: string; key: Buffer } | undefined;

function localMacKeyOf(localKeyBase64: string): Buffer {
  if (localMacKey?.from !== localKeyBase64) {
    const local = Buffer.from(localKeyBase64, 'base64');
    // A key of its own for tags, so the local key's two uses never meet.
    const key = Buffer.from(hkdfSync('sha256', local, Buffer.alloc(0), 'outreach mac key', 32));
    localMacKey = { from: localKeyBase64, key };
  }
  return localMacKey.key;
}

/**
 * Tags already computed, by message, per key: a warm function that lists 20
 * provider connections, or receives a provider's webhooks, would otherwise
 * call KMS GenerateMac once per connection or event on every request. A tag
 * is a function of the message and the key alone, so it never goes stale; the
 * cache is bounded, oldest out first. Keys derived from tags
 * (macDerivedKey) are never kept: they are computed, used and wiped.
 */
const MAC_CACHE_SIZE = 1000;
/** The configuration (so its keys) the cached tags were made with: one per process on Lambda. */
let macCache: { config: Configuration; tags: Map<string, string> } | undefined;

function macCacheFor(config: Configuration): Map<string, string> {
  if (macCache?.config !== config) macCache = { config, tags: new Map() };
  return macCache.tags;
}

/** The HMAC-SHA-256 tag of a message, base64url (see the module comment for the key). */
export async function macOf(message: string): Promise<string> {
  const tags = macCacheFor(configuration());
  const known = tags.get(message);
  if (known !== undefined) return known;
  const tag = await computeMac(message);
  if (tags.size >= MAC_CACHE_SIZE) tags.delete(tags.keys().next().value!);
  tags.set(message, tag);
  return tag;
}

async function computeMac(message: string): Promise<string> {
  const local = configuration().secrets.localKey;
  if (local !== undefined) {
    return createHmac('sha256', localMacKeyOf(local)).update(message).digest('base64url');
  }
  const { sdk, client } = await kmsOfConfiguration();
  const { Mac } = await client.send(
    new sdk.GenerateMacCommand({
      KeyId: configured('macKeyId', VARIABLES.secretsMacKeyId),
      MacAlgorithm: 'HMAC_SHA_256',
      Message: Buffer.from(message, 'utf8'),
    }),
  );
  if (!Mac) throw new Error('KMS returned no MAC');
  return Buffer.from(Mac).toString('base64url');
}

/** Whether `tag` is the tag of `message`, compared in constant time. */
export async function macMatches(message: string, tag: string): Promise<boolean> {
  const expected = Buffer.from(await macOf(message));
  const given = Buffer.from(tag);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** A value sealed under a key derived from a MAC (sealWithMacKey): every part base64. */
export interface MacSealed {
  iv: string;
  ciphertext: string;
  tag: string;
}

/**
 * The AES-256 key of a context, derived as the MAC of the context's bytes under
 * a label of its own (HMAC as a key-derivation function, as HKDF's extract is),
 * so no token message can ever name the same bytes.
 */
const macDerivedKey = async (context: SecretContext): Promise<Buffer> =>
  Buffer.from(await computeMac(`mac-derived-key\n${additionalData(context).toString('utf8')}`), 'base64url');

/**
 * Seals a value under a key derived from the MAC key (the key never stored,
 * derived again to open): for values kept briefly that hold a credential, such as
 * an `Idempotency-Key`'s stored answer. It needs only `kms:GenerateMac` on AWS,
 * which the functions that mint webhook URL tokens have anyway, so no function
 * gains a way to decrypt provider API keys (docs/decisions.md, Idempotency-Key).
 */
export async function sealWithMacKey(plaintext: string, context: SecretContext): Promise<MacSealed> {
  const key = await macDerivedKey(context);
  const sealed = encrypt(key, Buffer.from(plaintext, 'utf8'), additionalData(context));
  key.fill(0);
  return {
    iv: sealed.iv.toString('base64'),
    ciphertext: sealed.ciphertext.toString('base64'),
    tag: sealed.tag.toString('base64'),
  };
}

/** Opens a value sealed by sealWithMacKey for the same context; SecretUnreadable when it does not open. */
export async function openWithMacKey(sealed: MacSealed, context: SecretContext): Promise<string> {
  const key = await macDerivedKey(context);
  const parts = {
    iv: Buffer.from(sealed.iv, 'base64'),
    ciphertext: Buffer.from(sealed.ciphertext, 'base64'),
    tag: Buffer.from(sealed.tag, 'base64'),
  };
  try {
    return decrypt(key, parts, additionalData(context)).toString('utf8');
  } finally {
    key.fill(0);
  }
}

/** Sealing for the kept answers of the routes that answer a credential (the endpoint wrapper's `answers` option). */
export const credentialAnswers = { seal: sealWithMacKey, open: openWithMacKey };

/** A fresh local key (base64): the local stack's, kept in its data folder when it has one. */
export const newLocalKey = (): string => randomBytes(32).toString('base64');
