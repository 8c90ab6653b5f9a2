import { MAX_JSON_DEPTH } from '#api/http/json-depth.ts';
import { MAX_PARAMETER_BODY_BYTES } from '#api/oauth/requests.ts';
import { DEFAULT_MCP_CLIENT_RATE } from '#definitions/mcp-limits.ts';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  MAX_METADATA_DOCUMENT_FETCHES_PER_MINUTE,
  MAX_REGISTRATIONS_PER_HOUR,
  REFRESH_TOKEN_TTL_SECONDS,
} from '#definitions/oauth-limits.ts';
import { MCP_SCOPE } from '#definitions/oauth-scope.ts';
import { MAX_CONTACTS_PER_REQUEST } from '#definitions/raw-operations.ts';
import { MAX_PROVIDER_WEBHOOK_BYTES } from '#definitions/request-limits.ts';
import { API_KEY_HEADER, type routes } from '#definitions/routes.ts';
import { excludeAccountEndpoint, lookupAccountEndpoint } from '#schemas/accounts.ts';
import { authEndpoint } from '#schemas/auth.ts';
import {
  analyticsOverviewEndpoint,
  getCampaignEndpoint,
  listCampaignAccountsEndpoint,
  listCampaignContactsEndpoint,
  listCampaignMessagesEndpoint,
  listCampaignsEndpoint,
} from '#schemas/campaigns.ts';
import type { EndpointSchemas } from '#schemas/endpoint.ts';
import { searchJobsEndpoint } from '#schemas/jobs.ts';
import {
  MAX_CLIENT_NAME_LENGTH,
  MAX_REDIRECT_URIS,
  REGISTRABLE_GRANT_TYPES,
  TOKEN_ENDPOINT_AUTH_METHODS,
} from '#schemas/oauth-clients.ts';
import {
  deleteSequenceProviderLinkEndpoint,
  getSequenceProviderLinkEndpoint,
  listProviderCampaignsEndpoint,
  putSequenceProviderLinkEndpoint,
} from '#schemas/provider-campaigns.ts';
import {
  checkProviderConnectionEndpoint,
  createProviderConnectionEndpoint,
  deleteProviderConnectionEndpoint,
  getProviderConnectionEndpoint,
  listProviderConnectionsEndpoint,
  listProviderUnmatchedEndpoint,
  rotateProviderWebhookUrlEndpoint,
  updateProviderConnectionEndpoint,
} from '#schemas/provider-connections.ts';
import { checkEligibilityEndpoint, pushContactsEndpoint } from '#schemas/raw.ts';
import { replyEndpoint } from '#schemas/replies.ts';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveriesEndpoint,
  listWebhooksEndpoint,
  redeliverWebhookEndpoint,
  rotateWebhookSecretEndpoint,
  testWebhookEndpoint,
  updateWebhookEndpoint,
} from '#schemas/webhooks.ts';
import { REFERENCE_ASSETS } from './reference-page.ts';

/**
 * What the OpenAPI document says about each route of the manifest, by route
 * name. JSON endpoints name the zod schemas their handler is built with
 * (`defineEndpoint`), from which parameters, bodies and responses are
 * generated, and add only prose and the statuses their domain code answers.
 * Handlers that speak other formats (MCP's JSON-RPC, OAuth, the reference
 * page) give their operation in OpenAPI terms here. The mapped type makes a
 * route without a description a type error; the generator also refuses one.
 */

/** A JSON Schema or OpenAPI object as it appears in the document. */
export type Json = Record<string, unknown>;

/** The tags that group operations, in the order the reference page shows them. */
export const TAGS = {
  Auth: 'Checking an API key.',
  Campaigns:
    'Campaigns (ICPs) with their provider sequences, qualified accounts, contacts and message history.',
  Accounts: 'Account lookup and exclusion (misfit marking).',
  Jobs: 'Job openings by company domain.',
  'Raw operations':
    'Pushing contacts into a campaign sequence with your own snippet variables, and the eligibility dry run.',
  Replies: 'Replying to a contact by email.',
  Analytics: 'Organization-wide counts.',
  Webhooks:
    'Subscriptions to outgoing webhooks, their deliveries log and redelivery. What subscribers receive is in the webhooks section.',
  'Provider connections':
    'Your Smartlead, Instantly, lemlist and HeyReach accounts: the webhook URL each posts its events to, and the events that matched nothing.',
  MCP: 'The Model Context Protocol server for AI assistants.',
  OAuth: 'OAuth 2.1 for the MCP server: discovery, client registration, consent and tokens.',
  Reference: 'This document and the reference page rendering it.',
  Dashboard:
    'The organization dashboard: server-rendered HTML pages behind an OpenID Connect sign-in, for people rather than programs (docs/dashboard.md).',
} as const;
export type Tag = keyof typeof TAGS;

/** Statuses a JSON endpoint's own code answers besides 200 (400 for invalid input is added for every validated endpoint). */
export type HandlerErrors = Partial<Record<400 | 404 | 409 | 422 | 502, string>>;

interface Described {
  tag: Tag;
  summary: string;
  description: string;
}

/** A JSON endpoint: its schemas and prose; the generator derives the rest. */
export interface EndpointOperation extends Described {
  endpoint: EndpointSchemas;
  /** What the 200 response carries. */
  returns: string;
  /** When the handler answers these statuses; for 400, what it refuses beyond schema validation. */
  errors?: HandlerErrors;
  /** Request headers the handler reads, as OpenAPI header parameters. */
  headers?: Json[];
}

/** A route whose handler speaks another format: the OpenAPI operation fields, as written here. */
export interface CustomOperation extends Described {
  /** The method documented for an `ANY` route; other methods are answered as `description` says. */
  method?: 'get' | 'post';
  /** The route's POST, documented beside its GET (an `ANY` route that takes forms: the dashboard). */
  post?: Omit<CustomOperation, 'method' | 'post'>;
  /** When the route authenticates otherwise than its auth mode says (the MCP server's OAuth). */
  security?: Record<string, string[]>[];
  parameters?: Json[];
  requestBody?: Json;
  /**
   * Responses of the handler; the gateway's own (413 with a body, 429, 500, 502) are added for the
   * statuses not listed here. A handler that answers one of those itself lists it, covering the
   * gateway's answer too.
   */
  responses: Record<string, Json>;
}

export type OperationDescription = EndpointOperation | CustomOperation;

export const isEndpointOperation = (operation: OperationDescription): operation is EndpointOperation =>
  'endpoint' in operation;

/** A `$ref` to a component of the document. */
export const ref = (kind: 'schemas' | 'requestBodies' | 'responses', name: string): Json => ({
  $ref: `#/components/${kind}/${name}`,
});

const json = (schema: Json, description: string): Json => ({
  description,
  content: { 'application/json': { schema } },
});
const errorResponse = (description: string, headers?: Json): Json => ({
  ...json(ref('schemas', 'Error'), description),
  ...(headers && { headers }),
});
/** The consent page's 429: a client metadata document it may not fetch now (a page), or the gateway's (JSON). */
const metadataFetchLimited: Json = {
  description: `The client is named by a metadata document the service has not cached, and the source address made it fetch ${MAX_METADATA_DOCUMENT_FETCHES_PER_MINUTE} documents this minute (a page; nothing was fetched), or over a limit of the gateway (\`{message}\`).`,
  headers: {
    'Retry-After': {
      description: 'Seconds to wait before retrying (for a fetch: until the minute ends).',
      required: true,
      schema: { type: 'integer', minimum: 1 },
    },
  },
  content: {
    'text/html': { schema: { type: 'string' } },
    'application/json': { schema: ref('schemas', 'Error') },
  },
};
const html = (description: string): Json => ({
  description,
  content: { 'text/html': { schema: { type: 'string' } } },
});
const redirect = (description: string): Json => ({
  description,
  headers: {
    Location: {
      description: 'The client’s redirect URI with the outcome in its query.',
      required: true,
      schema: { type: 'string' },
    },
  },
});
const text = (name: string, description: string, extra: Json = {}): Json => ({
  name,
  description,
  schema: { type: 'string', ...extra },
});
const formField = (description: string): Json => ({ type: 'string', description });
const formFields = (descriptions: Record<string, string>): Record<string, Json> =>
  Object.fromEntries(
    Object.entries(descriptions).map(([name, description]) => [name, formField(description)]),
  );

/** The OAuth 2.1 parameters of the authorization request (GET query, POST form). */
const AUTHORIZATION_PARAMETERS = {
  response_type: '`code`.',
  client_id:
    'The client id: `mcp_…` (created by an operator, or registered at `POST /oauth/register`), or the https URL of the client’s metadata document.',
  redirect_uri: 'One of the client’s registered redirect URIs, exactly.',
  code_challenge: 'PKCE challenge: base64url SHA-256 of the code verifier.',
  code_challenge_method: '`S256` (required).',
  state: 'Returned unchanged in the redirect.',
  scope: `\`${MCP_SCOPE}\`, the only scope.`,
  resource: 'When given, this server’s `/mcp` URL (RFC 8707).',
};

const oauthMetadata = (standard: string, fields: string): Json =>
  json(
    { type: 'object', description: `${standard}: ${fields}` },
    `${standard} document; cacheable for an hour.`,
  );

const jsonRpcError = (description: string): Json =>
  json(ref('schemas', 'JsonRpcTransportError'), description);

/** What every dashboard route documents: HTML pages, a sign-in redirect, forms posted with a CSRF token. */
function dashboardOperation(summary: string, parameters: Json[]): CustomOperation {
  const pages = {
    200: {
      description: 'The page (or, for an asset, the file).',
      content: {
        'text/html': { schema: { type: 'string' } },
        'text/css': { schema: { type: 'string' } },
        'text/javascript': { schema: { type: 'string' } },
        'image/svg+xml': { schema: { type: 'string' } },
      },
    },
    303: {
      description:
        'To sign-in when there is no session, to the OpenID provider from sign-in, to the organization picker, or after a change.',
      headers: { Location: { required: true, schema: { type: 'string' } } },
    },
    400: html('A sign-in that cannot complete, or a form value the API would refuse too.'),
    401: html('A form posted without a session: nothing was changed.'),
    403: html('A form with a missing or forged CSRF token, or from a viewer: nothing was changed.'),
    404: html('No such page, or an item that is not the organization’s.'),
    409: html('A change the current state refuses.'),
    413: html('A form over 64 KiB.'),
    422: html('A change the organization’s settings refuse.'),
    503: html('The deployment configures no OpenID provider for the dashboard.'),
  };
  const description =
    'Server-rendered and signed in with OpenID Connect (authorization code with PKCE: Cognito on AWS, the local OpenID provider on `npm start`). The session is an HttpOnly, SameSite=Lax cookie (12 hours at most, one hour idle). Responses are `Cache-Control: no-store` with a strict Content-Security-Policy.';
  return {
    tag: 'Dashboard',
    method: 'get',
    summary,
    description,
    security: [],
    parameters,
    responses: pages,
    post: {
      tag: 'Dashboard',
      summary: `${summary}: forms`,
      description: `${description} Every form carries the session’s CSRF token (\`csrf\`); an admin’s form changes something, a viewer’s is 403.`,
      security: [],
      parameters,
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              properties: { csrf: formField('The session’s CSRF token.') },
              required: ['csrf'],
            },
          },
        },
      },
      responses: pages,
    },
  };
}

export const operations: { [Name in (typeof routes)[number]['name']]: OperationDescription } = {
  auth: {
    tag: 'Auth',
    summary: 'Check the API key',
    description: `Answers \`{"signed_in": true}\` for a valid \`${API_KEY_HEADER}\` header; a missing or invalid key is 401.`,
    endpoint: authEndpoint,
    returns: 'The key is valid.',
  },
  'list-campaigns': {
    tag: 'Campaigns',
    summary: 'List campaigns',
    description:
      'Every campaign (ICP) of the organization, ordered by id, with its provider sequences and statistics aggregated across them. `icp_id` is a deprecated alias of `id`.',
    endpoint: listCampaignsEndpoint,
    returns: 'The campaigns.',
  },
  'get-campaign': {
    tag: 'Campaigns',
    summary: 'Get a campaign',
    description:
      'One campaign with its contact counts by status. Another organization’s campaign is 404, like one that does not exist.',
    endpoint: getCampaignEndpoint,
    returns: 'The campaign.',
    errors: { 404: 'No campaign with this id in the organization.' },
  },
  'list-campaign-accounts': {
    tag: 'Campaigns',
    summary: 'List a campaign’s qualified accounts',
    description:
      'Accounts qualified into the campaign, each with its score and signals there, highest score first (ties by id). Excluded accounts never appear; a page past the end is empty.',
    endpoint: listCampaignAccountsEndpoint,
    returns: 'A page of accounts.',
    errors: { 404: 'No campaign with this id in the organization.' },
  },
  'list-campaign-contacts': {
    tag: 'Campaigns',
    summary: 'List a campaign’s contacts',
    description:
      'The assignments of all the campaign’s sequences, newest first (ties by id, descending), optionally of one status. `total` counts every assignment matching the filter; a page past the end is empty.',
    endpoint: listCampaignContactsEndpoint,
    returns: 'A page of contacts with the total.',
    errors: { 404: 'No campaign with this id in the organization.' },
  },
  'list-campaign-messages': {
    tag: 'Campaigns',
    summary: 'List a campaign’s message history',
    description:
      'The messages of all the campaign’s sequences, newest `created_at` first, in the envelope and with the bounds of the contact list.',
    endpoint: listCampaignMessagesEndpoint,
    returns: 'A page of messages with the total.',
    errors: { 404: 'No campaign with this id in the organization.' },
  },
  'push-raw-contacts': {
    tag: 'Raw operations',
    summary: 'Push contacts into a campaign sequence',
    description: [
      'Pushes contacts into a sequence of the campaign with your own snippet variables, bypassing generated messaging: the sequence named by `sequenceId`, else the campaign’s first email sequence.',
      'Each contact is validated on its own: an invalid one is reported in `errors` and the others proceed.',
      'With `skipIneligible` (the default) ineligible contacts are skipped and listed in `skippedContacts` with their reasons; with `false` everyone is pushed, and a contact already in the sequence is updated with the new variables.',
      '`triggerIntake: true` approves and schedules the new assignments at once; otherwise they wait in `pending-approval`.',
    ].join('\n\n'),
    endpoint: pushContactsEndpoint,
    returns: 'What the push did.',
    errors: {
      400: 'Also: a `sequenceId` that is not one of the campaign’s, or a campaign without an email sequence.',
      404: 'No campaign with this id in the organization.',
    },
  },
  'check-eligibility': {
    tag: 'Raw operations',
    summary: 'Check eligibility (dry run)',
    description:
      'Judges each email as a push into the campaign’s sequence would, with the same bypass flags and `sequenceId`, and writes nothing. Emails are compared case-insensitively and a repeated one counts once.',
    endpoint: checkEligibilityEndpoint,
    returns: 'Each email’s eligibility and reasons, and a summary.',
    errors: {
      400: 'Also: a `sequenceId` that is not one of the campaign’s, or a campaign without an email sequence.',
      404: 'No campaign with this id in the organization.',
    },
  },
  'reply-to-assignment': {
    tag: 'Replies',
    summary: 'Reply to an assignment',
    description: [
      'Sends an email reply to the assignment’s contact from the mailbox that last wrote to them, answering the thread’s latest subject.',
      'With `plain_text: true`, `body` is escaped and its line breaks become `<br>`; otherwise it is sent as HTML as given. `to` defaults to the contact’s email; `to`, `cc` and `bcc` take comma-separated addresses, at most 50 in all.',
      'The reply is recorded in the campaign’s message history at once and sent asynchronously; `{"success": true}` means it is durably queued.',
    ].join('\n\n'),
    endpoint: replyEndpoint,
    returns: 'The reply is recorded and queued for sending.',
    errors: {
      400: 'Also: a contact without an email and no `to`.',
      404: 'No assignment with this id in the organization.',
    },
  },
  'lookup-account': {
    tag: 'Accounts',
    summary: 'Look up an account',
    description:
      'One account by `domain`, `id`, or both (which must name the same account); at least one of them is required. With `icpId`, only the signals whose names are among that campaign’s signals are kept. Excluded accounts can still be looked up.',
    endpoint: lookupAccountEndpoint,
    returns: 'The account with its signals.',
    errors: {
      400: "Also: neither `domain` nor `id` (`Invalid query parameter 'domain': domain or id is required`).",
      404: 'No such account in the organization, `domain` and `id` naming different accounts, or an unknown `icpId`.',
    },
  },
  'exclude-account': {
    tag: 'Accounts',
    summary: 'Exclude an account',
    description:
      'Marks the company as a misfit: its domain joins the organization’s exclusion list, its account leaves every campaign’s accounts, and contacts at the domain are `globally_excluded` for raw pushes. Idempotent; the domain need not belong to an account yet.',
    endpoint: excludeAccountEndpoint,
    returns: 'The domain is excluded.',
  },
  'search-jobs': {
    tag: 'Jobs',
    summary: 'Search job openings',
    description:
      'Job openings of a company domain, newest `first_seen_at` first. Pages are cursor-based: pass `next` as `cursor` for the following page; `next` is 0 on the last page. Jobs arriving during a walk never shift or repeat its pages.',
    endpoint: searchJobsEndpoint,
    returns: 'A page of jobs with the next cursor.',
    errors: { 400: 'Also: a `cursor` that is not a position of this domain’s search.' },
  },
  'get-analytics-overview': {
    tag: 'Analytics',
    summary: 'Get the analytics overview',
    description: 'Counts over all the organization’s campaigns, maintained as events happen.',
    endpoint: analyticsOverviewEndpoint,
    returns: 'The counts.',
  },
  'list-webhooks': {
    tag: 'Webhooks',
    summary: 'List webhook subscriptions',
    description: 'The organization’s subscriptions by id, never with a secret.',
    endpoint: listWebhooksEndpoint,
    returns: 'The subscriptions.',
  },
  'create-webhook': {
    tag: 'Webhooks',
    summary: 'Subscribe to webhook events',
    description:
      'Subscribes an https URL to event types. The response carries the signing secret (`whsec_…`), shown only now. A URL that resolves to any non-public address is refused.',
    endpoint: createWebhookEndpoint,
    returns: 'The subscription with its signing secret.',
    errors: {
      400: 'Also: a URL refused by the SSRF check, saying why.',
      409: 'The organization has 25 subscriptions already.',
    },
  },
  'get-webhook': {
    tag: 'Webhooks',
    summary: 'Get a webhook subscription',
    description: 'One subscription, without its secret.',
    endpoint: getWebhookEndpoint,
    returns: 'The subscription.',
    errors: { 404: 'No webhook with this id in the organization.' },
  },
  'update-webhook': {
    tag: 'Webhooks',
    summary: 'Update a webhook subscription',
    description:
      'Changes any of `url`, `events` and `enabled`. Enabling clears `disabled_reason` and `failing_since`.',
    endpoint: updateWebhookEndpoint,
    returns: 'The updated subscription.',
    errors: {
      400: 'Also: a URL refused by the SSRF check, or none of the three fields.',
      404: 'No webhook with this id in the organization.',
    },
  },
  'delete-webhook': {
    tag: 'Webhooks',
    summary: 'Delete a webhook subscription',
    description: 'Deletes the subscription; its queued deliveries are cancelled when they come up.',
    endpoint: deleteWebhookEndpoint,
    returns: 'The subscription is deleted.',
    errors: { 404: 'No webhook with this id in the organization.' },
  },
  'test-webhook': {
    tag: 'Webhooks',
    summary: 'Send a test event',
    description:
      'Queues a signed `test` event to the subscription, whatever its event types and even when disabled; the delivery shows in its log.',
    endpoint: testWebhookEndpoint,
    returns: 'The queued delivery.',
    errors: { 404: 'No webhook with this id in the organization.' },
  },
  'rotate-webhook-secret': {
    tag: 'Webhooks',
    summary: 'Rotate a webhook’s signing secret',
    description:
      'Gives the subscription a new secret, shown only now; the previous one keeps signing, beside it, for 24 hours.',
    endpoint: rotateWebhookSecretEndpoint,
    returns: 'The subscription with its new secret.',
    errors: {
      404: 'No webhook with this id in the organization.',
      409: 'The subscription changed meanwhile; try again.',
    },
  },
  'list-webhook-deliveries': {
    tag: 'Webhooks',
    summary: 'List a webhook’s deliveries',
    description:
      'The deliveries log, newest first: status, attempts, response code and latency of the latest attempt. Pass `next` as `cursor` for older ones; `next` is null on the last page. Deliveries are kept 30 days.',
    endpoint: listWebhookDeliveriesEndpoint,
    returns: 'A page of deliveries.',
    errors: { 404: 'No webhook with this id in the organization.' },
  },
  'redeliver-webhook-delivery': {
    tag: 'Webhooks',
    summary: 'Redeliver a delivery',
    description: 'Sends the delivery’s event again now, with the same `webhook-id` and payload.',
    endpoint: redeliverWebhookEndpoint,
    returns: 'The delivery, queued again.',
    errors: {
      404: 'No such webhook or delivery in the organization.',
      409: 'The event is older than 30 days, or a redelivery of it is running.',
    },
  },
  'list-provider-connections': {
    tag: 'Provider connections',
    summary: 'List provider connections',
    description:
      'The organization’s provider connections by id, each with its webhook URL (to a `read-write` key only: its token posts provider events, so a `read` key gets the connections without it); never an API key.',
    endpoint: listProviderConnectionsEndpoint,
    returns: 'The connections.',
  },
  'create-provider-connection': {
    tag: 'Provider connections',
    summary: 'Connect a provider account',
    description:
      'Verifies the API key with the provider’s cheapest authenticated read at the connection’s base URL, then stores it encrypted (it is never returned) and answers the `webhook_url` to paste into the provider’s webhook settings. Several connections per provider are allowed, at most 20 in all. `base_url` (the provider API’s, for a regional or self-hosted endpoint) must pass the same address checks as webhook URLs.',
    endpoint: createProviderConnectionEndpoint,
    returns: 'The connection with its webhook URL.',
    errors: {
      400: 'Also: a `base_url` refused by the address check, saying why; or an API key the provider refused when asked (`Smartlead refused this API key (401)`), and nothing is stored.',
      409: 'The organization has 20 provider connections already.',
      502: 'The provider could not be reached (or failed) to verify the API key; nothing is stored. Try again later.',
    },
  },
  'get-provider-connection': {
    tag: 'Provider connections',
    summary: 'Get a provider connection',
    description:
      'One connection with its current webhook URL (to a `read-write` key only: its token posts provider events, so a `read` key gets the connection without it).',
    endpoint: getProviderConnectionEndpoint,
    returns: 'The connection.',
    errors: { 404: 'No provider connection with this id in the organization.' },
  },
  'update-provider-connection': {
    tag: 'Provider connections',
    summary: 'Replace a connection’s API key',
    description:
      'Verifies the new API key with the provider’s cheapest authenticated read at the connection’s base URL, then stores it encrypted in place of the old one (never returned). The webhook URL is kept. A key the provider refuses, or a provider that cannot be reached, leaves the old key in place.',
    endpoint: updateProviderConnectionEndpoint,
    returns: 'The connection with its webhook URL.',
    errors: {
      400: 'Also: an API key the provider refused when asked (`Smartlead refused this API key (401)`); the old key stays.',
      404: 'No provider connection with this id in the organization.',
      502: 'The provider could not be reached (or failed) to verify the API key; the old key stays. Try again later.',
    },
  },
  'delete-provider-connection': {
    tag: 'Provider connections',
    summary: 'Disconnect a provider account',
    description:
      'Deletes the connection and its encrypted API key; its webhook URL is refused (401) from now on.',
    endpoint: deleteProviderConnectionEndpoint,
    returns: 'The connection is deleted.',
    errors: { 404: 'No provider connection with this id in the organization.' },
  },
  'rotate-provider-webhook-url': {
    tag: 'Provider connections',
    summary: 'Rotate a connection’s webhook URL',
    description:
      'Gives the connection a new webhook URL, to paste into the provider; the previous URL is refused (401) at once.',
    endpoint: rotateProviderWebhookUrlEndpoint,
    returns: 'The connection with its new webhook URL.',
    errors: { 404: 'No provider connection with this id in the organization.' },
  },
  'check-provider-connection': {
    tag: 'Provider connections',
    summary: 'Check a connection’s API key now',
    description:
      'Asks the provider whether it still accepts the connection’s stored API key (the same cheapest authenticated read as when it was connected) and writes the answer as the connection’s health: accepted is `status: ok` with `last_success_at` now; refused is answered 200 with `status: failing` and the provider’s words in `last_error` (the check itself worked). Needs a `read-write` key: it spends the provider’s request quota.',
    endpoint: checkProviderConnectionEndpoint,
    returns: 'The connection with its health as the check found it, and its webhook URL.',
    errors: {
      404: 'No provider connection with this id in the organization.',
      502: 'The provider could not be reached, failed (5xx) or was busy (429); unreachable or failing marks the connection `failing`, busy leaves its health as it was. Try again later.',
    },
  },
  'list-provider-unmatched': {
    tag: 'Provider connections',
    summary: 'List a connection’s unmatched events',
    description:
      'Events the provider sent that could not be recorded (an unknown campaign, lead or assignment, an event the assignment’s lifecycle refuses, an event type the service does not record), newest first, each with the reason. Kept 14 days.',
    endpoint: listProviderUnmatchedEndpoint,
    returns: 'A page of unmatched events and the cursor of the next (`null` on the last).',
    errors: { 404: 'No provider connection with this id in the organization.' },
  },
  'list-provider-campaigns': {
    tag: 'Provider connections',
    summary: 'List a connection’s campaigns at the provider',
    description: [
      'The provider’s own list of campaigns, read with the connection’s API key, in the provider’s order, 100 a page: each campaign’s id (a string, whatever its type at the provider), name, the provider’s own status word and whether it takes leads now. Pass `next` as `cursor` for the following page; a page may be empty at the end (Instantly tells the end of its list one page late).',
      'A provider’s page is kept for up to a minute per server instance, so a campaign made at the provider a moment ago may show a little later (linking reads the list afresh).',
    ].join('\n\n'),
    endpoint: listProviderCampaignsEndpoint,
    returns: 'A page of the provider’s campaigns and the cursor of the next (`null` on the last).',
    errors: {
      400: "Also: a `cursor` that no page gave (`Invalid query parameter 'cursor': must be the next of a previous page`).",
      404: 'No provider connection with this id in the organization.',
      409: 'The provider refused the connection’s stored API key (`Smartlead refused the API key of provider connection 7 (401); give the connection a new key`): replace it with `PATCH /public/v1/provider-connections/{id}`.',
      502: 'The provider could not be reached, failed or was busy (429). Try again later.',
    },
  },
  'get-sequence-provider-link': {
    tag: 'Provider connections',
    summary: 'Get a sequence’s provider campaign',
    description:
      'The provider campaign a sequence is linked to, and the connection it runs on (null for a link an import made without one). The provider is not asked, so no `warning`: linking answers it.',
    endpoint: getSequenceProviderLinkEndpoint,
    returns: 'The link.',
    errors: {
      404: 'No sequence with this id in the organization, or the sequence is not linked (`Sequence 5 is not linked to a provider campaign`).',
    },
  },
  'put-sequence-provider-link': {
    tag: 'Provider connections',
    summary: 'Link a sequence to a provider campaign',
    description: [
      'Links the sequence to a campaign of the connection’s provider: contacts scheduled on the sequence from then on are enrolled in that campaign, and the provider’s webhooks naming it are matched to the sequence. The connection must be of the sequence’s provider, and the campaign must be in the provider’s list (`GET /public/v1/provider-connections/{id}/campaigns`), read afresh with the connection’s key.',
      'Idempotent: the same link again answers the same. Another campaign replaces the sequence’s link; a provider campaign linked to another sequence moves to this one (one provider campaign is one sequence). Linking enrolls none of the assignments the sequence already has.',
      'A campaign that takes no leads now (paused, a draft, no sender account) is linked all the same, with a `warning`: its leads wait until it runs.',
    ].join('\n\n'),
    endpoint: putSequenceProviderLinkEndpoint,
    returns: 'The link, with a `warning` when the campaign takes no leads now.',
    errors: {
      400: 'Also: the sequence is of another provider than the connection (`Sequence 5 is a smartlead sequence, not instantly`), or the provider has no such campaign (`Invalid body field \'provider_campaign_id\': Smartlead has no campaign "123" on connection 7`).',
      404: 'No sequence, or no provider connection, with this id in the organization.',
      409: 'The provider refused the connection’s stored API key: replace it with `PATCH /public/v1/provider-connections/{id}`.',
      502: 'The provider could not be reached, failed or was busy (429); nothing is linked. Try again later.',
    },
  },
  'delete-sequence-provider-link': {
    tag: 'Provider connections',
    summary: 'Unlink a sequence from its provider campaign',
    description:
      'Removes the link: nothing more is enrolled through it, and the provider’s webhooks naming that campaign match nothing (they are kept as unmatched). Leads already at the provider stay there.',
    endpoint: deleteSequenceProviderLinkEndpoint,
    returns: 'The link the sequence had.',
    errors: {
      404: 'No sequence with this id in the organization, or the sequence is not linked.',
    },
  },
  'receive-provider-webhook': {
    tag: 'Provider connections',
    summary: 'Receive a provider webhook',
    description: [
      'Where a provider posts its events: the complete `webhook_url` of a connection. No API key: the URL’s token is the credential (lemlist and HeyReach cannot sign). For Smartlead, a `secret_key` in the payload must equal the token.',
      `The body (at most ${MAX_PROVIDER_WEBHOOK_BYTES} bytes) is the provider’s native payload; it is queued and answered at once, then mapped and recorded (docs/providers.md). Events that match nothing are listed under the connection’s unmatched events.`,
    ].join('\n\n'),
    parameters: [
      { ...text('organization', 'The organization id.'), in: 'path', required: true },
      { ...text('connection', 'The provider connection id.'), in: 'path', required: true },
      { ...text('token', 'The connection’s current token.'), in: 'path', required: true },
    ],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: { type: 'object', description: 'The provider’s webhook payload, as it documents it.' },
        },
      },
    },
    responses: {
      200: json(
        { type: 'object', properties: { received: { type: 'boolean' } }, required: ['received'] },
        'Queued.',
      ),
      400: errorResponse('The body is not a JSON object, or nests deeper than 32 levels.'),
      401: errorResponse('Unknown connection, or a wrong or rotated token; nothing is written.'),
      413: errorResponse(
        `The body is over ${MAX_PROVIDER_WEBHOOK_BYTES} bytes, or would not fit one queue message once what the queue refuses is escaped.`,
      ),
    },
  },
  mcp: {
    tag: 'MCP',
    method: 'post',
    summary: 'MCP server (streamable HTTP)',
    description: [
      'A stateless streamable-HTTP Model Context Protocol server with read-only research tools over the organization’s data (`lookup_account`, `list_campaigns`, `get_campaign`, `list_campaign_accounts`, `list_campaign_contacts`, `search_jobs`, `check_eligibility`, `get_analytics_overview`), each answering as its REST endpoint does.',
      'Every POST carries one JSON-RPC message and gets a JSON response (no event stream, no session). Send `Accept: application/json, text/event-stream` and `Content-Type: application/json`. A JSON-RPC batch (a JSON array, `[]` too) is refused with 400 (`-32600`): protocol 2025-06-18 has none.',
      `Each OAuth client may send ${DEFAULT_MCP_CLIENT_RATE} requests per second unless the operator arranged another rate for it; \`check_eligibility\` takes at most ${MAX_CONTACTS_PER_REQUEST} emails per call, as the REST dry run does.`,
      `Requests need a bearer token from \`POST /oauth/token\` (scope \`${MCP_SCOPE}\`). \`GET\`, \`DELETE\` and other methods are 405 \`{message}\` with \`Allow: POST\`.`,
    ].join('\n\n'),
    security: [{ mcpOAuth: [MCP_SCOPE] }],
    requestBody: {
      required: true,
      content: { 'application/json': { schema: ref('schemas', 'JsonRpcMessage') } },
    },
    responses: {
      200: json(ref('schemas', 'JsonRpcResponse'), 'The JSON-RPC response.'),
      202: { description: 'A notification or response was accepted; no body.' },
      400: jsonRpcError(
        `Malformed JSON or not a JSON-RPC message (\`-32700\`); a batch, or a body nesting deeper than ${MAX_JSON_DEPTH} levels (\`-32600\`); an unsupported \`MCP-Protocol-Version\` (\`-32000\`).`,
      ),
      401: errorResponse('A missing, invalid, expired or revoked bearer token.', {
        'WWW-Authenticate': {
          description:
            'A Bearer challenge naming the protected-resource metadata URL, and `error="invalid_token"` for a token that is not valid.',
          required: true,
          schema: { type: 'string' },
        },
      }),
      406: jsonRpcError('The Accept header does not list both application/json and text/event-stream.'),
      413: {
        description: 'The body is over the MCP transport’s 4 MiB, or over the API’s 6 MiB.',
        content: {
          'application/json': {
            schema: { anyOf: [ref('schemas', 'JsonRpcTransportError'), ref('schemas', 'Error')] },
          },
        },
      },
      415: jsonRpcError('The Content-Type is not application/json.'),
      429: errorResponse(
        `Over the client's rate (${DEFAULT_MCP_CLIENT_RATE} requests per second unless arranged), or over a limit of the gateway in front of the server.`,
        {
          'Retry-After': {
            description: 'Seconds to wait before retrying.',
            required: true,
            schema: { type: 'integer', minimum: 1 },
          },
        },
      ),
    },
  },
  'oauth-protected-resource': {
    tag: 'OAuth',
    summary: 'Protected-resource metadata',
    description:
      'RFC 9728 metadata of the MCP server: `resource` is `{base}/mcp`, and the authorization server is this service.',
    responses: {
      200: oauthMetadata(
        'RFC 9728 protected-resource metadata',
        '`resource`, `authorization_servers`, `scopes_supported`, `bearer_methods_supported`, `resource_name`.',
      ),
    },
  },
  'oauth-protected-resource-mcp': {
    tag: 'OAuth',
    summary: 'Protected-resource metadata of /mcp',
    description:
      'The same RFC 9728 document at the path-specific location the 401 challenge of `/mcp` names.',
    responses: {
      200: oauthMetadata(
        'RFC 9728 protected-resource metadata',
        '`resource`, `authorization_servers`, `scopes_supported`, `bearer_methods_supported`, `resource_name`.',
      ),
    },
  },
  'oauth-authorization-server': {
    tag: 'OAuth',
    summary: 'Authorization-server metadata',
    description:
      'RFC 8414 metadata: the authorization-code flow with PKCE S256, refresh tokens and client credentials; dynamic client registration (RFC 7591) and client ID metadata documents; confidential and public clients.',
    responses: {
      200: oauthMetadata(
        'RFC 8414 authorization-server metadata',
        '`issuer`, `authorization_endpoint`, `token_endpoint`, `registration_endpoint`, `response_types_supported`, `grant_types_supported` (`authorization_code`, `refresh_token`, `client_credentials`), `code_challenge_methods_supported` (`S256`), `token_endpoint_auth_methods_supported` (`client_secret_basic`, `client_secret_post`, `none`), `scopes_supported`, `client_id_metadata_document_supported` (`true`).',
      ),
    },
  },
  'oauth-authorize': {
    tag: 'OAuth',
    summary: 'Consent page (authorization-code flow)',
    description: [
      'Shows a consent page for an MCP client to a person signed in to the dashboard (without a session: a redirect to the dashboard’s sign-in, which comes back here). They pick one of the organizations they are an admin of (an operator’s client: its own organization). PKCE with S256 is required (`code_challenge` of 43 base64url characters), and `redirect_uri` must equal one the client registered; otherwise nothing is redirected. Other refusals redirect back with an RFC 6749 `error`.',
      `A client named by the URL of its metadata document is read from the document, which the service keeps for its \`Cache-Control\` max-age (from a minute to an hour; a document it could not fetch or refused, 5 minutes) and fetches at most ${MAX_METADATA_DOCUMENT_FETCHES_PER_MINUTE} times a minute for one source address (documents it keeps do not count).`,
    ].join(' '),
    security: [],
    parameters: Object.entries(AUTHORIZATION_PARAMETERS).map(([name, description]) => ({
      in: 'query',
      ...text(name, description),
    })),
    responses: {
      200: html('The consent page.'),
      302: redirect('A refused request (`error`, `error_description`, `state`, `iss`).'),
      303: {
        description: 'No dashboard session: to the dashboard’s sign-in, which returns to this page.',
        headers: { Location: { required: true, schema: { type: 'string' } } },
      },
      400: html(
        'An unknown, revoked or expired client, or a redirect URI the client did not register or that is not https, http on a loopback host, or (for an operator’s client) a private-use scheme.',
      ),
      403: html('The person is an admin of no organization the client may connect to.'),
      429: metadataFetchLimited,
    },
  },
  'oauth-authorize-submit': {
    tag: 'OAuth',
    summary: 'Approve or deny (authorization-code flow)',
    description:
      'The consent form’s submission, with the dashboard session’s cookie and CSRF token. Approving records the organization’s grant of the client (listed, and revocable, on the dashboard’s AI assistant page) and redirects with a single-use code valid for 10 minutes.',
    security: [],
    requestBody: {
      required: true,
      content: {
        'application/x-www-form-urlencoded': {
          schema: {
            type: 'object',
            properties: formFields({
              ...AUTHORIZATION_PARAMETERS,
              csrf: 'The dashboard session’s CSRF token.',
              orgId: 'The organization to connect, one the person is an admin of.',
              decision: '`approve` or `deny`.',
            }),
          },
        },
      },
    },
    responses: {
      302: redirect('Approved (`code`, `state`, `iss`) or denied or refused (`error`, `error_description`).'),
      400: html(
        'An unknown, revoked or expired client, or a redirect URI the client did not register or that is not https, http on a loopback host, or (for an operator’s client) a private-use scheme.',
      ),
      401: html('No dashboard session: nothing was approved.'),
      403: html(
        'A missing or forged CSRF token, or an organization the person is not an admin of: nothing was approved.',
      ),
      413: errorResponse(
        `The form is over ${MAX_PARAMETER_BODY_BYTES / 1024} KiB, or the body over the API's 6 MiB.`,
      ),
      429: metadataFetchLimited,
      // The submission has no success status of its own: every outcome is the 302 to the client (OAuth
      // 2.1) or an error page. `default` (which Redocly's operation-2xx-response accepts in place of a
      // 2xx) says what else can come: the gateway's own answers, as on every operation.
      default: errorResponse(
        'No 2xx: an outcome is always the 302 above. Any other status is the gateway’s own `{message}` (504 on AWS when the function does not answer within the integration timeout).',
      ),
    },
  },
  'oauth-register': {
    tag: 'OAuth',
    summary: 'Register a client (RFC 7591)',
    description: [
      `Dynamic client registration: anyone may register a client, which belongs to no organization until a person of one approves it on the consent page. Unknown metadata members are ignored. A public client (\`token_endpoint_auth_method\` \`none\`) gets no secret and uses PKCE alone; a confidential one gets a secret (\`mcs_…\`), shown only in this response.`,
      `Redirect URIs are https, or http on a loopback host (\`127.0.0.1\`, \`[::1]\`, \`localhost\`, any port), without a fragment; the authorization request repeats one exactly as registered. A registration no organization approves expires after 30 days.`,
      `Each source address may register ${MAX_REGISTRATIONS_PER_HOUR} clients per hour of the clock; the next is 429 \`rate_limited\` with \`Retry-After\` (seconds until the hour ends). Refused registrations do not count.`,
    ].join('\n\n'),
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: {
              redirect_uris: {
                type: 'array',
                // Absolute URIs (`#domain/oauth-redirect-uris.ts`); the response shows them as registered.
                items: { type: 'string', format: 'uri' },
                minItems: 1,
                maxItems: MAX_REDIRECT_URIS,
                description: 'https, or http on a loopback host; no fragment.',
              },
              client_name: { type: 'string', minLength: 1, maxLength: MAX_CLIENT_NAME_LENGTH },
              token_endpoint_auth_method: {
                type: 'string',
                enum: [...TOKEN_ENDPOINT_AUTH_METHODS],
                default: 'client_secret_basic',
              },
              grant_types: {
                type: 'array',
                items: { type: 'string', enum: [...REGISTRABLE_GRANT_TYPES] },
                default: ['authorization_code'],
                description: 'Must include `authorization_code`; add `refresh_token` for refresh tokens.',
              },
              response_types: { type: 'array', items: { type: 'string', enum: ['code'] }, default: ['code'] },
              scope: { type: 'string', default: MCP_SCOPE, description: `\`${MCP_SCOPE}\`, the only scope.` },
            },
            required: ['redirect_uris'],
          },
        },
      },
    },
    responses: {
      201: json(
        {
          type: 'object',
          description:
            'RFC 7591 §3.2.1: `client_id` (`mcp_…`), `client_secret` and `client_secret_expires_at` (0: never) for a confidential client, `client_id_issued_at`, and the registered metadata.',
          properties: {
            client_id: { type: 'string' },
            client_secret: { type: 'string' },
            client_secret_expires_at: { type: 'integer' },
            client_id_issued_at: { type: 'integer' },
            redirect_uris: { type: 'array', items: { type: 'string' } },
            client_name: { type: 'string' },
            token_endpoint_auth_method: { type: 'string', enum: [...TOKEN_ENDPOINT_AUTH_METHODS] },
            grant_types: { type: 'array', items: { type: 'string', enum: [...REGISTRABLE_GRANT_TYPES] } },
            response_types: { type: 'array', items: { type: 'string' } },
            scope: { type: 'string' },
          },
          required: [
            'client_id',
            'client_id_issued_at',
            'redirect_uris',
            'token_endpoint_auth_method',
            'grant_types',
            'response_types',
            'scope',
          ],
        },
        'The client is registered; not cacheable.',
      ),
      400: json(
        {
          type: 'object',
          description: 'RFC 7591 §3.2.2 error: `{"error", "error_description"}`.',
          properties: {
            error: { type: 'string', enum: ['invalid_redirect_uri', 'invalid_client_metadata'] },
            error_description: { type: 'string' },
          },
          required: ['error', 'error_description'],
        },
        `\`invalid_redirect_uri\` for anything wrong with \`redirect_uris\`; \`invalid_client_metadata\` for the rest, including a body that is no JSON object or is over ${MAX_PARAMETER_BODY_BYTES / 1024} KiB.`,
      ),
      429: {
        description: `Over ${MAX_REGISTRATIONS_PER_HOUR} registrations this hour from the address (\`rate_limited\`), or over a limit of the gateway (\`{message}\`).`,
        headers: {
          'Retry-After': {
            description: 'Seconds to wait before retrying.',
            required: true,
            schema: { type: 'integer', minimum: 1 },
          },
        },
        content: {
          'application/json': {
            schema: {
              anyOf: [
                {
                  type: 'object',
                  properties: { error: { const: 'rate_limited' }, error_description: { type: 'string' } },
                  required: ['error', 'error_description'],
                },
                ref('schemas', 'Error'),
              ],
            },
          },
        },
      },
    },
  },
  'oauth-token': {
    tag: 'OAuth',
    summary: 'Token endpoint',
    description: [
      '`grant_type=authorization_code` with `code`, `redirect_uri` and `code_verifier` (43 to 128 characters of `A-Z a-z 0-9 - . _ ~`); `grant_type=refresh_token` with `refresh_token`; or `grant_type=client_credentials` (operator clients only). A confidential client authenticates with HTTP Basic or `client_id` and `client_secret` in the body (one of them, not both); a public client (registered with `none`, or a client ID metadata document URL) sends `client_id` alone. The body may be form-encoded or JSON.',
      `Access tokens (\`mat_…\`) last ${ACCESS_TOKEN_TTL_SECONDS / 60} minutes. The code grant also issues a refresh token (\`mrt_…\`, ${REFRESH_TOKEN_TTL_SECONDS / 86_400} days) to clients with the \`refresh_token\` grant; each refresh consumes it and issues a new pair. A code is redeemed once, and only by the client it was issued to; redeeming it again, or presenting a consumed refresh token again, is \`invalid_grant\` and revokes every token descended from the code.`,
      '`resource`, when given, must be `{base}/mcp`; a missing `scope` means `mcp:read`. Errors follow RFC 6749: `{"error", "error_description"}`.',
    ].join('\n\n'),
    security: [{}, { oauthClientBasic: [] }],
    requestBody: {
      required: true,
      content: Object.fromEntries(
        ['application/x-www-form-urlencoded', 'application/json'].map((type) => [
          type,
          {
            schema: {
              type: 'object',
              properties: formFields({
                grant_type: '`authorization_code`, `refresh_token` or `client_credentials`.',
                client_id: 'With `client_secret`, instead of HTTP Basic; alone for a public client.',
                client_secret: 'The secret (`mcs_…`) shown when the client was created or registered.',
                code: 'The authorization code (authorization_code).',
                redirect_uri: 'The redirect URI the code was issued for (authorization_code).',
                code_verifier: 'The PKCE verifier (authorization_code).',
                refresh_token: 'The refresh token (`mrt_…`) to exchange (refresh_token).',
                resource: AUTHORIZATION_PARAMETERS.resource,
                scope: AUTHORIZATION_PARAMETERS.scope,
              }),
              required: ['grant_type'],
            },
          },
        ]),
      ),
    },
    responses: {
      200: json(
        {
          type: 'object',
          description: `An opaque access token (\`mat_…\`) for \`/mcp\`: \`access_token\`, \`token_type\` (\`Bearer\`), \`expires_in\` (${ACCESS_TOKEN_TTL_SECONDS}), \`scope\`, and \`refresh_token\` (\`mrt_…\`) from the code and refresh grants for clients with the \`refresh_token\` grant.`,
        },
        'The tokens; not cacheable.',
      ),
      400: json(
        { type: 'object', description: 'RFC 6749 error: `{"error", "error_description"}`.' },
        '`invalid_request` (also for Basic and body credentials together), `invalid_grant`, `invalid_target`, `invalid_scope`, `unauthorized_client` (a grant the client may not use, or an organization that revoked it) or `unsupported_grant_type`.',
      ),
      413: {
        description: `The body is over ${MAX_PARAMETER_BODY_BYTES / 1024} KiB (\`invalid_request\`), or over the API's 6 MiB (\`{message}\`).`,
        content: {
          'application/json': {
            schema: {
              anyOf: [
                {
                  type: 'object',
                  description: 'RFC 6749 error: `{"error": "invalid_request", "error_description"}`.',
                },
                ref('schemas', 'Error'),
              ],
            },
          },
        },
      },
      401: {
        ...json(
          {
            type: 'object',
            description: 'RFC 6749 error: `{"error": "invalid_client", "error_description"}`.',
          },
          'The client failed to authenticate (`invalid_client`).',
        ),
        headers: {
          'WWW-Authenticate': {
            description: '`Basic realm="oauth"`.',
            required: true,
            schema: { type: 'string' },
          },
        },
      },
    },
  },
  dashboard: dashboardOperation('The overview', []),
  'dashboard-page': dashboardOperation('A page, sign-in and sign-out', [
    {
      in: 'path',
      required: true,
      ...text(
        'page',
        'A page (`api-keys`, `webhooks`, `assistant`, `providers`, `approvals`, `settings`, `members`, `audit`, `organizations`), or `sign-in`, `callback`, `sign-out`, `signed-out`.',
      ),
    },
  ]),
  'dashboard-item': dashboardOperation('One item of a page, and the page assets', [
    { in: 'path', required: true, ...text('page', 'The page: `webhooks`, `providers`, or `assets`.') },
    {
      in: 'path',
      required: true,
      ...text('item', 'A webhook or provider connection id, or an asset (`app.css`, `app.js`, `icon.svg`).'),
    },
  ]),
  openapi: {
    tag: 'Reference',
    summary: 'This OpenAPI document',
    description:
      'The OpenAPI 3.1 document of this deployment, generated from the zod schemas that validate requests and shape responses; `servers` names the deployment’s own URL.',
    responses: {
      200: json({ type: 'object', description: 'An OpenAPI 3.1 document.' }, 'The document.'),
    },
  },
  docs: {
    tag: 'Reference',
    summary: 'API reference page',
    description:
      'Swagger UI rendering this document, with "Try it out" against this deployment: enter an API key under Authorize.',
    responses: { 200: html('The reference page.') },
  },
  'docs-asset': {
    tag: 'Reference',
    summary: 'Reference page assets',
    description:
      "Swagger UI's script and styles (from the service's own `swagger-ui-dist` dependency) and the page's initializer.",
    parameters: [
      { in: 'path', required: true, ...text('asset', 'The file name.', { enum: REFERENCE_ASSETS }) },
    ],
    responses: {
      200: {
        description: 'The file.',
        content: {
          'text/javascript': { schema: { type: 'string' } },
          'text/css': { schema: { type: 'string' } },
        },
      },
      404: errorResponse('No asset of this name.'),
    },
  },
};
