import { createHash } from 'node:crypto';

/**
 * How a secret is kept at rest (API key secrets, OAuth client secrets, tokens
 * and codes): its SHA-256 in hex. A fast hash is the right tool for these: each
 * is random and long, so there is nothing for a slow KDF to protect, and a
 * lookup by the hash stays one GetItem.
 */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');
