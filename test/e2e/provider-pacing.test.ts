import { describe, expect, it } from 'vitest';
import type { Provider } from '#schemas/import.ts';
import {
  contact,
  contactsOf,
  emulatedLeads,
  emulator,
  enrollmentsSettled,
  externalIds,
  linkSequence,
  newEmulatorCampaign,
  push,
  useEnrollmentStack,
  workspaceKey,
} from '../support/provider-enrollment.ts';
import { waitFor } from '../support/wait.ts';

/**
 * Enrollment at a provider's documented pace: Smartlead's 60 requests a
 * minute, which its emulator enforces and the service keeps below, one
 * request a second. Its add answers counts only, so each lead is read back
 * one request at a time; these tests rely on that pace (split from
 * provider-enrollment.test.ts, whose stack runs its providers faster).
 */
useEnrollmentStack();

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
