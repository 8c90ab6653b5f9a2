import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { REFERENCE_ASSETS } from '#api/openapi/reference-page.ts';
import { MAX_MCP_CLIENT_RATE } from '#definitions/mcp-limits.ts';
import { createApiKey, revokeApiKey } from '#domain/api-keys.ts';
import { endpointFingerprint } from '#domain/idempotency.ts';
import { createOAuthClient, revokeOAuthClient } from '#domain/oauth-clients.ts';
import { registerClient } from '#domain/oauth-registration.ts';
import { createOrganization } from '#domain/organizations.ts';
import { MAX_PROVIDER_CONNECTIONS_PER_ORGANIZATION } from '#domain/provider-connections.ts';
import { createWebhook, MAX_WEBHOOKS_PER_ORGANIZATION } from '#domain/webhooks.ts';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import type { Provider } from '#schemas/import.ts';
import { pushContactsEndpoint } from '#schemas/raw.ts';
import { keys } from '#store/keys.ts';
import { signedInMember } from '../../../infra/local/dashboard-member.ts';
import {
  clientCredentialsToken,
  providerWebhookOf,
  type RequestTarget,
} from '../../../infra/local/route-requests.ts';
import type { LocalStack } from '../../../infra/local/stack.ts';
import { type ApiClient, apiClient } from '../../support/api-client.ts';
import { smallDocument } from '../../support/fixtures.ts';
import { importFor } from '../../support/import.ts';
import { emulatedConnection, linkedEmulatorCampaign } from '../../support/provider-workspace.ts';
import { settle } from '../../support/settle.ts';
import { waitFor } from '../../support/wait.ts';
import type { WebhookReceiver } from '../../support/webhook-receiver.ts';

/**
 * What the generators aim at: resources that exist, so validation is
 * exercised in front of real data (the small fixture document imported into
 * an organization, a webhook with delivered test events, an OAuth client,
 * provider connections), and credentials and states that must be refused.
 */

export const REDIRECT_URI = 'https://assistant.example/callback';

/** The parts of a provider connection's webhook URL (its organization, id and token). */
export type ProviderWebhook = RequestTarget['providerWebhook'];

/** The body of the request still "running" under `runningIdempotencyKey`. */
export const RUNNING_PUSH = { contacts: [{ email: 'running@fresh-example.com' }] };

export interface World {
  /** The stack's root URL. */
  apiUrl: string;
  orgId: number;
  apiKey: string;
  /** A valid key of another organization (the consent form refuses it for this organization's client). */
  otherApiKey: string;
  revokedApiKey: string;
  /** A key of an organization that has the maximum number of webhooks and of provider connections. */
  fullApiKey: string;
  receiverUrl: string;
  webhookId: number;
  deliveryId: number;
  /** A delivery whose event payload is gone (kept 30 days): redelivering it is 409. */
  expiredDeliveryId: number;
  client: { clientId: string; clientSecret: string };
  revokedClientId: string;
  /** A registered public client (`none`): no secret, no client-credentials grant. */
  publicClientId: string;
  accessToken: string;
  /** An Idempotency-Key used with `{contacts: []}` on campaign 101 (another body under it is 422). */
  usedIdempotencyKey: string;
  /** An Idempotency-Key whose request is still running (the same request again is 409). */
  runningIdempotencyKey: string;
  /** The organization's Smartlead connection (payloads with a `secret_key` must carry the URL's token). */
  providerConnectionId: number;
  /** A Smartlead workspace at the stack's emulator: a key connecting or replacing a key may name. */
  providerAccount: RequestTarget['providerAccount'];
  /** A campaign of that workspace, to which sequence 201 is linked. */
  providerCampaignId: string;
  /** Its current webhook URL's parts (the URL was rotated once). */
  providerWebhook: ProviderWebhook;
  /** Its URL's token before that rotation: refused since. */
  staleProviderToken: string;
  /** A lemlist connection of the organization: lemlist payloads carry no secret to check. */
  lemlistWebhook: ProviderWebhook;
  /** The URL of a connection of the organization that was deleted since. */
  deletedProviderWebhook: ProviderWebhook;
  /** The URL of another organization's connection. */
  otherProviderWebhook: ProviderWebhook;
  /** An admin of the organization signed in to the dashboard. */
  member: RequestTarget['member'];
}

/** The world of the running test file (set by `buildWorld`). */
export let world: World;

/** The world as the request catalogue's target: the fixture's campaign 101, its sequence 201, assignment 501… */
export function target(): RequestTarget {
  return {
    apiUrl: world.apiUrl,
    apiKey: world.apiKey,
    campaignId: 101,
    sequenceId: 201,
    assignmentId: 501,
    accountId: 301,
    accountDomain: 'acme.com',
    jobDomain: 'acme.com',
    webhookId: world.webhookId,
    deliveryId: world.deliveryId,
    webhookUrl: world.receiverUrl,
    oauth: { ...world.client, redirectUri: REDIRECT_URI, accessToken: world.accessToken },
    docsAsset: REFERENCE_ASSETS[0]!,
    providerConnectionId: world.providerConnectionId,
    providerAccount: world.providerAccount,
    providerWebhook: world.providerWebhook,
    providerCampaignId: world.providerCampaignId,
    member: world.member,
  };
}

/** Connects a provider through the API; the connection's id and its webhook URL's parts. */
async function connect(stack: LocalStack, api: ApiClient, provider: Provider, key?: string) {
  const created = await api.post(
    '/provider-connections',
    await emulatedConnection(stack, provider, `bad-input-${provider}-key`),
    { key },
  );
  expect(created.status, created.text).toBe(200);
  return { id: created.body.id as number, webhook: providerWebhookOf(created.body.webhook_url as string) };
}

/** Sends a test event to the webhook and waits until it is delivered. */
async function deliveredTestEvent(api: ApiClient, webhookId: number) {
  const test = await api.post(`/webhooks/${webhookId}/test`);
  const delivery = test.body.delivery as { id: number; event_id: string };
  await waitFor(
    async () => {
      const log = await api.get(`/webhooks/${webhookId}/deliveries`);
      const found = (log.body.data as { id: number; status: string }[]).find(
        (item) => item.id === delivery.id,
      );
      expect(found?.status).toBe('delivered');
    },
    { what: `delivery ${delivery.id}` },
  );
  return { deliveryId: delivery.id, eventId: delivery.event_id };
}

/** Builds the world on `stack`, then waits until the stack's background work is done. */
export async function buildWorld(stack: LocalStack, receiver: WebhookReceiver): Promise<World> {
  const receiverUrl = `${receiver.url}/hook`;
  const { orgId } = await createOrganization('Bad Input Inc');
  const { apiKey } = await createApiKey(orgId);
  await importFor(orgId, smallDocument());
  const revoked = await createApiKey(orgId);
  await revokeApiKey(orgId, revoked.keyId);

  const other = await createOrganization('Other Inc');
  const { apiKey: otherApiKey } = await createApiKey(other.orgId);
  const full = await createOrganization('Full Inc');
  const { apiKey: fullApiKey } = await createApiKey(full.orgId);
  for (let index = 0; index < MAX_WEBHOOKS_PER_ORGANIZATION; index++)
    await createWebhook(full.orgId, { url: receiverUrl, events: ['first_touch'] });

  // The /mcp cases are sent back to back, far faster than the default per-client rate.
  const client = await createOAuthClient(orgId, 'Assistant', [REDIRECT_URI], {
    rateLimit: MAX_MCP_CLIENT_RATE,
  });
  const revokedClient = await createOAuthClient(orgId, 'Revoked', [REDIRECT_URI]);
  await revokeOAuthClient(orgId, revokedClient.clientId);
  const accessToken = await clientCredentialsToken(stack.apiUrl, client);
  const publicClient = await registerClient(
    {
      redirectUris: [REDIRECT_URI],
      clientName: 'Public Assistant',
      tokenEndpointAuthMethod: 'none',
      grantTypes: ['authorization_code', 'refresh_token'],
    },
    'bad-input-world',
  );

  const api = apiClient(stack, apiKey);
  // Smartlead: the provider whose payloads carry a secret, checked against the URL's token.
  const smartlead = await connect(stack, api, 'smartlead');
  const rotated = await api.post(`/provider-connections/${smartlead.id}/rotate-webhook-url`);
  expect(rotated.status, rotated.text).toBe(200);
  const providerWebhook = providerWebhookOf(rotated.body.webhook_url as string);
  expect(providerWebhook.token).not.toBe(smartlead.webhook.token);
  const lemlist = await connect(stack, api, 'lemlist');
  const deleted = await connect(stack, api, 'heyreach');
  expect((await api.delete(`/provider-connections/${deleted.id}`)).status).toBe(200);
  const otherConnection = await connect(stack, api, 'smartlead', otherApiKey);
  // The full organization has no room for another connection either (create-provider-connection: 409).
  for (let index = 0; index < MAX_PROVIDER_CONNECTIONS_PER_ORGANIZATION; index++)
    await connect(stack, api, 'instantly', fullApiKey);

  const providerCampaignId = await linkedEmulatorCampaign(stack, {
    orgId,
    provider: 'smartlead',
    apiKey: 'bad-input-smartlead-key',
    connectionId: smartlead.id,
    sequenceId: 201,
  });
  const member = await signedInMember(orgId, 'admin');
  world = {
    member,
    apiUrl: stack.apiUrl,
    orgId,
    apiKey,
    otherApiKey,
    revokedApiKey: revoked.apiKey,
    fullApiKey,
    receiverUrl,
    webhookId: 0,
    deliveryId: 0,
    expiredDeliveryId: 0,
    client,
    revokedClientId: revokedClient.clientId,
    publicClientId: publicClient.clientId,
    accessToken,
    usedIdempotencyKey: 'bad-input-used-key',
    runningIdempotencyKey: 'bad-input-running-key',
    providerConnectionId: smartlead.id,
    providerAccount: {
      provider: 'smartlead',
      baseUrl: stack.providerApiUrls.smartlead,
      apiKey: 'bad-input-smartlead-key',
    },
    providerWebhook,
    providerCampaignId,
    staleProviderToken: smartlead.webhook.token,
    lemlistWebhook: lemlist.webhook,
    deletedProviderWebhook: deleted.webhook,
    otherProviderWebhook: otherConnection.webhook,
  };
  const webhook = await api.post('/webhooks', { url: receiverUrl, events: ['first_touch'] });
  world.webhookId = webhook.body.id as number;
  world.deliveryId = (await deliveredTestEvent(api, world.webhookId)).deliveryId;
  const expired = await deliveredTestEvent(api, world.webhookId);
  world.expiredDeliveryId = expired.deliveryId;
  await dynamo.send(
    new DeleteCommand({ TableName: tableName(), Key: keys.webhookEvent(orgId, expired.eventId) }),
  );

  const used = await api.post(
    '/campaigns/101/raw/contacts',
    { contacts: [] },
    {
      headers: { 'idempotency-key': world.usedIdempotencyKey },
    },
  );
  expect(used.status).toBe(200);
  await dynamo.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.idempotency(orgId, world.runningIdempotencyKey),
        type: 'idempotency',
        orgId,
        fingerprint: endpointFingerprint('POST', '/public/v1/campaigns/{id}/raw/contacts', {
          path: { id: 101 },
          body: pushContactsEndpoint.body.parse(RUNNING_PUSH),
        }),
        state: 'running',
        expiresAt: Math.floor(Date.now() / 1000) + 3600,
      },
    }),
  );
  // Every key the cases use validly is verified once now, so its last-used time is written here.
  for (const key of [apiKey, otherApiKey, fullApiKey])
    expect((await api.get('/auth', { key })).status).toBe(200);
  // Nothing of the above is still at work when the cases start counting writes.
  await settle(stack, receiver);
  return world;
}
