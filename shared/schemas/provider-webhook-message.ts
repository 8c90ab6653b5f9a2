import '#definitions/zod-english.ts';
import * as z from 'zod/mini';
import { provider } from './import.ts';

/**
 * A provider webhook as the inbound endpoint queues it (use-cases/accept-provider-webhook.ts)
 * and the consumer reads it (use-cases/record-provider-webhook.ts): the body, with the
 * message attributes PROVIDER_WEBHOOK_ATTRIBUTES names (#definitions/queues.ts). Its own
 * module, so that the endpoint carries the format and not what recording a webhook takes.
 */
export const providerWebhookMessage = z.object({
  orgId: z.coerce.number().check(z.int(), z.positive()),
  connectionId: z.coerce.number().check(z.int(), z.positive()),
  provider,
  receivedAt: z.iso.datetime(),
  /** The body as the provider sent it. */
  body: z.string(),
});
export type ProviderWebhookMessage = z.infer<typeof providerWebhookMessage>;
