import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { applyImport, validateImport } from '#admin/import.ts';
import { REFERENCE_ASSETS } from '#api/openapi/reference-page.ts';
import { MAX_MCP_CLIENT_RATE } from '#definitions/mcp-limits.ts';
import { createApiKey, revokeApiKey } from '#domain/api-keys.ts';
import { requestFingerprint } from '#domain/idempotency.ts';
import { createOAuthClient, revokeOAuthClient } from '#domain/oauth-clients.ts';
import { createOrganization } from '#domain/organizations.ts';
import { createWebhook, MAX_WEBHOOKS_PER_ORGANIZATION } from '#domain/webhooks.ts';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { pushContactsEndpoint } from '#schemas/raw.ts';
import { keys } from '#store/keys.ts';
import { clientCredentialsToken, type RequestTarget } from '../../../infra/local/route-requests.ts';
import type { LocalStack } from '../../../infra/local/stack.ts';
import { type ApiClient, apiClient } from '../../support/api-client.ts';
import { smallDocument } from '../../support/fixtures.ts';
import { settle } from '../../support/settle.ts';
import { waitFor } from '../../support/wait.ts';
import type { WebhookReceiver } from '../../support/webhook-receiver.ts';

/**
 * What the generators aim at: resources that exist, so validation is
 * exercised in front of real data (the small fixture document imported into
 * an organization, a webhook with delivered test events, an OAuth client),
 * and credentials and states that must be refused.
 */

export const REDIRECT_URI = 'https://assistant.example/callback';

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
  /** A key of an organization that has the maximum number of webhooks. */
  fullApiKey: string;
  receiverUrl: string;
  webhookId: number;
  deliveryId: number;
  /** A delivery whose event payload is gone (kept 30 days): redelivering it is 409. */
  expiredDeliveryId: number;
  client: { clientId: string; clientSecret: string };
  revokedClientId: string;
  accessToken: string;
  /** An Idempotency-Key used with `{contacts: []}` on campaign 101 (another body under it is 422). */
  usedIdempotencyKey: string;
  /** An Idempotency-Key whose request is still running (the same request again is 409). */
  runningIdempotencyKey: string;
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
  };
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
  const validated = validateImport(smallDocument());
  if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
  await applyImport(orgId, validated.document);
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

  world = {
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
    accessToken,
    usedIdempotencyKey: 'bad-input-used-key',
    runningIdempotencyKey: 'bad-input-running-key',
  };
  const api = apiClient(stack, apiKey);
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
        fingerprint: requestFingerprint('raw-push:101', pushContactsEndpoint.body.parse(RUNNING_PUSH)),
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
