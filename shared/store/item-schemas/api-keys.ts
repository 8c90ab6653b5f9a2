import * as z from 'zod/mini';
import { API_KEY_SCOPES } from '#definitions/routes.ts';

// The item schemas of api-keys.ts: what its store reads (and checks) items with.

/** What the authorizer reads of a key (on every cache miss: only these fields). */
export const apiKeyIdentityItem = z.object({
  orgId: z.number(),
  keyId: z.number(),
  // Keys written before scopes existed have none: they could always do everything.
  scope: z._default(z.enum(API_KEY_SCOPES), 'read-write'),
  lastUsedAt: z._default(z.nullable(z.string()), null),
  revokedAt: z._default(z.nullable(z.string()), null),
  expiresAt: z._default(z.nullable(z.string()), null),
});

export type ApiKeyIdentityItem = z.infer<typeof apiKeyIdentityItem>;

/** A key as listed and revoked. */
export const apiKeyItem = z.extend(apiKeyIdentityItem, {
  createdAt: z.string(),
  name: z._default(z.nullable(z.string()), null),
});

export type ApiKeyItem = z.infer<typeof apiKeyItem>;

export const itemKey = z.object({ pk: z.string(), sk: z.string() });

export type ItemKey = z.infer<typeof itemKey>;
