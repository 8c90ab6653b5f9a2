import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDERS } from '#definitions/providers.ts';
import { createApiKey } from '#domain/api-keys.ts';
import { createOrganization } from '#domain/organizations.ts';
import { linkSequence as linkSequenceUnchecked } from '#domain/sequence-links.ts';
import type { Provider } from '#schemas/import.ts';
import { webhookPayload } from '#schemas/webhooks.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { apiClient } from '../support/api-client.ts';
import { admin } from '../support/cli.ts';
import { importFor } from '../support/import.ts';
import { startTestStack } from '../support/local-stack.ts';
import { maintainedAndRecomputed } from '../support/recompute.ts';
import { waitFor } from '../support/wait.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * Enrollment, replies and stops at the providers, through the local stack and
 * each provider's emulator (infra/local/provider-emulators/): what the
 * emulator received is what the service sent. The emulators play only what a
 * test asks (manual playback), so each native webhook is one the test chose.
 */

const CHANNEL: Record<Provider, 'email' | 'linkedin'> = {
  smartlead: 'email',
  instantly: 'email',
  lemlist: 'email',
  heyreach: 'linkedin',
};
/** One campaign per provider, its sequence linked to an emulator campaign. */
const campaignOf = (provider: Provider) => 800 + PROVIDERS.indexOf(provider);
const sequenceOf = (provider: Provider) => 8100 + PROVIDERS.indexOf(provider);

let stack: LocalStack;
let receiver: WebhookReceiver;
let orgId: number;
let apiKey: string;
let secret: string;
let localDir: string;
const workspaceKey = (provider: Provider) => `e2e-${provider}-key`;
const connectionIds = {} as Record<Provider, number>;
const externalIds = {} as Record<Provider, string>;

const api = () => apiClient(stack, apiKey);

interface EmulatedLead {
  leadId: string;
  campaignId: string;
  status: string;
  received: Record<string, unknown>;
  email: string | null;
  linkedinUrl: string | null;
}

async function emulator(provider: Provider, method: 'GET' | 'POST', path: string, body?: unknown) {
  const url = new URL(`/_emulator/${path}`, stack.providerApiUrls[provider]);
  const response = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.ok, text).toBe(true);
  return JSON.parse(text) as Record<string, unknown>;
}

async function emulatedLeads(
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

async function newEmulatorCampaign(provider: Provider, name: string): Promise<string> {
  return (await emulator(provider, 'POST', 'campaigns', { apiKey: workspaceKey(provider), name }))
    .id as string;
}

/** Links the provider's sequence to a provider campaign with `outreach-admin sequence link`. */
async function linkSequence(provider: Provider, externalId: string) {
  const linked = await admin(localDir, [
    'sequence',
    'link',
    '--org',
    String(orgId),
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
function contact(provider: Provider, name: string, variables: Record<string, string> = {}) {
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

async function push(provider: Provider, contacts: ReturnType<typeof contact>[], triggerIntake = true) {
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

async function contactsOf(provider: Provider): Promise<Map<number, CampaignContact>> {
  const page = await api().get(`/campaigns/${campaignOf(provider)}/contacts?take=100`);
  expect(page.status).toBe(200);
  return new Map((page.body.data as CampaignContact[]).map((each) => [each.assignment_id, each]));
}

async function enrollmentsSettled(provider: Provider, assignmentIds: number[]) {
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
function received(type: 'first_touch' | 'positive_reply'): number[] {
  return receiver
    .on('/ok/enrollment')
    .map((request) =>
      webhookPayload.parse(
        new Webhook(secret).verify(request.body, request.headers as Record<string, string>),
      ),
    )
    .filter((payload) => payload.type === type)
    .map((payload) => (payload as { data: { assignment_id: number } }).data.assignment_id);
}

beforeAll(async () => {
  localDir = mkdtempSync(join(tmpdir(), 'enrollment-e2e-'));
  stack = await startTestStack({ endpointsDir: localDir });
  receiver = await startWebhookReceiver();
  ({ orgId } = await createOrganization('Enrolling Agency'));
  ({ apiKey } = await createApiKey(orgId));
  await importFor(orgId, importDocument());
  const hook = await api().post('/webhooks', {
    url: `${receiver.url}/ok/enrollment`,
    events: ['first_touch', 'positive_reply'],
  });
  secret = hook.body.secret;
  for (const provider of PROVIDERS) {
    await emulator(provider, 'POST', 'workspaces', { apiKey: workspaceKey(provider) });
    const connection = await api().post('/provider-connections', {
      provider,
      api_key: workspaceKey(provider),
      base_url: stack.providerApiUrls[provider],
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
  await stack?.stop();
  await receiver?.stop();
  rmSync(localDir, { recursive: true, force: true });
});

describe.each(PROVIDERS)('enrollment at %s', (provider) => {
  it('adds pushed contacts with their fields and snippet variables, and records the lead id', async () => {
    // Act
    const pushed = await push(provider, [
      contact(provider, 'ada', { opener: 'Saw your launch', city: 'Lyon' }),
      contact(provider, 'grace', { opener: 'Congrats on the round' }),
    ]);

    // Assess
    const settled = await enrollmentsSettled(provider, pushed.assignmentIds);
    expect(settled.map((each) => each.enrollment?.status)).toEqual(['enrolled', 'enrolled']);
    for (const each of settled) {
      expect(each.status).toBe('scheduled');
      expect(each.sequenced_at).not.toBeNull();
    }
    const leads = await emulatedLeads(provider);
    const ada = leads.find((lead) => JSON.stringify(lead.received).includes('Saw your launch'));
    expect(ada, JSON.stringify(leads)).toBeDefined();
    const fields = JSON.stringify(ada!.received);
    // Every provider carries the name, the company and the caller's variables, each under its own field names.
    for (const value of ['ada', 'Lead', 'ada Inc', 'Saw your launch', 'Lyon'])
      expect(fields).toContain(value);
    if (provider === 'heyreach') expect(fields).toContain('linkedin.com/in/heyreach-ada');
    // lemlist takes the email in the request's path, the others in its body.
    else if (provider === 'lemlist') expect(ada!.email).toBe('ada@lemlist-leads.example');
    else expect(fields).toContain(`ada@${provider}-leads.example`);
    expect(leads).toHaveLength(2);
  });

  it('records a permanent refusal on the assignment and lists it', async () => {
    // Prepare: the sequence names a campaign the provider does not have.
    const missing =
      provider === 'instantly'
        ? '00000000-0000-4000-8000-000000000000'
        : provider === 'lemlist'
          ? 'cam_doesnotexist'
          : '999999';
    // Linking asks the provider for the campaign, so a missing one is linked as a campaign removed at the
    // provider after it was linked would be: through the domain, which asks no provider.
    await linkSequenceUnchecked(orgId, {
      sequenceId: sequenceOf(provider),
      connectionId: connectionIds[provider],
      provider,
      externalId: missing,
    });

    // Act
    const pushed = await push(provider, [contact(provider, 'refused')]);
    const [settled] = await enrollmentsSettled(provider, pushed.assignmentIds);
    await linkSequence(provider, externalIds[provider]);

    // Assess
    expect(settled!.enrollment).toMatchObject({ status: 'failed', error: expect.stringMatching(/campaign/) });
    expect(settled!.sequenced_at).toBeNull();
    const failures = await admin(localDir, ['provider', 'failures', '--org', String(orgId), '--json']);
    expect(failures.code, failures.stderr).toBe(0);
    const listed = JSON.parse(failures.stdout) as {
      data: { assignment_id: number; provider: string; external_id: string }[];
    };
    expect(listed.data).toContainEqual(
      expect.objectContaining({ assignment_id: pushed.assignmentIds[0], provider, external_id: missing }),
    );
  });

  it('enrolls approved contacts, not pending ones', async () => {
    // Prepare
    const pushed = await push(
      provider,
      [contact(provider, 'pending1'), contact(provider, 'pending2')],
      false,
    );
    const before = await contactsOf(provider);
    expect(pushed.assignmentIds.map((id) => before.get(id)?.enrollment ?? null)).toEqual([null, null]);

    // Act
    const approved = await admin(localDir, [
      'assignments',
      'approve',
      '--org',
      String(orgId),
      '--campaign',
      String(campaignOf(provider)),
      '--all',
      '--json',
    ]);

    // Assess
    expect(approved.code, approved.stderr).toBe(0);
    expect(JSON.parse(approved.stdout).approved.sort()).toEqual([...pushed.assignmentIds].sort());
    const settled = await enrollmentsSettled(provider, pushed.assignmentIds);
    expect(settled.map((each) => [each.status, each.enrollment?.status])).toEqual([
      ['scheduled', 'enrolled'],
      ['scheduled', 'enrolled'],
    ]);
    const again = await admin(localDir, [
      'assignments',
      'approve',
      '--org',
      String(orgId),
      '--campaign',
      String(campaignOf(provider)),
      '--ids',
      pushed.assignmentIds.join(','),
      '--json',
    ]);
    expect(JSON.parse(again.stdout).approved).toEqual([]);
  });

  it('rides out a storm of 429s with no lead lost or added twice', async () => {
    // Prepare
    await emulator(provider, 'POST', 'faults', {
      apiKey: workspaceKey(provider),
      kind: 'rate-limit',
      count: 4,
      retryAfterSeconds: 1,
    });

    // Act
    const pushed = await push(provider, [
      contact(provider, 'storm1'),
      contact(provider, 'storm2'),
      contact(provider, 'storm3'),
    ]);

    // Assess
    const settled = await enrollmentsSettled(provider, pushed.assignmentIds);
    expect(settled.map((each) => each.enrollment?.status)).toEqual(['enrolled', 'enrolled', 'enrolled']);
    const leads = await emulatedLeads(provider);
    for (const name of ['storm1', 'storm2', 'storm3']) {
      expect(
        leads.filter(
          (lead) =>
            JSON.stringify(lead.received).includes(`${provider}-${name}`) ||
            lead.email === `${name}@${provider}-leads.example`,
        ),
      ).toHaveLength(1);
    }
  });

  it('does not enroll twice when the connection drops after the provider accepted the batch', async () => {
    // Prepare
    await emulator(provider, 'POST', 'faults', {
      apiKey: workspaceKey(provider),
      kind: 'drop-after-accept',
      count: 1,
    });

    // Act
    const pushed = await push(provider, [contact(provider, 'crash1')]);

    // Assess
    const [settled] = await enrollmentsSettled(provider, pushed.assignmentIds);
    expect(settled!.enrollment?.status).toBe('enrolled');
    const leads = (await emulatedLeads(provider)).filter(
      (lead) =>
        lead.email === `crash1@${provider}-leads.example` ||
        JSON.stringify(lead.received).includes(`${provider}-crash1`),
    );
    expect(leads).toHaveLength(1);
  });

  it('stops enrolled leads when their domain is excluded', async () => {
    // Prepare
    const pushed = await push(provider, [contact(provider, 'excluded')]);
    await enrollmentsSettled(provider, pushed.assignmentIds);

    // Act
    const excluded = await api().post('/accounts/exclude', { company_url: `${provider}-leads.example` });
    expect(excluded.status).toBe(200);

    // Assess
    await waitFor(
      async () => {
        const lead = (await emulatedLeads(provider)).find(
          (each) =>
            each.email === `excluded@${provider}-leads.example` ||
            JSON.stringify(each.received).includes(`${provider}-excluded`),
        );
        return lead && lead.status !== 'active' ? lead : false;
      },
      { what: `the ${provider} lead to be stopped` },
    );
  });
});

describe('the full loop', () => {
  it.each(PROVIDERS)(
    '%s: push → enrollment → native webhooks → First Touch and Positive Reply, and a reply in the thread',
    async (provider) => {
      // Prepare: a campaign of its own, so the exclusion above does not reach it.
      externalIds[provider] = await newEmulatorCampaign(provider, `Loop of ${provider}`);
      await linkSequence(provider, externalIds[provider]);
      const lead = { ...contact(provider, 'loop'), email: `loop@${provider}-loop.example` };
      const pushed = await push(provider, [lead]);
      const [assignmentId] = pushed.assignmentIds as [number];
      await enrollmentsSettled(provider, [assignmentId]);
      const [emulated] = await emulatedLeads(provider);

      // Act: the provider sends, and the lead answers with interest.
      const play = (type: string, classification?: string) =>
        emulator(provider, 'POST', `leads/${encodeURIComponent(emulated!.leadId)}/events`, {
          apiKey: workspaceKey(provider),
          campaignId: externalIds[provider],
          type,
          ...(classification ? { classification } : {}),
        });
      await play('sent');
      await play('replied', 'positive');

      // Assess
      await waitFor(() => received('first_touch').includes(assignmentId), { what: 'First Touch' });
      if (provider !== 'heyreach') {
        // HeyReach has no classification: its replies stay neutral until someone classifies them.
        await waitFor(() => received('positive_reply').includes(assignmentId), { what: 'Positive Reply' });
      }
      const status = await waitFor(async () => {
        const contacts = await contactsOf(provider);
        return contacts.get(assignmentId)?.status === 'replied' ? 'replied' : false;
      });
      expect(status).toBe('replied');

      // Act: answer the lead.
      const mailBefore = stack.smtp.messages.length;
      const reply = await api().post(`/assignments/${assignmentId}/reply`, {
        body: 'Glad to hear it',
        plainText: true,
      });
      expect(reply.status).toBe(200);

      // Assess: through the provider's thread where it can answer in one, by email otherwise.
      if (provider === 'lemlist') {
        await waitFor(() => stack.smtp.messages.length > mailBefore, { what: 'the reply by email' });
      } else {
        const replies = await waitFor(
          async () => {
            const answer = await emulator(
              provider,
              'GET',
              `replies?apiKey=${encodeURIComponent(workspaceKey(provider))}`,
            );
            const list = answer.replies as unknown[];
            return JSON.stringify(list).includes('Glad to hear it') ? list : false;
          },
          { what: `the reply at ${provider}` },
        );
        expect(replies.length).toBeGreaterThan(0);
        expect(stack.smtp.messages.length).toBe(mailBefore);
      }
      const { stored, recomputed } = await maintainedAndRecomputed(orgId);
      expect(stored).toEqual(recomputed);
    },
  );
});

describe('enrollment visible lead by lead', () => {
  it('shows each Smartlead lead enrolled as the provider confirms it, not when the whole batch is done', async () => {
    // Prepare: a campaign of its own. Smartlead's add answers counts only, so each lead is read back
    // one request at a time at the connection's pace (60 a minute): the ten read-backs of one batch
    // span many of the polls below.
    const provider: Provider = 'smartlead';
    externalIds[provider] = await newEmulatorCampaign(provider, 'Lead by lead');
    await linkSequence(provider, externalIds[provider]);
    const contacts = Array.from({ length: 10 }, (_, index) => ({
      ...contact(provider, `batch${index}`),
      email: `batch${index}@smartlead-batch.example`,
    }));

    // Act
    const pushed = await push(provider, contacts);

    // Assess: the number of enrolled leads at each poll, until all are.
    const counts: number[] = [];
    await waitFor(
      async () => {
        const listed = await contactsOf(provider);
        const statuses = pushed.assignmentIds.map((id) => listed.get(id)?.enrollment?.status);
        expect(statuses.filter((status) => status === 'failed')).toEqual([]);
        const enrolled = statuses.filter((status) => status === 'enrolled').length;
        counts.push(enrolled);
        return enrolled === pushed.assignmentIds.length;
      },
      { what: 'the ten Smartlead leads to be enrolled', intervalMs: 100 },
    );
    // Some poll saw some leads enrolled and others not yet: the first was visible before the last.
    expect(
      counts.some((count) => count > 0 && count < pushed.assignmentIds.length),
      String(counts),
    ).toBe(true);
    // And none went back to pending.
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
  });

  it('keeps the leads recorded before a failure mid-batch, and finds the others without adding them again', async () => {
    // Prepare
    const provider: Provider = 'smartlead';
    externalIds[provider] = await newEmulatorCampaign(provider, 'Failure mid-batch');
    await linkSequence(provider, externalIds[provider]);
    const names = Array.from({ length: 10 }, (_, index) => `midbatch${index}`);
    const requestLog = async () =>
      (await emulator(provider, 'GET', `requests?apiKey=${encodeURIComponent(workspaceKey(provider))}`))
        .requests as { method: string; path: string; status: number }[];
    const logged = (await requestLog()).length;
    const pushed = await push(
      provider,
      names.map((name) => ({ ...contact(provider, name), email: `${name}@smartlead-batch.example` })),
    );
    const enrolledNow = async () => {
      const listed = await contactsOf(provider);
      return pushed.assignmentIds.filter((id) => listed.get(id)?.enrollment?.status === 'enrolled');
    };
    const first = await waitFor(async () => ((await enrolledNow()).length > 0 ? enrolledNow() : false), {
      what: 'a first lead to be enrolled',
      intervalMs: 100,
    });

    // Act: the next read-back fails (500), which ends this attempt; the queue brings the rest back.
    await emulator(provider, 'POST', 'faults', { apiKey: workspaceKey(provider), kind: 'server-error' });

    // Assess
    expect(first.length).toBeLessThan(pushed.assignmentIds.length);
    const settled = await enrollmentsSettled(provider, pushed.assignmentIds);
    expect(settled.map((each) => each.enrollment?.status)).toEqual(names.map(() => 'enrolled'));
    const requests = (await requestLog()).slice(logged);
    // The failure happened within this batch, and the retry looked the rest up rather than adding them.
    expect(requests.filter((request) => request.status === 500)).toHaveLength(1);
    const adds = requests.filter(
      (request) =>
        request.method === 'POST' && request.path.endsWith(`/campaigns/${externalIds[provider]}/leads`),
    );
    expect(adds).toHaveLength(1);
    expect(await emulatedLeads(provider)).toHaveLength(names.length);
  });
});
