import '#definitions/zod-english.ts';
import * as z from 'zod/mini';
import { MAX_OPPORTUNITIES_PER_EVENT } from '#definitions/webhook-limits.ts';
import type { EndpointSchemas } from './endpoint.ts';
import { DEFAULT_PAGE_SIZE, idParam, integerQuery, MAX_PAGE_SIZE } from './params.ts';
import { requestUrlChecked } from './request-urls.ts';
import { account, campaignMessage, contactFields } from './resources.ts';

// Pure-annotated closures: esbuild drops the schemas a function does not use
// (kept: 1.7 KiB of its own (and the zod types it uses) in webhook-dispatcher without them).

/**
 * Outgoing webhooks: the event payloads (what subscribers receive; they will
 * also generate the OpenAPI `webhooks` section), the subscription and delivery
 * resources, and the schemas of the `/webhooks` endpoints. docs/webhooks.md
 * describes them for subscribers.
 */

/** The event types a subscription can ask for. */
export const WEBHOOK_EVENT_TYPES = ['new_opportunities', 'first_touch', 'positive_reply'] as const;
export const webhookEventType = /* @__PURE__ */ z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof webhookEventType>;

/** The type of the event `POST /webhooks/{id}/test` sends; every subscription receives it when asked. */
export const TEST_EVENT_TYPE = 'test';

/** The Standard Webhooks body: the event type, when it happened (ISO 8601 UTC), and its data. */
const envelope = <T extends string, D extends z.core.$ZodType>(type: T, data: D) =>
  z.object({ type: z.literal(type), timestamp: z.string(), data });

const id = /* @__PURE__ */ z.int();

/** New Opportunities: accounts newly qualified into a campaign, each with its score and signals there. */
export const newOpportunitiesPayload = /* @__PURE__ */ (() =>
  envelope(
    'new_opportunities',
    z.object({
      campaign_id: id,
      accounts: z.array(account).check(z.minLength(1), z.maxLength(MAX_OPPORTUNITIES_PER_EVENT)),
    }),
  ))();

/** What First Touch and Positive Reply carry: the assignment, its contact and the message. */
const assignmentMessageData = /* @__PURE__ */ z.object({
  campaign_id: id,
  sequence_id: id,
  assignment_id: id,
  contact: contactFields,
  message: campaignMessage,
});

/** First Touch: the first sent message of an assignment. */
export const firstTouchPayload = /* @__PURE__ */ envelope('first_touch', assignmentMessageData);

/** Positive Reply: a received message with response_type `positive`; answer it with POST /assignments/{assignment_id}/reply. */
export const positiveReplyPayload = /* @__PURE__ */ envelope('positive_reply', assignmentMessageData);

/** The event `POST /webhooks/{id}/test` sends. */
export const testPayload = /* @__PURE__ */ (() =>
  envelope(TEST_EVENT_TYPE, z.object({ webhook_id: id, message: z.string() })))();

/** Every payload a subscriber can receive, told apart by `type`. */
export const webhookPayload = /* @__PURE__ */ z.discriminatedUnion('type', [
  newOpportunitiesPayload,
  firstTouchPayload,
  positiveReplyPayload,
  testPayload,
]);
export type WebhookPayload = z.infer<typeof webhookPayload>;
export type NewOpportunitiesPayload = z.infer<typeof newOpportunitiesPayload>;
export type AssignmentMessageData = z.infer<typeof assignmentMessageData>;

/** A subscription; its signing secret is not part of it (shown on create and rotate only). */
export const webhookSubscription = /* @__PURE__ */ (() =>
  z.object({
    id,
    url: z.string(),
    events: z.array(webhookEventType),
    enabled: z.boolean(),
    /** Why the service disabled the subscription (410 Gone, five days of failures); null when enabled. */
    disabled_reason: z.nullable(z.string()),
    /** Since when every delivery has failed; null while deliveries succeed. */
    failing_since: z.nullable(z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  }))();
export type WebhookSubscription = z.infer<typeof webhookSubscription>;

/** A subscription with its signing secret (`whsec_…`): the create and rotate-secret responses. */
export const webhookWithSecret = /* @__PURE__ */ (() =>
  z.extend(webhookSubscription, { secret: z.string() }))();

export const DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One delivery of an event to a subscription and the outcome of its latest attempt. */
export const webhookDelivery = /* @__PURE__ */ (() =>
  z.object({
    id,
    webhook_id: id,
    /** The `webhook-id` header: the same on every attempt and redelivery of this event. */
    event_id: z.string(),
    event_type: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.int(),
    /** The HTTP status of the latest attempt; null when no response came (timeout, refused). */
    response_code: z.nullable(z.int()),
    latency_ms: z.nullable(z.int()),
    /** Why the latest attempt failed, when no status explains it (timeout, connection refused, address refused). */
    error: z.nullable(z.string()),
    created_at: z.string(),
    last_attempt_at: z.nullable(z.string()),
    next_attempt_at: z.nullable(z.string()),
    delivered_at: z.nullable(z.string()),
  }))();
export type WebhookDelivery = z.infer<typeof webhookDelivery>;

/** Longest accepted subscription URL. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * A subscriber URL: an absolute URL, which the SSRF check (`#domain/webhooks.ts`) requires. Only the
 * request says `format: uri`: the subscription shows it as WHATWG URL serializes it, which may keep
 * characters RFC 3986 does not allow (`|`, `^`, `[` in a path or query).
 */
const url = /* @__PURE__ */ (() =>
  z
    .string()
    .check(
      z.minLength(1, 'must not be empty'),
      z.maxLength(MAX_WEBHOOK_URL_LENGTH, `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`),
      requestUrlChecked(MAX_WEBHOOK_URL_LENGTH),
    )
    .check(z.meta({ format: 'uri' })))();
/** Event types, at least one; repeated names count once. */
const events = /* @__PURE__ */ (() =>
  z.pipe(
    z.array(webhookEventType).check(z.minLength(1, 'must name at least one event type')),
    z.transform((types: WebhookEventType[]) => WEBHOOK_EVENT_TYPES.filter((type) => types.includes(type))),
  ))();

const webhookId = /* @__PURE__ */ (() => idParam.check(z.meta({ description: 'The webhook id.' })))();
const webhookPath = /* @__PURE__ */ z.object({ id: webhookId });

/** GET /public/v1/webhooks */
export const listWebhooksEndpoint = /* @__PURE__ */ (() =>
  ({
    response: z.object({ webhooks: z.array(webhookSubscription) }),
  }) satisfies EndpointSchemas)();

/** POST /public/v1/webhooks */
export const createWebhookEndpoint = /* @__PURE__ */ (() =>
  ({
    body: z.object({ url, events }),
    response: webhookWithSecret,
  }) satisfies EndpointSchemas)();

/** GET /public/v1/webhooks/{id} */
export const getWebhookEndpoint = {
  path: webhookPath,
  response: webhookSubscription,
} satisfies EndpointSchemas;

/** PATCH /public/v1/webhooks/{id} */
export const updateWebhookEndpoint = /* @__PURE__ */ (() =>
  ({
    path: webhookPath,
    body: z
      .object({ url: z.optional(url), events: z.optional(events), enabled: z.optional(z.boolean()) })
      .check(
        z.refine(
          (body) => body.url !== undefined || body.events !== undefined || body.enabled !== undefined,
          {
            message: 'give at least one of url, events, enabled',
          },
        ),
      ),
    response: webhookSubscription,
  }) satisfies EndpointSchemas)();

/** DELETE /public/v1/webhooks/{id} */
export const deleteWebhookEndpoint = /* @__PURE__ */ (() =>
  ({
    path: webhookPath,
    response: z.object({ success: z.boolean() }),
  }) satisfies EndpointSchemas)();

/** POST /public/v1/webhooks/{id}/rotate-secret */
export const rotateWebhookSecretEndpoint = {
  path: webhookPath,
  response: webhookWithSecret,
} satisfies EndpointSchemas;

/** POST /public/v1/webhooks/{id}/test */
export const testWebhookEndpoint = /* @__PURE__ */ (() =>
  ({
    path: webhookPath,
    response: z.object({ success: z.boolean(), delivery: webhookDelivery }),
  }) satisfies EndpointSchemas)();

/** GET /public/v1/webhooks/{id}/deliveries */
export const listWebhookDeliveriesEndpoint = /* @__PURE__ */ (() =>
  ({
    path: webhookPath,
    query: z.object({
      take: integerQuery({ default: DEFAULT_PAGE_SIZE, min: 1, max: MAX_PAGE_SIZE }).check(
        z.meta({ description: 'How many to return.' }),
      ),
      cursor: z
        .optional(idParam)
        .check(z.meta({ description: 'The `next` of the previous page: deliveries older than that one.' })),
    }),
    response: z.object({ data: z.array(webhookDelivery), next: z.nullable(z.int()) }),
  }) satisfies EndpointSchemas)();

/** POST /public/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver */
export const redeliverWebhookEndpoint = /* @__PURE__ */ (() =>
  ({
    path: z.object({ id: webhookId, deliveryId: idParam.check(z.meta({ description: 'The delivery id.' })) }),
    response: z.object({ success: z.boolean(), delivery: webhookDelivery }),
  }) satisfies EndpointSchemas)();
