import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the signature
 * is HMAC-SHA256 over `${webhook-id}.${webhook-timestamp}.${body}` keyed with
 * the base64-decoded part of a `whsec_<base64>` secret, sent as
 * `v1,<base64 signature>`; several signatures are separated by spaces (while
 * a rotated secret is still honoured). Subscribers verify with any Standard
 * Webhooks library, e.g. the `standardwebhooks` npm package.
 */

export const SECRET_PREFIX = 'whsec_';
/** 32 random bytes (256 bits); the specification asks for 24 to 64. */
const SECRET_BYTES = 32;

/** A fresh signing secret, `whsec_` and 32 random bytes in base64. */
export function generateSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

function keyOf(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('A signing secret starts with whsec_');
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  if (key.length === 0) throw new Error('A signing secret must not be empty');
  return key;
}

/** The `v1,<base64>` signature of one message with one secret. */
export function sign(secret: string, webhookId: string, timestampSeconds: number, body: string): string {
  const digest = createHmac('sha256', keyOf(secret))
    .update(`${webhookId}.${timestampSeconds}.${body}`)
    .digest('base64');
  return `v1,${digest}`;
}

/** The three Standard Webhooks headers of one attempt, signed with every given secret. */
export function webhookHeaders(input: {
  webhookId: string;
  timestampSeconds: number;
  body: string;
  secrets: readonly string[];
}): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': input.webhookId,
    'webhook-timestamp': String(input.timestampSeconds),
    'webhook-signature': input.secrets
      .map((secret) => sign(secret, input.webhookId, input.timestampSeconds, input.body))
      .join(' '),
  };
}
