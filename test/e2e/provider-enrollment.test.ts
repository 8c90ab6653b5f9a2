import { describe, expect, it } from 'vitest';
import { PROVIDERS } from '#definitions/providers.ts';
import { linkSequence as linkSequenceUnchecked } from '#domain/sequence-links.ts';
import { PROVIDER_FACTS } from '#providers/registry.ts';
import { admin } from '../support/cli.ts';
import {
  api,
  campaignOf,
  connectionIds,
  contact,
  contactsOf,
  emulatedLeads,
  emulator,
  enrolling,
  enrollmentsSettled,
  externalIds,
  linkSequence,
  newEmulatorCampaign,
  push,
  received,
  sequenceOf,
  useEnrollmentStack,
  workspaceKey,
} from '../support/provider-enrollment.ts';
import { maintainedAndRecomputed } from '../support/recompute.ts';
import { waitFor } from '../support/wait.ts';

/**
 * Enrollment, replies and stops at the providers, through the local stack and
 * each provider's emulator (infra/local/provider-emulators/): what the
 * emulator received is what the service sent. None of these tests is about
 * pacing (provider-pacing.test.ts is): the emulators allow, and the service
 * paces to, each provider's documented number of requests per second rather
 * than per its documented window, so that no test sleeps through Smartlead's
 * 60 requests a minute (a second between two requests) that it does not test.
 */
useEnrollmentStack({
  providerRateLimits: Object.fromEntries(
    PROVIDERS.map((provider) => [
      provider,
      { requests: PROVIDER_FACTS[provider].rateLimit.requests, perMs: 1000 },
    ]),
  ),
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
    await linkSequenceUnchecked(enrolling.orgId, {
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
    const failures = await admin(enrolling.localDir, [
      'provider',
      'failures',
      '--org',
      String(enrolling.orgId),
      '--json',
    ]);
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
    const approved = await admin(enrolling.localDir, [
      'assignments',
      'approve',
      '--org',
      String(enrolling.orgId),
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
    const again = await admin(enrolling.localDir, [
      'assignments',
      'approve',
      '--org',
      String(enrolling.orgId),
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
      const mailBefore = enrolling.stack.smtp.messages.length;
      const reply = await api().post(`/assignments/${assignmentId}/reply`, {
        body: 'Glad to hear it',
        plainText: true,
      });
      expect(reply.status).toBe(200);

      // Assess: through the provider's thread where it can answer in one, by email otherwise.
      if (provider === 'lemlist') {
        await waitFor(() => enrolling.stack.smtp.messages.length > mailBefore, {
          what: 'the reply by email',
        });
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
        expect(enrolling.stack.smtp.messages.length).toBe(mailBefore);
      }
      const { stored, recomputed } = await maintainedAndRecomputed(enrolling.orgId);
      expect(stored).toEqual(recomputed);
    },
  );
});
