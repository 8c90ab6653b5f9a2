import '#definitions/zod-english.ts';
import * as z from 'zod/mini';
import type { EndpointSchemas } from './endpoint.ts';
import { provider } from './import.ts';
import { DEFAULT_PAGE_SIZE, idParam, integerQuery, MAX_PAGE_SIZE } from './params.ts';
import { requestUrlChecked } from './request-urls.ts';

// Pure-annotated closures: esbuild drops the schemas a function does not use
// (kept: 1.8 KiB of its own (and the zod types it uses) in delete-provider-connection without them).

/**
 * Provider connections (docs/providers.md): the resource, the events that
 * matched nothing, and the schemas of the `/provider-connections` endpoints.
 */

const id = /* @__PURE__ */ z.int();

/** A connection's health (docs/providers.md, Connection health). */
export const CONNECTION_STATUSES = ['ok', 'failing'] as const;

/**
 * The complete URL to paste into the provider's webhook settings. It carries the connection's token,
 * which lets whoever holds it post provider events (bounces, replies) for the organization: a write
 * credential, which a `read` key is never answered (docs/decisions.md, Read-only credentials).
 */
const webhookUrl = /* @__PURE__ */ (() => z.string().check(z.meta({ format: 'uri' })))();

/** The scope of API key a field is answered to, named in the OpenAPI document as operations name theirs. */
const READ_WRITE_ONLY = { 'x-required-scope': 'read-write' } as const;

/**
 * A connection as the list and the item show it: its webhook URL only to a read-write key (an admin
 * in the dashboard), omitted for a `read` key (a viewer). Its API key is never part of it.
 */
export const providerConnection = /* @__PURE__ */ (() =>
  z.object({
    id,
    provider,
    webhook_url: z.optional(webhookUrl).check(
      z.meta({
        description:
          'The URL to paste into the provider’s webhook settings; its token lets whoever holds it post provider events for the organization. Absent for a `read` key: only a `read-write` key is answered it.',
        ...READ_WRITE_ONLY,
      }),
    ),
    created_at: z.string(),
    // The health (docs/providers.md, Connection health): short descriptions, as every function that
    // answers a connection carries them (docs/architecture.md, Bundles).
    base_url: z.nullable(z.string()).check(z.meta({ description: 'null: the provider’s public API.' })),
    status: z
      .enum(CONNECTION_STATUSES)
      .check(
        z.meta({ description: '`failing` since a refused key or an unreachable provider, until a success.' }),
      ),
    last_success_at: z.nullable(z.string()),
    last_error: z.nullable(z.object({ message: z.string(), at: z.string() })),
  }))();
export type ProviderConnection = z.infer<typeof providerConnection>;

/** A connection with its webhook URL: what connecting and rotating answer (a read-write key's routes). */
export const providerConnectionWithWebhookUrl = /* @__PURE__ */ (() =>
  z.extend(providerConnection, {
    webhook_url: webhookUrl.check(
      z.meta({
        description:
          'The URL to paste into the provider’s webhook settings; its token lets whoever holds it post provider events for the organization.',
      }),
    ),
  }))();
export type ProviderConnectionWithWebhookUrl = z.infer<typeof providerConnectionWithWebhookUrl>;

/** An event the provider sent that the service could not record, and why (kept 14 days). */
export const unmatchedProviderEvent = /* @__PURE__ */ (() =>
  z.object({
    received_at: z.string(),
    /** The provider's own event type, when the payload names one. */
    event_type: z.nullable(z.string()),
    /** The provider event id it would have been recorded with. */
    event_id: z.nullable(z.string()),
    /** The provider event it would have become (`reply_received`, …). */
    kind: z.nullable(z.string()),
    reason: z.string(),
    campaign_external_id: z.nullable(z.string()),
    lead_email: z.nullable(z.string()),
    lead_linkedin_url: z.nullable(z.string()),
  }))();
export type UnmatchedProviderEvent = z.infer<typeof unmatchedProviderEvent>;

/** Longest accepted provider API key and base URL. */
export const MAX_PROVIDER_API_KEY_LENGTH = 500;
export const MAX_PROVIDER_BASE_URL_LENGTH = 2048;

/** A provider API key as a request gives it. */
const providerApiKey = /* @__PURE__ */ (() =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'must not be empty'),
      z.maxLength(MAX_PROVIDER_API_KEY_LENGTH, `must be at most ${MAX_PROVIDER_API_KEY_LENGTH} characters`),
    ))();

const connectionPath = /* @__PURE__ */ (() =>
  z.object({
    id: idParam.check(z.meta({ description: 'The provider connection id.' })),
  }))();

/** GET /public/v1/provider-connections */
export const listProviderConnectionsEndpoint = /* @__PURE__ */ (() =>
  ({
    response: z.object({ connections: z.array(providerConnection) }),
  }) satisfies EndpointSchemas)();

/** POST /public/v1/provider-connections */
export const createProviderConnectionEndpoint = /* @__PURE__ */ (() =>
  ({
    body: z.object({
      provider,
      api_key: providerApiKey,
      base_url: z
        .optional(
          z.nullable(
            z
              .string()
              .check(
                z.minLength(1, 'must not be empty'),
                z.maxLength(
                  MAX_PROVIDER_BASE_URL_LENGTH,
                  `must be at most ${MAX_PROVIDER_BASE_URL_LENGTH} characters`,
                ),
                requestUrlChecked(MAX_PROVIDER_BASE_URL_LENGTH),
              )
              // An absolute URL, which the SSRF check (`#domain/provider-connections.ts`) requires.
              .check(z.meta({ format: 'uri' })),
          ),
        )
        .check(z.meta({ description: 'The provider API’s base URL; absent, the provider’s public API.' })),
    }),
    response: providerConnectionWithWebhookUrl,
  }) satisfies EndpointSchemas)();

/** PATCH /public/v1/provider-connections/{id} */
export const updateProviderConnectionEndpoint = /* @__PURE__ */ (() =>
  ({
    path: connectionPath,
    body: z.object({
      api_key: providerApiKey.check(
        z.meta({
          description: 'The new API key, verified with the provider before it replaces the old one.',
        }),
      ),
    }),
    response: providerConnectionWithWebhookUrl,
  }) satisfies EndpointSchemas)();

/** GET /public/v1/provider-connections/{id} */
export const getProviderConnectionEndpoint = {
  path: connectionPath,
  response: providerConnection,
} satisfies EndpointSchemas;

/** DELETE /public/v1/provider-connections/{id} */
export const deleteProviderConnectionEndpoint = /* @__PURE__ */ (() =>
  ({
    path: connectionPath,
    response: z.object({ success: z.boolean() }),
  }) satisfies EndpointSchemas)();

/** POST /public/v1/provider-connections/{id}/rotate-webhook-url */
export const rotateProviderWebhookUrlEndpoint = {
  path: connectionPath,
  response: providerConnectionWithWebhookUrl,
} satisfies EndpointSchemas;

/** POST /public/v1/provider-connections/{id}/check */
export const checkProviderConnectionEndpoint = {
  path: connectionPath,
  response: providerConnectionWithWebhookUrl,
} satisfies EndpointSchemas;

/** GET /public/v1/provider-connections/{id}/unmatched */
export const listProviderUnmatchedEndpoint = /* @__PURE__ */ (() =>
  ({
    path: connectionPath,
    query: z.object({
      take: integerQuery({ default: DEFAULT_PAGE_SIZE, min: 1, max: MAX_PAGE_SIZE }).check(
        z.meta({ description: 'How many to return.' }),
      ),
      cursor: z
        .optional(
          z
            .string()
            .check(
              z.regex(/^[0-9T:.Z-]{1,40}#[A-Za-z0-9:_.-]{1,300}$/, 'must be the next of a previous page'),
            ),
        )
        .check(z.meta({ description: 'The `next` of the previous page: older events than its last.' })),
    }),
    response: z.object({ data: z.array(unmatchedProviderEvent), next: z.nullable(z.string()) }),
  }) satisfies EndpointSchemas)();
