import { generateKeyPair, type JsonWebKey } from 'node:crypto';
import { promisify } from 'node:util';
import { calculateJwkThumbprint } from 'jose';
import * as z from 'zod';
import { readPrivateFile, writePrivateFile } from './private-files.ts';

/**
 * The key that signs ID tokens: RS256, as Cognito signs them, so the
 * dashboard verifies the same algorithm locally as on AWS. Kept in the data
 * folder when there is one, so tokens issued before a restart still verify
 * against the JWKS after it; otherwise new at each start.
 */

const generateRsaKeyPair = promisify(generateKeyPair);

/** The stored key set: private JWKs as oidc-provider takes them (`kid`, `alg` and `use` included). */
const storedKeySet = z.object({
  keys: z
    .array(z.looseObject({ kty: z.literal('RSA'), kid: z.string(), alg: z.literal('RS256'), d: z.string() }))
    .min(1),
});

export interface SigningKeySet {
  keys: JsonWebKey[];
}

async function newSigningKey(): Promise<JsonWebKey> {
  const { privateKey } = await generateRsaKeyPair('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  // The RFC 7638 thumbprint names the key by its public part, so a kept key keeps its name.
  const kid = await calculateJwkThumbprint({ kty: 'RSA', n: jwk.n!, e: jwk.e! });
  return { ...jwk, kid, alg: 'RS256', use: 'sig' };
}

/** The key set kept in `file`, made and saved there on first use; without a file, a new one. */
export async function loadSigningKeys(file: string | undefined): Promise<SigningKeySet> {
  const stored = file === undefined ? undefined : readPrivateFile(file);
  if (stored !== undefined) return storedKeySet.parse(JSON.parse(stored));
  const keySet = { keys: [await newSigningKey()] };
  if (file !== undefined) writePrivateFile(file, `${JSON.stringify(keySet, null, 2)}\n`);
  return keySet;
}
