import '#definitions/zod-english.ts';
import * as z from 'zod/mini';
import type { EndpointSchemas } from './endpoint.ts';
import { provider } from './import.ts';
import { idParam } from './params.ts';

// Pure-annotated closures: esbuild drops the schemas a function does not use
// (kept: 1.5 KiB of its own (and the zod types it uses) in delete-sequence-provider-link without them).

/**
 * A connection's campaigns at its provider, and a sequence's link to one of
 * them (docs/providers.md, Linking sequences to provider campaigns).
 */

/** Longest provider campaign id a link takes (the providers' are numbers, UUIDs and `cam_…` ids). */
export const MAX_PROVIDER_CAMPAIGN_ID_LENGTH = 200;
/** Longest listing cursor: base64url of the provider's own cursor and a position in its page. */
export const MAX_CAMPAIGN_CURSOR_LENGTH = 400;

/** One campaign of the provider's own list. */
export const providerCampaign = /* @__PURE__ */ (() =>
  z.object({
    id: z.string().check(
      z.meta({
        description:
          'The provider’s campaign id, as a string whatever its type at the provider (Smartlead’s number, Instantly’s UUID, lemlist’s `cam_…`, HeyReach’s number).',
      }),
    ),
    name: z.string(),
    status: z.string().check(
      z.meta({
        description:
          'The provider’s own word for the campaign’s state, lower-cased (`active`, `paused`, `drafted`, `in_progress`, …): each provider has its own.',
      }),
    ),
    accepts_leads: z.boolean().check(
      z.meta({
        description:
          'Whether the campaign takes leads now (running, with a sender where the provider needs one). Leads enrolled in one that does not wait until it does.',
      }),
    ),
  }))();
export type ProviderCampaignItem = z.infer<typeof providerCampaign>;

/** GET /public/v1/provider-connections/{id}/campaigns */
export const listProviderCampaignsEndpoint = /* @__PURE__ */ (() =>
  ({
    path: z.object({ id: idParam.check(z.meta({ description: 'The provider connection id.' })) }),
    query: z.object({
      cursor: z
        .optional(
          z
            .string()
            .check(
              z.regex(
                new RegExp(`^[A-Za-z0-9_-]{1,${MAX_CAMPAIGN_CURSOR_LENGTH}}$`),
                'must be the next of a previous page',
              ),
            ),
        )
        .check(z.meta({ description: 'The `next` of the previous page; absent for the first page.' })),
    }),
    response: z.object({
      data: z.array(providerCampaign),
      next: z
        .nullable(z.string())
        .check(
          z.meta({ description: 'An opaque cursor for the next page, as `cursor`; null on the last page.' }),
        ),
    }),
  }) satisfies EndpointSchemas)();

const sequencePath = /* @__PURE__ */ (() =>
  z.object({
    sequenceId: idParam.check(z.meta({ description: 'The sequence id (unique in the organization).' })),
  }))();

/** A sequence's link to its provider campaign. */
export const sequenceProviderLink = /* @__PURE__ */ (() =>
  z.object({
    sequence_id: z.int(),
    campaign_id: z.int().check(z.meta({ description: 'The campaign the sequence is part of.' })),
    connection_id: z.nullable(z.int()).check(
      z.meta({
        description:
          'The provider connection the campaign runs on; null for a link an import made without one (webhooks are matched, nothing is enrolled).',
      }),
    ),
    provider,
    provider_campaign_id: z.string(),
    warning: z.optional(z.string()).check(
      z.meta({
        description:
          'Present when the provider campaign takes no leads now (paused, draft, no sender): it is linked all the same, and its leads wait until it runs.',
      }),
    ),
  }))();
export type SequenceProviderLink = z.infer<typeof sequenceProviderLink>;

/** PUT /public/v1/sequences/{sequenceId}/provider-link */
export const putSequenceProviderLinkEndpoint = /* @__PURE__ */ (() =>
  ({
    path: sequencePath,
    body: z.object({
      connection_id: z
        .int()
        .check(
          z.gte(1, 'must be a positive integer'),
          z.lte(Number.MAX_SAFE_INTEGER, 'must be at most 2^53-1'),
          z.meta({ description: 'The provider connection, of the sequence’s provider.' }),
        ),
      provider_campaign_id: z.string().check(
        z.minLength(1, 'must not be empty'),
        z.maxLength(
          MAX_PROVIDER_CAMPAIGN_ID_LENGTH,
          `must be at most ${MAX_PROVIDER_CAMPAIGN_ID_LENGTH} characters`,
        ),
        z.regex(/^[\x21-\x7e]*$/, 'must be printable ASCII without spaces'),
        z.meta({
          description:
            'The campaign’s `id` as `GET /public/v1/provider-connections/{id}/campaigns` lists it; it must be in that list.',
        }),
      ),
    }),
    response: sequenceProviderLink,
  }) satisfies EndpointSchemas)();

/** GET /public/v1/sequences/{sequenceId}/provider-link */
export const getSequenceProviderLinkEndpoint = /* @__PURE__ */ (() =>
  ({ path: sequencePath, response: sequenceProviderLink }) satisfies EndpointSchemas)();

/** DELETE /public/v1/sequences/{sequenceId}/provider-link */
export const deleteSequenceProviderLinkEndpoint = /* @__PURE__ */ (() =>
  ({ path: sequencePath, response: sequenceProviderLink }) satisfies EndpointSchemas)();
