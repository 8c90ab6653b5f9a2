import {
  JSONRPCErrorResponseSchema,
  JSONRPCMessageSchema,
  JSONRPCResponseSchema,
  RequestIdSchema,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/mini';
import { providerConnection, providerConnectionWithWebhookUrl } from '#schemas/provider-connections.ts';
import { checkEligibilityEndpoint, pushContactsEndpoint, rawContact } from '#schemas/raw.ts';
import {
  account,
  analyticsOverview,
  campaignContact,
  campaignContactCounts,
  campaignDetail,
  campaignMessage,
  campaignStats,
  campaignSummary,
  contactFields,
  errorBody,
  job,
  signal,
} from '#schemas/resources.ts';
import {
  firstTouchPayload,
  newOpportunitiesPayload,
  positiveReplyPayload,
  testPayload,
  webhookDelivery,
  webhookSubscription,
  webhookWithSecret,
} from '#schemas/webhooks.ts';
import { COMPONENT_EXAMPLES, exemplify } from './examples.ts';
import { isEndpointOperation, type Json, type OperationDescription } from './operations.ts';

/**
 * The document's named schemas (`components.schemas` and
 * `components.requestBodies`), generated from the zod schemas the handlers
 * use, with their names and descriptions.
 */

interface ComponentMeta {
  id: string;
  description?: string;
}

/** A schema with two strings about it: its component name and description, or its title and `operationId`. */
export type DescribedSchema = [z.core.$ZodType, string, string];

/** Named response-side schemas: the API's resources and what else several operations share. */
export const RESPONSE_COMPONENTS: DescribedSchema[] = [
  [
    errorBody,
    'Error',
    'The body of every error: a message, naming the offending field when input is invalid. An endpoint’s 4xx adds `errors` (each problem with its path; empty when no single value is at fault) and every endpoint error `request_id` (as in the logs); the gateway’s own answers (401, 429, an unknown route) carry `message` only.',
  ],
  [signal, 'Signal', 'A buying signal with its score.'],
  [
    account,
    'Account',
    'A company with its score and signals (in a campaign, those of its qualification there).',
  ],
  [job, 'Job', 'A job opening; timestamps are ISO 8601 UTC, `status` is `open` or `closed`.'],
  [campaignStats, 'CampaignStats', 'Counts of the campaign’s assignments (contacts) per outcome.'],
  [campaignSummary, 'CampaignSummary', 'A campaign (ICP) with its provider sequences aggregated.'],
  [campaignContactCounts, 'CampaignContactCounts', 'The campaign’s assignments by current status.'],
  [campaignDetail, 'CampaignDetail', 'A campaign with its contact counts.'],
  [contactFields, 'Contact', 'A person.'],
  [campaignContact, 'CampaignContact', 'A contact in one of the campaign’s sequences (an assignment).'],
  [campaignMessage, 'CampaignMessage', 'A message sent, received or forwarded in a campaign’s sequence.'],
  [analyticsOverview, 'AnalyticsOverview', 'Counts over all the organization’s campaigns.'],
  [
    pushContactsEndpoint.response,
    'UpsertResult',
    'What a raw push did: counts, the new assignment ids, skipped contacts with their reasons, and errors.',
  ],
  [
    checkEligibilityEndpoint.response,
    'EligibilityCheckResult',
    'The dry run’s verdicts: one per email, with its reasons, and a summary counting each.',
  ],
  [webhookSubscription, 'WebhookSubscription', 'A webhook subscription; its secret is never shown again.'],
  [webhookWithSecret, 'WebhookSubscriptionWithSecret', 'A subscription with its signing secret (`whsec_…`).'],
  [
    providerConnection,
    'ProviderConnection',
    'A provider connection; its webhook URL to a `read-write` key only, never its API key.',
  ],
  [
    providerConnectionWithWebhookUrl,
    'ProviderConnectionWithWebhookUrl',
    'A provider connection with its webhook URL: what connecting and rotating answer.',
  ],
  [
    webhookDelivery,
    'WebhookDelivery',
    'One delivery of an event to a subscription, as of its latest attempt.',
  ],
  [newOpportunitiesPayload, 'NewOpportunitiesPayload', 'Accounts newly qualified into a campaign.'],
  [firstTouchPayload, 'FirstTouchPayload', 'The first sent message of an assignment.'],
  [positiveReplyPayload, 'PositiveReplyPayload', 'A received message with `response_type: positive`.'],
  [testPayload, 'TestPayload', 'The event `POST /public/v1/webhooks/{id}/test` sends.'],
  [JSONRPCResponseSchema, 'JsonRpcResponse', 'A JSON-RPC 2.0 response (MCP SDK schema).'],
  [
    // The SDK's transport answers a request it cannot read with `"id": null`, as JSON-RPC 2.0 §5 requires,
    // which the SDK's own error schema (id optional, never null) does not allow.
    JSONRPCErrorResponseSchema.extend({ id: RequestIdSchema.nullable() }),
    'JsonRpcTransportError',
    'A JSON-RPC 2.0 error from the MCP transport, about a request it could not take (`id` is null).',
  ],
];

/** Named request-side schemas (parts of requests; the bodies themselves are `components.requestBodies`). */
const REQUEST_COMPONENTS: DescribedSchema[] = [
  [JSONRPCMessageSchema, 'JsonRpcMessage', 'A JSON-RPC 2.0 request or notification (MCP SDK schema).'],
];

/** What a raw push's `contacts` hold, inlined there as `RawContact` (see `buildComponents`). */
const RAW_CONTACT = {
  title: 'RawContact',
  description: 'One contact of a raw push; validated on its own (an invalid one lands in `errors`).',
};

const pascalCase = (name: string) =>
  name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
export const camelCase = (name: string) => pascalCase(name).replace(/^./, (first) => first.toLowerCase());

/** Registers a schema under `id` unless it is already registered; returns its id. */
function named(registry: z.core.$ZodRegistry<ComponentMeta>, schema: z.core.$ZodType, id: string): string {
  const existing = registry.get(schema);
  if (existing) return existing.id;
  registry.add(schema, { id });
  return id;
}

export interface Components {
  schemas: Record<string, Json>;
  requestBodies: Record<string, Json>;
  /** Component names of each route's request body (a request body component) and response (a schema), by route name. */
  requestOf: Map<string, string>;
  responseOf: Map<string, string>;
}

/**
 * Every named schema of the document, generated from two registries: one of
 * responses (`io: 'output'`), one of request bodies (`io: 'input'`). The
 * responses and bodies that are not a named resource are named after their
 * route (`ListCampaignsResponse`, `ReplyToAssignmentRequest`).
 *
 * The request bodies are request body components, each with its schema
 * inline, not schemas: a field with a default is optional in a request
 * (`io: 'input'` leaves it out of `required`), but code generators read a
 * `default` in `components.schemas` as a value always present, as it is in
 * a response (`openapi-typescript`, by default, makes such a field required;
 * under `requestBodies` it does not). For the same reason a raw push's
 * contact (`variables` defaults to `{}`) is inline in the push's body.
 */
export function buildComponents(descriptions: [string, OperationDescription][]): Components {
  const output = z.registry<ComponentMeta>();
  const input = z.registry<ComponentMeta>();
  for (const [schema, id, description] of RESPONSE_COMPONENTS) output.add(schema, { id, description });
  for (const [schema, id, description] of REQUEST_COMPONENTS) input.add(schema, { id, description });
  const requestOf = new Map<string, string>();
  const responseOf = new Map<string, string>();
  for (const [name, operation] of descriptions) {
    if (!isEndpointOperation(operation)) continue;
    const { endpoint } = operation;
    responseOf.set(name, named(output, endpoint.response, `${pascalCase(name)}Response`));
    if (endpoint.body) requestOf.set(name, named(input, endpoint.body, `${pascalCase(name)}Request`));
  }
  // A raw push validates each contact on its own, so its body accepts anything in `contacts`;
  // what a client should send there is a RawContact.
  const contactItem = pushContactsEndpoint.body.shape.contacts.def.element;
  const { $schema: _, ...rawContactSchema } = z.toJSONSchema(rawContact, { io: 'input' });
  const generate = (registry: z.core.$ZodRegistry<ComponentMeta>, io: 'input' | 'output') =>
    z.toJSONSchema(registry, {
      io,
      uri: (id) => `#/components/schemas/${id}`,
      override: ({ zodSchema, jsonSchema }) => {
        const description = registry.get(zodSchema)?.description;
        if (description && jsonSchema.description === undefined) jsonSchema.description = description;
        if (zodSchema === contactItem) Object.assign(jsonSchema, RAW_CONTACT, rawContactSchema);
      },
    }).schemas;
  const bodies = new Set(requestOf.values());
  const schemas: Record<string, Json> = {};
  const requestBodies: Record<string, Json> = {};
  for (const [id, schema] of Object.entries({ ...generate(output, 'output'), ...generate(input, 'input') })) {
    if (id === '__shared') throw new Error('A schema without a component name is shared between components');
    if (id in schemas || id in requestBodies) throw new Error(`Two schemas are named ${id}`);
    const { $schema, $id, ...rest } = schema as Json;
    // The MCP SDK's JSON-RPC schemas are the SDK's to describe.
    if (!id.startsWith('JsonRpc')) exemplify(rest, id);
    else if (COMPONENT_EXAMPLES[id]) rest.examples = [COMPONENT_EXAMPLES[id]];
    if (bodies.has(id)) {
      requestBodies[id] = { required: true, content: { 'application/json': { schema: rest } } };
    } else schemas[id] = rest;
  }
  return { schemas, requestBodies, requestOf, responseOf };
}
