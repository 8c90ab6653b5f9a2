import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect } from 'vitest';
import { PROVIDERS } from '#definitions/providers.ts';
import { createApiKey } from '#domain/api-keys.ts';
import { createOrganization } from '#domain/organizations.ts';
import type { Provider } from '#schemas/import.ts';
import { webhookPayload } from '#schemas/webhooks.ts';
import type { LocalStack, LocalStackOptions } from '../../infra/local/stack.ts';
import { apiClient } from './api-client.ts';
import { admin } from './cli.ts';
import { importFor } from './import.ts';
import { startTestStack } from './local-stack.ts';
import { emulatorControl } from './provider-emulator-http.ts';
import { waitFor } from './wait.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';

/**
 * The enrollment tests' world (provider-enrollment.test.ts, provider-pacing.test.ts): a local
 * stack, an organization connected to each provider's emulator with a campaign whose sequence is
 * linked there, and the helpers that push contacts and read back what the emulator received.
 * The emulators play only what a test asks (manual playback), so each native webhook is one the
 * test chose.
 */

const CHANNEL: Record<Provider, 'email' | 'linkedin'> = {
  smartlead: 'email',
  instantly: 'email',
  lemlist: 'email',
  heyreach: 'linkedin',
};
/** One campaign per provider, its sequence linked to an emulator campaign. */
export const campaignOf = (provider: Provider) => 800 + PROVIDERS.indexOf(provider);
export const sequenceOf = (provider: Provider) => 8100 + PROVIDERS.indexOf(provider);

/** The file's stack, webhook receiver and organization: set by `useEnrollmentStack`'s `beforeAll`. */
export const enrolling = {} as {
  stack: LocalStack;
  receiver: WebhookReceiver;
  orgId: number;
  apiKey: string;
  secret: string;
  localDir: string;
};
/** The organization's connection to each provider's emulator workspace, whose API key this is. */
export const workspaceKey = (provider: Provider) => `e2e-${provider}-key`;
export const connectionIds = {} as Record<Provider, number>;
/** The provider campaign each provider's sequence is linked to now (tests link others). */
export const externalIds = {} as Record<Provider, string>;

export const api = () => apiClient(enrolling.stack, enrolling.apiKey);

interface EmulatedLead {
  leadId: string;
  campaignId: string;
  status: string;
  received: Record<string, unknown>;
  email: string | null;
  linkedinUrl: string | null;
}

/** A request to `provider`'s emulator control API (`path` below `/_emulator/`). */
export const emulator = (provider: Provider, method: 'GET' | 'POST', path: string, body?: unknown) =>
  emulatorControl(() => enrolling.stack.providerApiUrls[provider])<Record<string, unknown>>(
    method,
    `/${path}`,
    body,
  );

export async function emulatedLeads(
  provider: Provider,
  campaignId = externalIds[provider],
): Promise<EmulatedLead[]> {
  const answer = await emulator(
    provider,
    'GET',
    `leads?apiKey=${encodeURIComponent(workspaceKey(provider))}&campaignId=${encodeURIComponent(campaignId)}`,
  );
  return answer.leads as EmulatedLead[];
}

export async function newEmulatorCampaign(provider: Provider, name: string): Promise<string> {
  return (await emulator(provider, 'POST', 'campaigns', { apiKey: workspaceKey(provider), name }))
    .id as string;
}

/** Links the provider's sequence to a provider campaign with `outreach-admin sequence link`. */
export async function linkSequence(provider: Provider, externalId: string) {
  const linked = await admin(enrolling.localDir, [
    'sequence',
    'link',
    '--org',
    String(enrolling.orgId),
    '--sequence',
    String(sequenceOf(provider)),
    '--connection',
    String(connectionIds[provider]),
    '--external-id',
    externalId,
  ]);
  expect(linked.code, linked.stderr).toBe(0);
}

/** A contact to push, of the provider's channel (a HeyReach lead is found by its LinkedIn URL). */
export function contact(provider: Provider, name: string, variables: Record<string, string> = {}) {
  return {
    email: `${name}@${provider}-leads.example`,
    firstName: name,
    lastName: 'Lead',
    title: 'Head of Growth',
    companyName: `${name} Inc`,
    linkedinUrl: `https://www.linkedin.com/in/${provider}-${name}`,
    variables,
  };
}

export async function push(provider: Provider, contacts: ReturnType<typeof contact>[], triggerIntake = true) {
  const answer = await api().post(`/campaigns/${campaignOf(provider)}/raw/contacts`, {
    contacts,
    triggerIntake,
    sequenceId: sequenceOf(provider),
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as { created: number; assignmentIds: number[] };
}

interface CampaignContact {
  assignment_id: number;
  status: string;
  sequenced_at: string | null;
  enrollment: { status: string; error: string | null; updated_at: string } | null;
}

export async function contactsOf(provider: Provider): Promise<Map<number, CampaignContact>> {
  const page = await api().get(`/campaigns/${campaignOf(provider)}/contacts?take=100`);
  expect(page.status).toBe(200);
  return new Map((page.body.data as CampaignContact[]).map((each) => [each.assignment_id, each]));
}

export async function enrollmentsSettled(provider: Provider, assignmentIds: number[]) {
  return waitFor(
    async () => {
      const contacts = await contactsOf(provider);
      const all = assignmentIds.map((id) => contacts.get(id)!);
      return all.every((each) => each.enrollment && each.enrollment.status !== 'pending') ? all : false;
    },
    { what: `the ${provider} enrollments to settle` },
  );
}

function importDocument() {
  return {
    campaigns: PROVIDERS.map((provider) => ({
      id: campaignOf(provider),
      name: `Enrolled through ${provider}`,
      sequences: [
        {
          id: sequenceOf(provider),
          provider,
          channel: CHANNEL[provider],
          steps: [
            {
              type: CHANNEL[provider] === 'email' ? 'email' : 'linkedin_message',
              variants: [{ subject: 'Hi {{opener}}', body: 'Hello' }],
            },
          ],
        },
      ],
    })),
  };
}

/** The organization's verified webhook events of a type, by assignment. */
export function received(type: 'first_touch' | 'positive_reply'): number[] {
  return enrolling.receiver
    .on('/ok/enrollment')
    .map((request) =>
      webhookPayload.parse(
        new Webhook(enrolling.secret).verify(request.body, request.headers as Record<string, string>),
      ),
    )
    .filter((payload) => payload.type === type)
    .map((payload) => (payload as { data: { assignment_id: number } }).data.assignment_id);
}

/**
 * Starts the file's stack with a connection to a workspace at each provider's emulator, each
 * provider's sequence linked to a campaign there, and a webhook subscription of the organization
 * (`received`); stops it after the file. `providerRateLimits`: limits in place of the documented
 * ones, for tests that are not about pacing (LocalStackOptions.providerRateLimits).
 */
export function useEnrollmentStack(options: Pick<LocalStackOptions, 'providerRateLimits'> = {}) {
  beforeAll(async () => {
    enrolling.localDir = mkdtempSync(join(tmpdir(), 'enrollment-e2e-'));
    enrolling.stack = await startTestStack({ endpointsDir: enrolling.localDir, ...options });
    enrolling.receiver = await startWebhookReceiver();
    ({ orgId: enrolling.orgId } = await createOrganization('Enrolling Agency'));
    ({ apiKey: enrolling.apiKey } = await createApiKey(enrolling.orgId));
    await importFor(enrolling.orgId, importDocument());
    const hook = await api().post('/webhooks', {
      url: `${enrolling.receiver.url}/ok/enrollment`,
      events: ['first_touch', 'positive_reply'],
    });
    enrolling.secret = hook.body.secret;
    for (const provider of PROVIDERS) {
      await emulator(provider, 'POST', 'workspaces', { apiKey: workspaceKey(provider) });
      const connection = await api().post('/provider-connections', {
        provider,
        api_key: workspaceKey(provider),
        base_url: enrolling.stack.providerApiUrls[provider],
      });
      expect(connection.status, JSON.stringify(connection.body)).toBe(200);
      connectionIds[provider] = connection.body.id;
      await emulator(provider, 'POST', 'webhooks', {
        apiKey: workspaceKey(provider),
        url: connection.body.webhook_url,
      });
      externalIds[provider] = await newEmulatorCampaign(provider, `Campaign of ${provider}`);
      await linkSequence(provider, externalIds[provider]);
    }
  });
  afterAll(async () => {
    await enrolling.stack?.stop();
    await enrolling.receiver?.stop();
    rmSync(enrolling.localDir, { recursive: true, force: true });
  });
}
