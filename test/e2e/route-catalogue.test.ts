import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE_ASSETS } from '#api/openapi/reference-page.ts';
import { routes } from '#definitions/routes.ts';
import { createApiKey } from '#domain/api-keys.ts';
import { createOAuthClient } from '#domain/oauth-clients.ts';
import { createOrganization } from '#domain/organizations.ts';
import { signedInMember } from '../../infra/local/dashboard-member.ts';
import {
  clientCredentialsToken,
  providerWebhookOf,
  type RequestTarget,
  validRequest,
} from '../../infra/local/route-requests.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { apiClient, send } from '../support/api-client.ts';
import { smallDocument } from '../support/fixtures.ts';
import { importFor } from '../support/import.ts';
import { startTestStack } from '../support/local-stack.ts';
import { emulatedConnection, linkedEmulatorCampaign } from '../support/provider-workspace.ts';
import { waitFor } from '../support/wait.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * The request catalogue (infra/local/route-requests.ts) holds a valid request
 * for every route, and the bad-input test, the tenant-isolation test and the
 * bench all start from it: so each of its requests is sent here, against
 * the small fixture, and must get the status the catalogue gives it (the
 * e2e tier also checks each answer against the OpenAPI document).
 */

let stack: LocalStack;
let receiver: WebhookReceiver;
let target: RequestTarget;

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startWebhookReceiver();
  const { orgId } = await createOrganization('Catalogue Inc');
  const { apiKey } = await createApiKey(orgId);
  await importFor(orgId, smallDocument());
  const api = apiClient(stack, apiKey);
  const webhook = await api.post('/webhooks', {
    url: `${receiver.url}/ok/catalogue`,
    events: ['first_touch'],
  });
  const test = await api.post(`/webhooks/${webhook.body.id}/test`);
  await receiver.arrivals('/ok/catalogue', 1);
  await waitFor(async () => {
    const log = await api.get(`/webhooks/${webhook.body.id}/deliveries`);
    expect(log.body.data[0].status).toBe('delivered');
  });
  const redirectUri = 'https://assistant.example/callback';
  const client = await createOAuthClient(orgId, 'Assistant', [redirectUri]);
  const account = await emulatedConnection(stack, 'smartlead', 'catalogue-key');
  const connection = await api.post('/provider-connections', account);
  target = {
    providerCampaignId: await linkedEmulatorCampaign(stack, {
      orgId,
      provider: 'smartlead',
      apiKey: account.api_key,
      connectionId: connection.body.id,
      sequenceId: 201,
    }),
    providerConnectionId: connection.body.id,
    providerAccount: { provider: 'smartlead', baseUrl: account.base_url, apiKey: account.api_key },
    providerWebhook: providerWebhookOf(connection.body.webhook_url),
    apiUrl: stack.apiUrl,
    apiKey,
    campaignId: 101,
    sequenceId: 201,
    assignmentId: 501,
    accountId: 301,
    accountDomain: 'acme.com',
    jobDomain: 'acme.com',
    webhookId: webhook.body.id,
    deliveryId: test.body.delivery.id,
    webhookUrl: `${receiver.url}/ok/created`,
    oauth: { ...client, redirectUri, accessToken: await clientCredentialsToken(stack.apiUrl, client) },
    docsAsset: REFERENCE_ASSETS[0]!,
    member: await signedInMember(orgId, 'admin'),
  };
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

describe('the request catalogue', () => {
  // The requests that end what others name come last, in this order: the provider connection's URL is
  // rotated after the inbound webhook was posted to it (the old token is refused since), and the
  // sequence's link, the connection and the webhook are deleted after every request naming them.
  const LAST = [
    'delete-sequence-provider-link',
    'rotate-provider-webhook-url',
    'delete-provider-connection',
    'delete-webhook',
  ];
  const ordered = [...routes].sort((a, b) => LAST.indexOf(a.name) - LAST.indexOf(b.name));

  it.each(ordered.map((route) => [`${route.method} ${route.path} (${route.name})`, route] as const))(
    "%s: the catalogue's request gets the catalogue's status",
    async (_title, route) => {
      const request = validRequest(route.name, target);
      const answer = await send(stack.apiUrl, request);
      expect(answer.status, `${request.method} ${request.url} → ${answer.text.slice(0, 300)}`).toBe(
        request.status,
      );
    },
  );
});
