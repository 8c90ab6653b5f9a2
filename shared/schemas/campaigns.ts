import '#definitions/zod-english.ts';
import * as z from 'zod/mini';
import type { EndpointSchemas } from './endpoint.ts';
import { DEFAULT_PAGE_SIZE, idParam, integerQuery, MAX_PAGE_SIZE } from './params.ts';
import {
  account,
  analyticsOverview,
  CONTACT_STATUS_FILTERS,
  campaignContact,
  campaignDetail,
  campaignMessage,
  campaignSummary,
} from './resources.ts';

// Pure-annotated closures: esbuild drops the schemas a function does not use
// (kept: 0.6 KiB of its own (and the zod types it uses) in get-analytics-overview without them).

/** The schemas of the campaign read endpoints and the analytics overview. */

const campaignPath = /* @__PURE__ */ (() =>
  z.object({ id: idParam.check(z.meta({ description: 'The campaign (ICP) id.' })) }))();
const pageSize = /* @__PURE__ */ (() =>
  integerQuery({ default: DEFAULT_PAGE_SIZE, min: 1, max: MAX_PAGE_SIZE }).check(
    z.meta({ description: 'How many to return.' }),
  ))();
const skipTake = /* @__PURE__ */ (() => ({
  skip: integerQuery({ default: 0, min: 0 }).check(z.meta({ description: 'How many to skip.' })),
  take: pageSize,
}))();

/** A page of a list with its total, as the contact list has it (and the message history, by decision). */
const page = <T extends z.core.$ZodType>(item: T) =>
  z.object({ data: z.array(item), total: z.int(), skip: z.int(), take: z.int() });

/** GET /public/v1/campaigns */
export const listCampaignsEndpoint = /* @__PURE__ */ (() =>
  ({
    response: z.object({ campaigns: z.array(campaignSummary) }),
  }) satisfies EndpointSchemas)();

/** GET /public/v1/campaigns/{id} */
export const getCampaignEndpoint = {
  path: campaignPath,
  response: campaignDetail,
} satisfies EndpointSchemas;

/** GET /public/v1/campaigns/{id}/accounts */
export const listCampaignAccountsEndpoint = /* @__PURE__ */ (() =>
  ({
    path: campaignPath,
    query: z.object({
      from: integerQuery({ default: 0, min: 0 }).check(z.meta({ description: 'How many accounts to skip.' })),
      take: pageSize,
    }),
    response: z.object({ accounts: z.array(account) }),
  }) satisfies EndpointSchemas)();

/** GET /public/v1/campaigns/{id}/contacts */
export const listCampaignContactsEndpoint = /* @__PURE__ */ (() =>
  ({
    path: campaignPath,
    query: z.object({
      ...skipTake,
      status: z
        .optional(z.enum(CONTACT_STATUS_FILTERS))
        .check(z.meta({ description: 'Only contacts in this status.' })),
    }),
    response: page(campaignContact),
  }) satisfies EndpointSchemas)();

/** GET /public/v1/campaigns/{id}/messages */
export const listCampaignMessagesEndpoint = /* @__PURE__ */ (() =>
  ({
    path: campaignPath,
    query: z.object(skipTake),
    response: page(campaignMessage),
  }) satisfies EndpointSchemas)();

/** GET /public/v1/analytics/overview */
export const analyticsOverviewEndpoint = {
  response: analyticsOverview,
} satisfies EndpointSchemas;
