import * as z from 'zod/mini';
import { webhookEventType } from '#schemas/webhooks.ts';

// The item schemas of webhooks.ts: what its store reads (and checks) items with.

const optionalText = z._default(z.nullable(z.string()), null);

export const webhookItem = z.object({
  orgId: z.number(),
  webhookId: z.number(),
  url: z.string(),
  events: z._default(z.array(webhookEventType), []),
  enabled: z._default(z.boolean(), false),
  disabledReason: optionalText,
  /** When the current streak of failed deliveries began; absent while deliveries succeed. */
  failingSince: optionalText,
  secret: z.string(),
  previousSecret: optionalText,
  previousSecretExpiresAt: optionalText,
  createdAt: z.string(),
  updatedAt: z.string(),
});

export type WebhookRecord = z.infer<typeof webhookItem>;

export const subscriptionCountItem = z.object({ subscriptions: z._default(z.number(), 0) });

export const failureStreakItem = z.object({ failingSince: z.string() });
