import {
  firstTouchPayload,
  newOpportunitiesPayload,
  positiveReplyPayload,
  TEST_EVENT_TYPE,
  testPayload,
  type WebhookEventType,
} from '#schemas/webhooks.ts';
import { type Components, type DescribedSchema, RESPONSE_COMPONENTS } from './components.ts';
import { WEBHOOK_EXAMPLES } from './examples.ts';
import { type Json, ref } from './operations.ts';

/**
 * The document's `webhooks`: one operation per event type a subscription
 * receives, with the Standard Webhooks headers of every delivery.
 */

/**
 * The payload of each webhook event type, told apart by `type`, with its
 * title and `operationId`; a new event type must be added here. The ids are
 * the payloads' own: `testWebhook` is the operation that sends the test event.
 */
const WEBHOOK_PAYLOADS: Record<WebhookEventType | typeof TEST_EVENT_TYPE, DescribedSchema> = {
  new_opportunities: [newOpportunitiesPayload, 'New Opportunities', 'newOpportunitiesWebhook'],
  first_touch: [firstTouchPayload, 'First Touch', 'firstTouchWebhook'],
  positive_reply: [positiveReplyPayload, 'Positive Reply', 'positiveReplyWebhook'],
  [TEST_EVENT_TYPE]: [testPayload, 'Test event', 'testWebhookPayload'],
};

/** Standard Webhooks headers every delivery carries. */
const WEBHOOK_HEADERS: Json[] = [
  [
    'webhook-id',
    'The event id (`msg_…`): the same on every retry and redelivery; use it to drop duplicates.',
  ],
  ['webhook-timestamp', 'Unix seconds of this attempt.'],
  [
    'webhook-signature',
    '`v1,<base64 HMAC-SHA256>` of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the subscription secret; two, space-separated, for 24 hours after a rotation.',
  ],
].map(([name, description]) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
}));

export function webhookOperations(components: Components): Record<string, { post: Json }> {
  return Object.fromEntries(
    Object.entries(WEBHOOK_PAYLOADS).map(([type, [schema, title, operationId]]) => {
      const id = RESPONSE_COMPONENTS.find(([candidate]) => candidate === schema)![1];
      if (!(id in components.schemas)) throw new Error(`Webhook payload ${id} has no component`);
      return [
        type,
        {
          post: {
            operationId,
            tags: ['Webhooks'],
            summary: title,
            description: `What a subscription to \`${type}\` receives${type === TEST_EVENT_TYPE ? ' (any subscription, on request)' : ''}.`,
            parameters: WEBHOOK_HEADERS,
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: ref('schemas', id),
                  example: WEBHOOK_EXAMPLES[type as keyof typeof WEBHOOK_EXAMPLES],
                },
              },
            },
            responses: {
              '2XX': {
                description:
                  'Delivered. Anything else, a redirect or no answer within 15 s is a failed attempt, retried; 410 Gone disables the subscription.',
              },
            },
          },
        },
      ];
    }),
  );
}
