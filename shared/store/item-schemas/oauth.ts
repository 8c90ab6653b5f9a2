import * as z from 'zod/mini';
import { REGISTRABLE_GRANT_TYPES, TOKEN_ENDPOINT_AUTH_METHODS } from '#schemas/oauth-clients.ts';

// The item schemas of oauth.ts: what its store reads (and checks) items with.

/** An operator's client, bound to one organization (items from before `kind` existed are these). */
export const oauthClientItem = z.object({
  clientId: z.string(),
  orgId: z.number(),
  name: z.string(),
  redirectUris: z._default(z.array(z.string()), []),
  rateLimit: z._default(z.nullable(z.number()), null),
  secretHash: z.string(),
  createdAt: z.string(),
  revokedAt: z._default(z.nullable(z.string()), null),
});

export type OAuthClientItem = z.infer<typeof oauthClientItem>;

/** A client registered dynamically (RFC 7591): no organization; a secret only when confidential. */
export const dynamicClientItem = z.object({
  clientId: z.string(),
  kind: z.literal('dynamic'),
  name: z.nullable(z.string()),
  redirectUris: z.array(z.string()),
  secretHash: z.nullable(z.string()),
  tokenEndpointAuthMethod: z.enum(TOKEN_ENDPOINT_AUTH_METHODS),
  grantTypes: z.array(z.enum(REGISTRABLE_GRANT_TYPES)),
  createdAt: z.string(),
  revokedAt: z._default(z.nullable(z.string()), null),
  /** Epoch seconds: until an organization approves it (which removes this), the registration expires. */
  expiresAt: z.optional(z.number()),
});

export type DynamicClientItem = z.infer<typeof dynamicClientItem>;

/** What a token grants, and what it stands on: its organization's approval and, from a code, its family. */
const tokenFields = {
  orgId: z.number(),
  clientId: z.string(),
  resource: z.string(),
  scope: z.string(),
  /** The organization's approval it was issued under (absent on tokens from before approvals existed). */
  approvalId: z.optional(z.string()),
  /** The family of a token from a code (absent on client-credentials tokens). */
  familyId: z.optional(z.string()),
  /** Epoch seconds; DynamoDB deletes expired items lazily, so readers check it. */
  expiresAt: z.number(),
};

export const tokenItem = z.object(tokenFields);

export type TokenItem = z.infer<typeof tokenItem>;

export const refreshTokenItem = z.object({
  ...tokenFields,
  approvalId: z.string(),
  familyId: z.string(),
  /** When it was exchanged for the next pair; presented again after that, it is reused. */
  consumedAt: z.optional(z.string()),
});

export type RefreshTokenItem = z.infer<typeof refreshTokenItem>;

export const codeItem = z.object({
  orgId: z.number(),
  clientId: z.string(),
  resource: z.string(),
  scope: z.string(),
  expiresAt: z.number(),
  redirectUri: z.string(),
  codeChallenge: z.string(),
  /** The family of the tokens the code was redeemed for, once it was. */
  familyId: z.optional(z.string()),
});

export type CodeItem = z.infer<typeof codeItem>;

export const tokenFamilyItem = z.object({
  orgId: z.number(),
  clientId: z.string(),
  createdAt: z.string(),
  /** Epoch seconds: as long as its newest refresh token (or its access token) lives. */
  expiresAt: z.number(),
  revokedAt: z._default(z.nullable(z.string()), null),
});

export type TokenFamilyItem = z.infer<typeof tokenFamilyItem>;
