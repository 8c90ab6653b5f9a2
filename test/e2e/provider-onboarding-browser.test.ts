import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization } from '#domain/organizations.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { admin } from '../support/cli.ts';
import {
  CHROMIUM,
  hasChromium,
  type InvitedMember,
  screenshot,
  signInForTheFirstTime,
  watchForProblems,
} from '../support/dashboard-browser.ts';
import { importFor } from '../support/import.ts';
import { startTestStack } from '../support/local-stack.ts';
import { waitFor } from '../support/wait.ts';

/**
 * An organization sets Smartlead up by itself (issue: providers connected and
 * linked without an operator). Once the organization exists with its
 * campaigns (the operator's import, as for any organization) and its admin is
 * invited, everything else is the admin's, in Chromium and through the API:
 * sign in at the local OpenID provider, create a read-write API key, connect
 * Smartlead on the Providers page (a wrong key is refused with the provider's
 * answer and nothing is stored; the right one connects), pick the provider's
 * campaign for the Smartlead sequence on the connection's page, push contacts
 * with the key, and see each lead turn `enrolled` as Smartlead confirms it,
 * one after another. Smartlead here is its local emulator, a real HTTP
 * server speaking Smartlead's documented API; the admin's Smartlead account
 * (a workspace with its key and a campaign) is made at the emulator, as a
 * customer's exists at Smartlead before they connect it.
 */

if (!hasChromium) {
  console.warn(
    `provider-onboarding-browser: ${CHROMIUM} is missing, so the onboarding is not tested in a browser`,
  );
}

const ADMIN_EMAIL = 'olga@self-serve.example';
const NEW_PASSWORD = 'an-onboarding-password-7';
const SMARTLEAD_KEY = 'self-serve-smartlead-key';
const CAMPAIGN_ID = 301;
const SEQUENCE_ID = 401;
const LEADS = 10;

let stack: LocalStack;
let localDir: string;
let orgId: number;
let member: InvitedMember;
let browser: Browser;
let page: Page;
const problems: string[] = [];
/** What the admin made along the way, for the next steps. */
const made: { apiKey?: string; connectionId?: number; providerCampaignId?: string } = {};

async function smartleadEmulator(method: 'GET' | 'POST', path: string, body?: unknown) {
  const response = await fetch(new URL(`/_emulator/${path}`, stack.providerApiUrls.smartlead), {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.ok, text).toBe(true);
  return JSON.parse(text) as Record<string, unknown>;
}

async function openPage(name: string, path: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name, exact: true }).click();
  await page.waitForURL(`${stack.apiUrl}${path}`);
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

async function tableRows(caption: string | RegExp): Promise<string[][]> {
  const table = page.getByRole('table').filter({ has: page.locator('caption', { hasText: caption }) });
  const rows = await table.locator('tbody tr').all();
  return Promise.all(rows.map((row) => row.locator('th, td').allInnerTexts()));
}

function api(method: string, path: string, body?: unknown) {
  return fetch(`${stack.apiUrl}/public/v1${path}`, {
    method,
    headers: {
      'x-api-key': made.apiKey!,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

beforeAll(async () => {
  if (!hasChromium) return;
  localDir = mkdtempSync(join(tmpdir(), 'provider-onboarding-'));
  stack = await startTestStack({ endpointsDir: localDir, openIdProvider: true });
  // The operator's part: the organization, its campaign with a Smartlead sequence, its admin invited.
  ({ orgId } = await createOrganization('Self Serve Agency'));
  await importFor(orgId, {
    campaigns: [
      {
        id: CAMPAIGN_ID,
        name: 'Growth leaders',
        sequences: [
          {
            id: SEQUENCE_ID,
            provider: 'smartlead',
            channel: 'email',
            steps: [{ type: 'email', variants: [{ subject: 'Hi {{opener}}', body: 'Hello' }] }],
          },
        ],
      },
    ],
  });
  const invited = await admin(localDir, [
    'member',
    'add',
    '--org',
    String(orgId),
    '--email',
    ADMIN_EMAIL,
    '--role',
    'admin',
    '--json',
  ]);
  expect(invited.code, invited.stderr).toBe(0);
  const added = JSON.parse(invited.stdout) as { email: string; oneTimePassword: string };
  member = { email: added.email, oneTimePassword: added.oneTimePassword };
  // The organization's own Smartlead account: a workspace with its key and a campaign.
  await smartleadEmulator('POST', 'workspaces', { apiKey: SMARTLEAD_KEY });
  made.providerCampaignId = (
    await smartleadEmulator('POST', 'campaigns', { apiKey: SMARTLEAD_KEY, name: 'Growth leaders Q1' })
  ).id as string;
  browser = await chromium.launch({ executablePath: CHROMIUM });
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  watchForProblems(page, problems, 'admin');
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  if (localDir) rmSync(localDir, { recursive: true, force: true });
});

describe.skipIf(!hasChromium)('an organization connects Smartlead and links its sequence by itself', () => {
  it('signs its admin in and creates a read-write API key', async () => {
    // Act
    await signInForTheFirstTime(page, {
      apiUrl: stack.apiUrl,
      issuer: stack.openIdProvider!.issuer,
      member,
      newPassword: NEW_PASSWORD,
    });
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await openPage('API keys', '/dashboard/api-keys');
    await page.getByLabel('Name').fill('Pushes');
    await page.getByLabel('Scope').selectOption('read-write');
    await page.getByRole('button', { name: 'Create key' }).click();

    // Assess
    const secret = page.locator('#new-secret');
    await secret.waitFor();
    made.apiKey = (await secret.innerText()).trim();
    expect(made.apiKey).toMatch(new RegExp(`^${orgId}\\.`));
  });

  it('is refused a wrong Smartlead key with the provider’s answer, storing nothing, then connects the right one', async () => {
    // Act: a wrong key.
    await openPage('Providers', '/dashboard/providers');
    await page.getByLabel('Provider', { exact: true }).selectOption('smartlead');
    await page.getByLabel('The provider’s API key').fill('wrong-key');
    await page
      .getByLabel('API base URL (empty: the provider’s public API)')
      .fill(stack.providerApiUrls.smartlead);
    await page.getByRole('button', { name: 'Connect' }).click();

    // Assess: Smartlead's refusal on the page, and no connection.
    const refusal = page.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.innerText()).toContain('Smartlead refused this API key (401)');
    const none = await api('GET', '/provider-connections');
    expect(none.status).toBe(200);
    expect(((await none.json()) as { connections: unknown[] }).connections).toEqual([]);

    // Act: the right key.
    await openPage('Providers', '/dashboard/providers');
    await page.getByLabel('Provider', { exact: true }).selectOption('smartlead');
    await page.getByLabel('The provider’s API key').fill(SMARTLEAD_KEY);
    await page
      .getByLabel('API base URL (empty: the provider’s public API)')
      .fill(stack.providerApiUrls.smartlead);
    await page.getByRole('button', { name: 'Connect' }).click();

    // Assess: on the connection's page, connected.
    await page.getByRole('status').filter({ hasText: 'The provider is connected' }).waitFor();
    made.connectionId = Number(/\/dashboard\/providers\/(\d+)(?:\?|$)/.exec(page.url())?.[1]);
    expect(made.connectionId).toBeGreaterThan(0);
    const listed = await api('GET', `/provider-connections/${made.connectionId}`);
    expect(await listed.json()).toMatchObject({ id: made.connectionId, provider: 'smartlead', status: 'ok' });
    await screenshot(page, 'provider-connected');
  });

  it('picks the provider’s campaign for its Smartlead sequence on the connection’s page', async () => {
    // Act
    const picker = page.getByLabel(`Provider campaign of sequence ${SEQUENCE_ID}`);
    const offered = await picker.locator('option').allInnerTexts();
    await picker.selectOption(made.providerCampaignId!);
    await page
      .getByRole('row')
      .filter({ has: picker })
      .getByRole('button', { name: 'Link', exact: true })
      .click();

    // Assess: the campaign was offered by name, the sequence is linked there, and the API says so.
    expect(offered).toEqual([expect.stringContaining(`Growth leaders Q1 (${made.providerCampaignId}`)]);
    await page.getByRole('status').filter({ hasText: 'The sequence is linked' }).waitFor();
    const rows = await tableRows(/sequences of the organization/);
    expect(rows.find((row) => row[1] === `Sequence ${SEQUENCE_ID}`)?.[2]).toContain(made.providerCampaignId);
    const link = await api('GET', `/sequences/${SEQUENCE_ID}/provider-link`);
    expect(link.status).toBe(200);
    expect(await link.json()).toMatchObject({
      sequence_id: SEQUENCE_ID,
      campaign_id: CAMPAIGN_ID,
      connection_id: made.connectionId,
      provider: 'smartlead',
      provider_campaign_id: made.providerCampaignId,
    });
    await screenshot(page, 'provider-linked');
  });

  it('pushes contacts through the API and sees each lead become enrolled one by one', async () => {
    // Act
    const pushed = await api('POST', `/campaigns/${CAMPAIGN_ID}/raw/contacts`, {
      contacts: Array.from({ length: LEADS }, (_, index) => ({
        email: `lead${index}@self-serve-leads.example`,
        firstName: `Lead${index}`,
        companyName: `Company ${index}`,
      })),
      sequenceId: SEQUENCE_ID,
      triggerIntake: true,
    });
    expect(pushed.status).toBe(200);
    const { assignmentIds } = (await pushed.json()) as { assignmentIds: number[] };
    expect(assignmentIds).toHaveLength(LEADS);

    // Assess: the number enrolled at each poll, until all are; some poll saw some but not all.
    const counts: number[] = [];
    await waitFor(
      async () => {
        const listed = await api('GET', `/campaigns/${CAMPAIGN_ID}/contacts?take=100`);
        const body = (await listed.json()) as {
          data: { assignment_id: number; enrollment: { status: string } | null }[];
        };
        const statuses = assignmentIds.map(
          (id) => body.data.find((each) => each.assignment_id === id)?.enrollment?.status,
        );
        expect(statuses.filter((status) => status === 'failed')).toEqual([]);
        const enrolled = statuses.filter((status) => status === 'enrolled').length;
        counts.push(enrolled);
        return enrolled === LEADS;
      },
      { what: `the ${LEADS} Smartlead leads to be enrolled`, intervalMs: 100 },
    );
    expect(
      counts.some((count) => count > 0 && count < LEADS),
      String(counts),
    ).toBe(true);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    const { leads } = (await smartleadEmulator(
      'GET',
      `leads?apiKey=${SMARTLEAD_KEY}&campaignId=${encodeURIComponent(made.providerCampaignId!)}`,
    )) as { leads: unknown[] };
    expect(leads).toHaveLength(LEADS);
  });

  it('logged no console error, script error or failed request', () => {
    // The refused connection answers 400 with its page, which Chromium reports as a failed resource load.
    expect(problems.filter((problem) => !/status of 400/.test(problem))).toEqual([]);
  });
});
