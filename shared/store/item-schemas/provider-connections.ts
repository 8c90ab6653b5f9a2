import * as z from 'zod/mini';
import { sealedSecret } from '#platform/secrets.ts';
import { provider } from '#schemas/import.ts';

// The item schemas of provider-connections.ts: what its store reads (and checks) items with.

export const providerConnectionItem = z.object({
  orgId: z.number(),
  connectionId: z.number(),
  provider,
  baseUrl: z._default(z.nullable(z.string()), null),
  apiKey: sealedSecret,
  /** The last four characters of the API key, to tell connections apart (never the key). */
  apiKeyHint: z.string(),
  /** The provider's workspace the key acts for, as its credential check told (Instantly's); absent where none. */
  workspaceId: z.optional(z.string()),
  urlGeneration: z.number(),
  createdAt: z.string(),
  /**
   * The connection's health as its provider calls found it (docs/providers.md, Connection health):
   * `failing` from a refused key or an unreachable provider until a call succeeds. A connection
   * stored before health was kept reads as `ok`, with no success time.
   */
  status: z._default(z.enum(['ok', 'failing']), 'ok'),
  /** The last call the provider answered with the key accepted (at most a minute old while calls go on). */
  lastSuccessAt: z._default(z.nullable(z.string()), null),
  /** The last connection-level failure: the provider's name and the status or kind, never a key or a lead. */
  lastError: z._default(z.nullable(z.object({ message: z.string(), at: z.string() })), null),
  /** When the health was last written: the condition that holds writes to one a minute per connection. */
  healthWrittenAt: z.optional(z.string()),
});

export type ProviderConnectionRecord = z.infer<typeof providerConnectionItem>;

export const connectionCountItem = z.object({ connections: z._default(z.number(), 0) });

/** Our message id of a provider's message id. */
export const providerMessageItem = z.object({ messageId: z.number() });

export const unmatchedEventItem = z.object({
  connectionId: z.number(),
  receivedAt: z.string(),
  /** The native event type, when the payload names one. */
  eventType: z.nullable(z.string()),
  /** The provider event id it would have had, when it was mapped. */
  eventId: z.nullable(z.string()),
  /** What it would have become (`opened`, …), when it was mapped. */
  kind: z.nullable(z.string()),
  reason: z.string(),
  campaignExternalId: z.nullable(z.string()),
  leadEmail: z.nullable(z.string()),
  leadLinkedinUrl: z.nullable(z.string()),
});

export type UnmatchedEventRecord = z.infer<typeof unmatchedEventItem>;
