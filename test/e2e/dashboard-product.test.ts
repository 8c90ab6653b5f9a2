import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#domain/api-keys.ts';
import { readAuditLog } from '#domain/audit-log.ts';
import { listMembers } from '#domain/members.ts';
import { createOrganization } from '#domain/organizations.ts';
import { identityDirectory } from '#platform/identity-directory.ts';
import { addMember as addMemberAtProvider } from '#use-cases/add-member.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { apiClient } from '../support/api-client.ts';
import { type DashboardClient, dashboardClient } from '../support/dashboard.ts';
import {
  axeViolations,
  CHROMIUM,
  describeViolations,
  hasChromium,
  signInForTheFirstTime,
} from '../support/dashboard-browser.ts';
import { smallDocument } from '../support/fixtures.ts';
import { importFor } from '../support/import.ts';
import { startTestStack } from '../support/local-stack.ts';
import { emulatorControl } from '../support/provider-emulator-http.ts';
import { emulatedConnection } from '../support/provider-workspace.ts';
import { countRequests } from '../support/request-counter.ts';

/**
 * The dashboard's campaign pages, people and provider connections (issue 38):
 * over HTTP, their reads and what they cost, tenant isolation, escaping,
 * CSRF and roles of every new form; in Chromium, each new page as admin and
 * viewer at 390 and 1,366 px (no sideways scroll, no axe violation). One
 * stack and one browser for the file.
 */

/** Markup in every text a person or an import controls: it must render as text. */
const MARKUP = '<script>alert(1)</script><img src=x onerror=alert(2)>';

let stack: LocalStack;
let localDir: string;
let orgA: number;
let orgB: number;
let adminA: DashboardClient;
let viewerA: DashboardClient;
let adminB: DashboardClient;
let connectionOfA: number;
let providerCampaign: { id: string; name: string };

beforeAll(async () => {
  localDir = mkdtempSync(join(tmpdir(), 'dashboard-product-'));
  stack = await startTestStack({ endpointsDir: localDir, openIdProvider: true });
  orgA = (await createOrganization('Alpha Inc')).orgId;
  orgB = (await createOrganization('Beta Ltd')).orgId;
  const document = smallDocument() as {
    campaigns: { name: string }[];
    contacts: { company_name?: string }[];
    messages: unknown[];
  };
  document.campaigns[0]!.name = `Fintech ${MARKUP}`;
  document.contacts[0]!.company_name = `Acme ${MARKUP}`;
  document.messages.push({
    id: 699,
    assignment_id: 501,
    type: 'sent',
    step_type: 'email',
    step_index: 0,
    variant_index: 0,
    subject: `Hi ${MARKUP}`,
    body: `Hello Ann\n${MARKUP}`,
    open_count: 1,
    sender_email: 'rep@seller.com',
    created_at: '2026-04-03T10:00:00.000Z',
  });
  await importFor(orgA, document as ReturnType<typeof smallDocument>);
  await importFor(orgB, smallDocument());
  const key = await createApiKey(orgA);
  const connection = await apiClient(stack, key.apiKey).post(
    '/provider-connections',
    await emulatedConnection(stack, 'smartlead', 'product-key-a'),
  );
  connectionOfA = connection.body.id;
  // A campaign at the provider, made before the first listing (a listing is kept a minute).
  const made = await emulatorControl(() => stack.providerApiUrls.smartlead)<{ id: string | number }>(
    'POST',
    '/campaigns',
    { apiKey: 'product-key-a', name: `Q3 push ${MARKUP}` },
  );
  providerCampaign = { id: String(made.id), name: `Q3 push ${MARKUP}` };
  adminA = await dashboardClient(stack.apiUrl, { orgId: orgA, role: 'admin', email: 'ada@alpha.example' });
  viewerA = await dashboardClient(stack.apiUrl, { orgId: orgA, role: 'viewer', email: 'vic@alpha.example' });
  adminB = await dashboardClient(stack.apiUrl, { orgId: orgB, role: 'admin' });
});
afterAll(async () => {
  await stack?.stop();
  rmSync(localDir, { recursive: true, force: true });
});

/** What the page says, without its markup: the text a person reads. */
const textOf = (page: string) => page.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

/** The page has the markup only as escaped text. */
function expectInert(page: string) {
  expect(page).not.toContain('<script>alert');
  expect(page).not.toContain('<img src=x');
  expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
}

describe('campaign pages', () => {
  it('lists the campaigns with their rates, from one Query of the campaigns', async () => {
    const { result: page, calls } = await countRequests(() => viewerA.get('/dashboard/campaigns'));
    expect(page.status).toBe(200);
    expect(page.text).toContain('Open rate');
    expect(page.text).toContain('Reply rate');
    expect(page.text).toContain('Bounce rate');
    expect(textOf(page.text)).toContain(
      'Campaign Contacts sent Open rate Reply rate Positive-reply rate Bounce rate',
    );
    expect(page.text).toContain(`href="${stack.apiUrl}/dashboard/campaigns/102"`);
    // 101: Ann's reply came positive; 102: Cy's contact was sent to, opened it and bounced.
    expect(textOf(page.text)).toContain('1 100% 100% 100% 0%');
    expect(textOf(page.text)).toContain('Retail Ops 1 100% 0% 0% 100%');
    expectInert(page.text);
    // The session (GetItem), membership and organization (BatchGetItem); the campaigns (one Query).
    expect(calls.map((call) => call.operation).sort()).toEqual(['BatchGetItem', 'GetItem', 'Query']);
  });

  it('shows a campaign: its rates, contacts by status, sequences with their links, and its contacts', async () => {
    const { result: page, calls } = await countRequests(() => viewerA.get('/dashboard/campaigns/101'));
    expect(page.status).toBe(200);
    const text = textOf(page.text);
    expect(text).toContain('100% Reply rate 1 replied 100% Positive-reply rate 1 positive 0% Bounce rate');
    expect(text).toContain('Pending approval 1');
    expect(text).toContain('Scheduled 1');
    expect(text).toContain('Sequence 201 Smartlead Not linked');
    expect(text).toContain('Sequence 202 HeyReach Not linked');
    for (const email of ['ann@acme.com', 'bob@globex.io']) expect(text).toContain(email);
    expect(page.text).toContain(`href="${stack.apiUrl}/dashboard/campaigns/101?contact=501"`);
    expectInert(page.text);
    // Session and membership; the campaign (one Query of its item and shards) and its newest contacts
    // (one Query of its index), and the campaign again for the page's total (the API's use case).
    expect(calls.map((call) => call.operation).sort()).toEqual([
      'BatchGetItem',
      'GetItem',
      'Query',
      'Query',
      'Query',
    ]);
  });

  it('names the provider campaign a sequence is linked to, read from the connection', async () => {
    const linked = await adminA.post(`/dashboard/providers/${connectionOfA}`, {
      action: 'link',
      sequence_id: '201',
      provider_campaign_id: providerCampaign.id,
    });
    expect(linked.status).toBe(303);
    const page = await viewerA.get('/dashboard/campaigns/101');
    expect(textOf(page.text)).toContain(
      `Sequence 201 Smartlead Linked on Smartlead connection ${connectionOfA} Q3 push &lt;script&gt;`,
    );
    expectInert(page.text);
  });

  it('searches the contacts by email, filters them by status and enrollment, and pages them', async () => {
    const byEmail = await viewerA.get('/dashboard/campaigns/101?email=%20Ann@ACME.com');
    expect(textOf(byEmail.text)).toContain('1–1 of 1 contacts');
    expect(byEmail.text).toContain('ann@acme.com');
    expect(byEmail.text).not.toContain('bob@globex.io');
    // Another campaign's contact is not this campaign's.
    const elsewhere = await viewerA.get('/dashboard/campaigns/102?email=ann@acme.com');
    expect(elsewhere.text).toContain('No contact matches the search.');

    const pending = await viewerA.get('/dashboard/campaigns/101?status=pending-approval');
    expect(pending.text).toContain('bob@globex.io');
    expect(pending.text).not.toContain('ann@acme.com');

    const notEnrolled = await viewerA.get('/dashboard/campaigns/101?enrollment=enrolled');
    expect(notEnrolled.text).toContain('No contact matches the search.');

    const second = await viewerA.get('/dashboard/campaigns/101?skip=2');
    expect(textOf(second.text)).toContain('3–3 of 3 contacts');
    expect(second.text).toContain('Previous 25');

    for (const query of ['status=nope', 'enrollment=maybe', 'skip=-1']) {
      const refused = await viewerA.get(`/dashboard/campaigns/101?${query}`);
      expect(refused.status, query).toBe(400);
    }
  });

  it('opens a contact’s message thread, its text escaped and its lines kept', async () => {
    const { result: page, calls } = await countRequests(() =>
      viewerA.get('/dashboard/campaigns/101?contact=501'),
    );
    expect(page.status).toBe(200);
    const text = textOf(page.text);
    expect(text).toContain('ann@acme.com');
    expect(text).toContain('Sent');
    expect(page.text).toContain('Hello Ann<br>&lt;script&gt;');
    expectInert(page.text);
    // Session and membership; the campaign (Query), the assignment (GetItem), its thread (one Query).
    expect(calls.map((call) => call.operation).sort()).toEqual([
      'BatchGetItem',
      'GetItem',
      'GetItem',
      'Query',
      'Query',
    ]);
  });

  it('answers 404 for another organization’s campaign or contact, and for a contact of another campaign', async () => {
    for (const path of [
      '/dashboard/campaigns/101?contact=503',
      '/dashboard/campaigns/999',
      '/dashboard/campaigns/999?contact=501',
    ]) {
      const page = await adminA.get(path);
      expect(page.status, path).toBe(404);
    }
    // B's campaign 101 is B's own: A's contact 501 is not in it.
    const other = await adminB.get('/dashboard/campaigns/101');
    expect(other.status).toBe(200);
    expect(other.text).not.toContain('Fintech &lt;script');
  });
});

describe('people', () => {
  it('invites a member with the local provider’s one-time password shown once, and records it', async () => {
    const invited = await adminA.post('/dashboard/members', {
      action: 'invite',
      email: ' New.Person@Alpha.example ',
      role: 'viewer',
    });
    expect(invited.status).toBe(200);
    expect(invited.text).toContain('new.person@alpha.example is a member as viewer.');
    expect(invited.text).toMatch(/<code id="one-time-password">[A-Za-z0-9_-]{16}<\/code>/);
    const members = await listMembers(orgA);
    expect(members.find((member) => member.email === 'new.person@alpha.example')).toMatchObject({
      role: 'viewer',
      addedBy: 'ada@alpha.example',
    });
    // The page shown afterwards never shows it again.
    expect((await adminA.get('/dashboard/members')).text).not.toContain('one-time-password');
    const { entries } = await readAuditLog(orgA, 5);
    expect(entries[0]).toMatchObject({ action: 'member.add', target: 'new.person@alpha.example as viewer' });
  });

  it('refuses an invalid email with the API’s words and adds nobody', async () => {
    const before = await listMembers(orgA);
    const refused = await adminA.post('/dashboard/members', {
      action: 'invite',
      email: MARKUP,
      role: 'admin',
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('not an email address');
    expectInert(refused.text);
    expect(await listMembers(orgA)).toEqual(before);
  });

  it('changes a role and removes a member, each in the audit log', async () => {
    const promoted = await adminA.post('/dashboard/members', {
      action: 'role',
      email: 'new.person@alpha.example',
      role: 'admin',
    });
    expect(promoted.status).toBe(303);
    expect(promoted.headers.get('location')).toBe(`${stack.apiUrl}/dashboard/members?done=role`);
    expect(
      (await listMembers(orgA)).find((member) => member.email === 'new.person@alpha.example')?.role,
    ).toBe('admin');
    const removed = await adminA.post('/dashboard/members', {
      action: 'remove',
      email: 'new.person@alpha.example',
    });
    expect(removed.status).toBe(303);
    expect((await listMembers(orgA)).map((member) => member.email)).not.toContain('new.person@alpha.example');
    const { entries } = await readAuditLog(orgA, 5);
    expect(entries.slice(0, 2).map((entry) => [entry.action, entry.target])).toEqual([
      ['member.remove', 'new.person@alpha.example (admin)'],
      ['member.role', 'new.person@alpha.example: viewer → admin'],
    ]);
  });

  it('never removes or demotes the last admin (409), even when two admins demote each other at once', async () => {
    const orgC = (await createOrganization('Gamma Co')).orgId;
    const only = await dashboardClient(stack.apiUrl, {
      orgId: orgC,
      role: 'admin',
      email: 'only@gamma.example',
    });
    for (const fields of [
      { action: 'remove', email: 'only@gamma.example' } as Record<string, string>,
      { action: 'role', email: 'only@gamma.example', role: 'viewer' },
    ]) {
      const refused = await only.post('/dashboard/members', fields);
      expect(refused.status, fields.action).toBe(409);
      expect(refused.text).toContain('is the organization&#39;s only admin');
    }
    expect((await listMembers(orgC)).map((member) => member.role)).toEqual(['admin']);

    const second = await dashboardClient(stack.apiUrl, {
      orgId: orgC,
      role: 'admin',
      email: 'two@gamma.example',
    });
    const answers = await Promise.all([
      only.post('/dashboard/members', { action: 'role', email: 'two@gamma.example', role: 'viewer' }),
      second.post('/dashboard/members', { action: 'role', email: 'only@gamma.example', role: 'viewer' }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 409]);
    expect((await listMembers(orgC)).filter((member) => member.role === 'admin')).toHaveLength(1);
  });

  it('shows a viewer the members without a control, and refuses their forms (403) changing nothing', async () => {
    const page = await viewerA.get('/dashboard/members');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<form class="inline"');
    expect(page.text).not.toContain('Invite a member');
    const before = await listMembers(orgA);
    for (const fields of [
      { action: 'invite', email: 'sneak@alpha.example', role: 'admin' } as Record<string, string>,
      { action: 'role', email: 'vic@alpha.example', role: 'admin' },
      { action: 'remove', email: 'ada@alpha.example' },
    ]) {
      expect((await viewerA.post('/dashboard/members', fields)).status, fields.action).toBe(403);
    }
    expect(await listMembers(orgA)).toEqual(before);
  });
});

describe('provider connections', () => {
  it('shows the base URL and health, and replaces the key only with one the provider accepts', async () => {
    const page = await viewerA.get(`/dashboard/providers/${connectionOfA}`);
    expect(page.text).toContain(`API base URL: <code>${stack.providerApiUrls.smartlead}</code>`);
    expect(page.text).toContain('Health:');
    expect(page.text).not.toContain('Replace the key');
    const refused = await adminA.post(`/dashboard/providers/${connectionOfA}`, {
      action: 'rotate-key',
      api_key: 'not-a-key-of-any-workspace',
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.text).toContain('role="alert"');
    const fresh = await emulatedConnection(stack, 'smartlead', 'product-key-a2');
    const rotated = await adminA.post(`/dashboard/providers/${connectionOfA}`, {
      action: 'rotate-key',
      api_key: fresh.api_key,
    });
    expect(rotated.status).toBe(303);
    expect(rotated.headers.get('location')).toBe(
      `${stack.apiUrl}/dashboard/providers/${connectionOfA}?done=key-rotated`,
    );
    const { entries } = await readAuditLog(orgA, 1);
    expect(entries[0]).toMatchObject({
      action: 'provider.rotate-key',
      target: `connection ${connectionOfA}`,
    });
    expect(JSON.stringify(entries)).not.toContain(fresh.api_key);
  });
});

describe('forms of the new pages', () => {
  const FORMS: [string, Record<string, string>][] = [
    ['/dashboard/members', { action: 'invite', email: 'forged@alpha.example', role: 'admin' }],
    ['/dashboard/members', { action: 'role', email: 'vic@alpha.example', role: 'admin' }],
    ['/dashboard/members', { action: 'remove', email: 'vic@alpha.example' }],
    ['/dashboard/providers/CONNECTION', { action: 'rotate-key', api_key: 'forged-key' }],
  ];

  it('refuses a forged or missing CSRF token (403) and changes nothing', async () => {
    const before = { members: await listMembers(orgA), audit: (await readAuditLog(orgA, 50)).entries };
    for (const [path, fields] of FORMS) {
      const target = path.replace('CONNECTION', String(connectionOfA));
      for (const csrf of [null, 'forged-token', adminB.csrfToken]) {
        const answer = await adminA.post(target, fields, csrf);
        expect(answer.status, `${target} ${fields.action} ${csrf}`).toBe(403);
      }
    }
    expect(await listMembers(orgA)).toEqual(before.members);
    expect((await readAuditLog(orgA, 50)).entries).toEqual(before.audit);
  });

  it('has no form on the campaign pages (a GET search), so a post there is refused', async () => {
    expect((await adminA.post('/dashboard/campaigns/101', { action: 'anything' })).status).toBe(403);
  });
});

describe.runIf(hasChromium)('in Chromium', () => {
  let browser: Browser;
  const credentials: Record<'admin' | 'viewer', { email: string; oneTimePassword: string }> = {
    admin: { email: '', oneTimePassword: '' },
    viewer: { email: '', oneTimePassword: '' },
  };

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM });
    const directory = identityDirectory()!;
    for (const role of ['admin', 'viewer'] as const) {
      const added = await addMemberAtProvider({
        orgId: orgA,
        email: `browser-${role}@alpha.example`,
        role,
        actor: 'operator',
        directory,
      });
      credentials[role] = { email: added.member.email, oneTimePassword: added.oneTimePassword! };
    }
  });
  afterAll(async () => {
    await browser?.close();
  });

  const PAGES = [
    '/dashboard/campaigns',
    '/dashboard/campaigns/101',
    '/dashboard/campaigns/101?contact=501',
    '/dashboard/members',
    `/dashboard/providers/CONNECTION`,
  ];

  it.each(['admin', 'viewer'] as const)(
    'shows every new page to the %s at 390 and 1,366 px without sideways scroll or axe violation',
    async (role) => {
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      await signInForTheFirstTime(page, {
        apiUrl: stack.apiUrl,
        issuer: stack.openIdProvider!.issuer,
        member: credentials[role],
        newPassword: 'a-long-new-password-42',
      });
      for (const width of [1366, 390]) {
        await page.setViewportSize({ width, height: 900 });
        for (const path of PAGES) {
          const answer = await page.goto(
            `${stack.apiUrl}${path.replace('CONNECTION', String(connectionOfA))}`,
          );
          expect(answer?.status(), path).toBe(200);
          const sizes = await page.evaluate(() => {
            const { document, innerWidth } = globalThis as unknown as {
              document: { documentElement: { scrollWidth: number } };
              innerWidth: number;
            };
            return { scrollWidth: document.documentElement.scrollWidth, innerWidth };
          });
          expect(sizes.scrollWidth, `${path} at ${width}px`).toBeLessThanOrEqual(sizes.innerWidth);
          const violations = await axeViolations(page);
          expect(violations, `${path} at ${width}px: ${describeViolations(violations)}`).toEqual([]);
        }
      }
      if (role === 'viewer') {
        await page.goto(`${stack.apiUrl}/dashboard/members`);
        expect(await page.locator('main form').count()).toBe(0);
      }
      expect(problems).toEqual([]);
      await context.close();
    },
    // Ten pages, each with axe, in a browser on a loaded machine.
    120_000,
  );
});
