import * as z from 'zod/mini';
import { CLIENT_KINDS } from '#definitions/item-fields.ts';

// The item schemas of assistant-grants.ts: what its store reads (and checks) items with.

export const assistantGrantItem = z.object({
  orgId: z.number(),
  clientId: z.string(),
  clientName: z.string(),
  kind: z.enum(CLIENT_KINDS),
  /** Who approved it last (an email); null for an operator client's binding, recorded when it first got a token. */
  approvedBy: z.nullable(z.string()),
  createdAt: z.string(),
  approvedAt: z.string(),
  approvalId: z.string(),
  revokedAt: z._default(z.nullable(z.string()), null),
});

export type AssistantGrantItem = z.infer<typeof assistantGrantItem>;
