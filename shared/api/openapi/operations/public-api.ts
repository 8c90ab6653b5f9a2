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
import { searchJobsEndpoint } from '#schemas/jobs.ts';
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
import type { OperationDescription } from './helpers.ts';

type RouteName = (typeof routes)[number]['name'];

/** The operations of `/public/v1`, each naming the zod schemas its endpoint is built with. */
export const publicApiOperations = {
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
} satisfies Partial<Record<RouteName, OperationDescription>>;
