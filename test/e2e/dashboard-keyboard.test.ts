import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAVIGATION } from '#api/dashboard/layout.ts';
import { createApiKey, listApiKeys } from '#domain/api-keys.ts';
import { listMembers } from '#domain/members.ts';
import { createOrganization } from '#domain/organizations.ts';
import { sequenceLinkOf } from '#domain/sequence-links.ts';
import { identityDirectory } from '#platform/identity-directory.ts';
import { addMember } from '#use-cases/add-member.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { apiClient } from '../support/api-client.ts';
import { CHROMIUM, hasChromium, type InvitedMember, watchForProblems } from '../support/dashboard-browser.ts';
import { smallDocument } from '../support/fixtures.ts';
import { importFor } from '../support/import.ts';
import { startTestStack } from '../support/local-stack.ts';
import { emulatorControl } from '../support/provider-emulator-http.ts';
import { emulatedConnection } from '../support/provider-workspace.ts';

/**
 * The dashboard with a keyboard only (issue 38): an admin signs in at the
 * local OpenID provider, creates a read-only API key, links a sequence to a
 * provider campaign, approves a pending contact and invites a member, with
 * nothing but page.keyboard (Tab, Shift+Tab, Enter, Space, typing into the
 * focused field, arrow keys in a select): no click and no fill. On each page
 * it reaches, one pass of Tab must visit the skip link, the mark, the
 * navigation's tabs in their order and the account menu, then every control
 * of the page in document order, never losing focus to <body> and each time
 * with a visible focus indicator. One stack and one Chromium at 1,366 px;
 * the tests run in order, each carrying on from the last.
 */

const ADMIN_EMAIL = 'kim@keyboard-agency.example';
const NEW_PASSWORD = 'a-long-new-password-42';
const WORKSPACE_KEY = 'keyboard-smartlead-key';
/** The campaign at the Smartlead emulator the sequence is linked to (another is made, so the select must move). */
const TARGET_CAMPAIGN = 'Keyboard Fintech';
/** The pending-approval contact of smallDocument (campaign 101 "Fintech CFOs", sequence 201). */
const PENDING_EMAIL = 'bob@globex.io';
const INVITED_EMAIL = 'new.admin@keyboard-agency.example';

let stack: LocalStack;
let localDir: string;
let orgId: number;
let readWriteKey: string;
let connectionId: number;
let targetCampaignId: string;
let member: InvitedMember;
let browser: Browser;
let page: Page;
const problems: string[] = [];

/** The element that has focus, as a keyboard user meets it. */
interface Focused {
  /** Its role (ARIA's, or the one its tag implies), or 'body' when nothing has focus. */
  role: string;
  /** Its accessible name, as far as these pages need: aria-label, its label, or its text. */
  name: string;
  /** Whether it is in the page's <main> (the page's own controls) rather than its header. */
  inMain: boolean;
  /** Whether it shows it has focus: an outline or a box-shadow. */
  indicated: boolean;
}

/**
 * In the page: describes an element (the focused one, or each tabbable one). A function's source
 * evaluated in the page, since the tests' TypeScript has no DOM types.
 */
const DESCRIBE = `(element) => {
  if (!element || element === document.body || element === document.documentElement) {
    return { role: 'body', name: '', inMain: false, indicated: false };
  }
  const tag = element.tagName.toLowerCase();
  const type = (element.getAttribute('type') || '').toLowerCase();
  const implied =
    tag === 'a' ? 'link'
    : tag === 'button' ? 'button'
    : tag === 'select' ? 'combobox'
    : tag === 'summary' ? 'summary'
    : tag === 'textarea' ? 'textbox'
    : tag === 'input'
      ? type === 'checkbox' ? 'checkbox'
      : type === 'radio' ? 'radio'
      : type === 'number' ? 'spinbutton'
      : type === 'submit' || type === 'button' ? 'button'
      : 'textbox'
    : tag;
  const labelledBy = element.getAttribute('aria-labelledby');
  const name =
    element.getAttribute('aria-label') ||
    (labelledBy && document.getElementById(labelledBy)?.innerText) ||
    (element.labels && element.labels[0]?.innerText) ||
    (tag === 'select' || tag === 'input' ? '' : element.innerText) ||
    element.getAttribute('title') ||
    '';
  const style = getComputedStyle(element);
  const outlined = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
  return {
    role: element.getAttribute('role') || implied,
    name: name.replace(/\\s+/g, ' ').trim(),
    inMain: element.closest('main') !== null,
    indicated: outlined || style.boxShadow !== 'none',
  };
}`;

const focused = (on: Page): Promise<Focused> =>
  on.evaluate(`(${DESCRIBE})(document.activeElement)`) as Promise<Focused>;

/** Every element Tab should reach, in document order: focusable, in the tab order, enabled and shown. */
const tabbable = (on: Page): Promise<Focused[]> =>
  on.evaluate(`[...document.querySelectorAll('*')]
    .filter((element) =>
      element.tabIndex >= 0 &&
      (/^(A|BUTTON|INPUT|SELECT|TEXTAREA|SUMMARY)$/.test(element.tagName) || element.hasAttribute('tabindex')) &&
      !(element.tagName === 'A' && !element.hasAttribute('href')) &&
      !element.disabled &&
      element.checkVisibility({ visibilityProperty: true }))
    .map((element) => ({ ...(${DESCRIBE})(element), indicated: true }))`) as Promise<Focused[]>;

const describeFocus = (each: Focused) => `${each.role} "${each.name}"`;

type Matcher = { role: string; name: string | RegExp };

const matches = (each: Focused, matcher: Matcher) =>
  each.role === matcher.role &&
  (typeof matcher.name === 'string' ? each.name === matcher.name : matcher.name.test(each.name));

/**
 * Presses Tab (Shift+Tab `backwards`) until the focused element matches, at most `limit` times: fails
 * with the elements focused on the way, and at once when focus falls to <body> or shows no indicator.
 */
async function tabTo(on: Page, matcher: Matcher, options: { backwards?: boolean; limit?: number } = {}) {
  const { backwards = false, limit = 60 } = options;
  const seen: Focused[] = [];
  for (let press = 0; press < limit; press++) {
    await on.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    const now = await focused(on);
    seen.push(now);
    const path = seen.map(describeFocus).join(' → ');
    expect(
      now.role,
      `focus lost to <body> on the way to ${matcher.role} "${matcher.name}": ${path}`,
    ).not.toBe('body');
    expect(now.indicated, `no focus indicator on ${describeFocus(now)}`).toBe(true);
    if (matches(now, matcher)) return;
  }
  expect.fail(
    `${matcher.role} "${matcher.name}" not reached in ${limit} presses: ${seen.map(describeFocus).join(' → ')}`,
  );
}

/** Presses the arrow key in the focused select until its selected option's text matches, at most 20 times. */
async function chooseOption(on: Page, option: RegExp) {
  const selected = () =>
    on.evaluate('document.activeElement.selectedOptions[0]?.textContent ?? ""') as Promise<string>;
  for (const key of ['ArrowDown', 'ArrowUp'] as const) {
    for (let press = 0; press < 20 && !option.test(await selected()); press++) await on.keyboard.press(key);
  }
  expect(await selected()).toMatch(option);
}

/**
 * From the top of a freshly loaded page, one pass of Tab through every control: the skip link first, the
 * mark, the navigation's tabs in their order, the account menu, then the page's own controls in document
 * order; focus is never lost to <body> and always shows. Focus is left on the page's last control.
 */
async function walkThroughPage(on: Page, where: string) {
  // The script adds controls (copy buttons, "select all"): a page reached by a form may not have run it yet.
  await on.waitForLoadState('load');
  const expected = await tabbable(on);
  const walked: Focused[] = [];
  for (let press = 0; press < expected.length; press++) {
    await on.keyboard.press('Tab');
    walked.push(await focused(on));
  }
  const list = walked.map(describeFocus).join(' → ');
  expect(
    walked.map(({ role, name }) => ({ role, name })),
    `${where}: the order Tab follows`,
  ).toEqual(expected.map(({ role, name }) => ({ role, name })));
  expect(walked.slice(0, NAVIGATION.length + 3).map(describeFocus), `${where}: the header's order`).toEqual([
    'link "Skip to content"',
    'link "Outreach"',
    ...NAVIGATION.map((entry) => `link "${entry.name}"`),
    expect.stringMatching(/^summary "Keyboard Agency \(admin\)"$/),
  ]);
  expect(
    walked.slice(NAVIGATION.length + 3).every((each) => each.inMain),
    `${where}: the page's controls after the header: ${list}`,
  ).toBe(true);
  expect(walked.length, `${where}: the page has controls of its own: ${list}`).toBeGreaterThan(
    NAVIGATION.length + 3,
  );
  expect(
    walked.filter((each) => each.role === 'body' || !each.indicated).map(describeFocus),
    `${where}: focus lost or not shown: ${list}`,
  ).toEqual([]);
}

/** Tabs to a navigation tab from the top of the page and follows it with Enter. */
async function openByKeyboard(on: Page, name: string, path: string) {
  // Back to the top: the skip link is the first stop, so Shift+Tab from anywhere reaches it.
  await tabTo(on, { role: 'link', name: 'Skip to content' }, { backwards: true, limit: 200 });
  await tabTo(on, { role: 'link', name });
  await on.keyboard.press('Enter');
  await on.waitForURL(`${stack.apiUrl}${path}`);
  await on.getByRole('heading', { level: 1, name }).waitFor();
}

/** The text of the page's notice (`role=status`) that matches. */
async function noticeText(on: Page, text: RegExp): Promise<string> {
  const notice = on.getByRole('status').filter({ hasText: text });
  await notice.waitFor();
  return notice.innerText();
}

beforeAll(async () => {
  if (!hasChromium) return;
  localDir = mkdtempSync(join(tmpdir(), 'dashboard-keyboard-'));
  stack = await startTestStack({ endpointsDir: localDir, openIdProvider: true });
  ({ orgId } = await createOrganization('Keyboard Agency'));
  await importFor(orgId, smallDocument());
  ({ apiKey: readWriteKey } = await createApiKey(orgId));
  // A Smartlead connection at the emulator with two campaigns there, made before the page first lists
  // them (a listing is kept a minute); sequence 201 of the import is not linked yet.
  const connected = await apiClient(stack, readWriteKey).post(
    '/provider-connections',
    await emulatedConnection(stack, 'smartlead', WORKSPACE_KEY),
  );
  expect(connected.status, connected.text).toBe(200);
  connectionId = connected.body.id;
  const control = emulatorControl(() => stack.providerApiUrls.smartlead);
  await control('POST', '/campaigns', { apiKey: WORKSPACE_KEY, name: 'Keyboard Warm-up' });
  targetCampaignId = String(
    (
      await control<{ id: string | number }>('POST', '/campaigns', {
        apiKey: WORKSPACE_KEY,
        name: TARGET_CAMPAIGN,
      })
    ).id,
  );
  const added = await addMember({
    orgId,
    email: ADMIN_EMAIL,
    role: 'admin',
    actor: 'operator',
    directory: identityDirectory()!,
  });
  member = { email: added.member.email, oneTimePassword: added.oneTimePassword! };
  browser = await chromium.launch({ executablePath: CHROMIUM });
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  page = await context.newPage();
  watchForProblems(page, problems, 'admin');
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  if (localDir) rmSync(localDir, { recursive: true, force: true });
});

describe.skipIf(!hasChromium)('the dashboard with a keyboard only, at 1,366 px', () => {
  it('signs in at the local OpenID provider, choosing a new password, onto the overview', async () => {
    // Act: the provider's sign-in page, then its new-password page.
    await page.goto(`${stack.apiUrl}/dashboard`);
    await page.waitForURL((url) => url.origin === stack.openIdProvider!.issuer);
    await page.getByLabel('Email').waitFor();
    await tabTo(page, { role: 'textbox', name: 'Email' });
    await page.keyboard.type(member.email);
    await tabTo(page, { role: 'textbox', name: 'Password' });
    await page.keyboard.type(member.oneTimePassword);
    await page.keyboard.press('Enter');
    await page.getByLabel('New password', { exact: true }).waitFor();
    await tabTo(page, { role: 'textbox', name: /^New password/ });
    await page.keyboard.type(NEW_PASSWORD);
    await tabTo(page, { role: 'textbox', name: /^Confirm new password/ });
    await page.keyboard.type(NEW_PASSWORD);
    await page.keyboard.press('Enter');

    // Assess: signed in, on the overview, whose controls Tab reaches in order.
    await page.waitForURL(`${stack.apiUrl}/dashboard`);
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await walkThroughPage(page, 'overview');
  });

  it('creates a read-only API key from the API keys tab', async () => {
    // Act
    await openByKeyboard(page, 'API keys', '/dashboard/api-keys');
    await walkThroughPage(page, 'api-keys');
    await tabTo(page, { role: 'textbox', name: 'Name' }, { backwards: true });
    await page.keyboard.type('Keyboard reporting');
    await tabTo(page, { role: 'combobox', name: 'Scope' });
    await chooseOption(page, /^Read only/);
    await tabTo(page, { role: 'button', name: 'Create key' });
    await page.keyboard.press('Enter');

    // Assess: the secret shown once, a read-only key in the organization, which reads.
    const secret = page.locator('#new-secret');
    await secret.waitFor();
    const apiKey = (await secret.innerText()).trim();
    expect(apiKey).toMatch(new RegExp(`^${orgId}\\.`));
    expect((await listApiKeys(orgId)).find((key) => key.name === 'Keyboard reporting')).toMatchObject({
      scope: 'read',
    });
    expect((await apiClient(stack, apiKey).get('/campaigns')).status).toBe(200);
    await walkThroughPage(page, 'api-keys (secret shown)');
  });

  it('links a sequence to a provider campaign on the connection’s page', async () => {
    // Act: Providers, the connection, its sequence 201.
    await openByKeyboard(page, 'Providers', '/dashboard/providers');
    await walkThroughPage(page, 'providers');
    await tabTo(page, { role: 'link', name: `Smartlead connection ${connectionId}` }, { backwards: true });
    await page.keyboard.press('Enter');
    await page.waitForURL(`${stack.apiUrl}/dashboard/providers/${connectionId}`);
    await page.getByRole('heading', { level: 2, name: `Smartlead connection ${connectionId}` }).waitFor();
    await walkThroughPage(page, 'provider connection');
    await tabTo(page, { role: 'combobox', name: 'Provider campaign of sequence 201' }, { backwards: true });
    await chooseOption(page, new RegExp(`^${TARGET_CAMPAIGN} \\(`));
    await tabTo(page, { role: 'button', name: 'Link' });
    await page.keyboard.press('Enter');

    // Assess: the page says so, and the sequence is linked to that campaign on this connection.
    expect(await noticeText(page, /^The sequence is linked/)).toMatch(/^The sequence is linked/);
    expect(await sequenceLinkOf(orgId, 201)).toMatchObject({ externalId: targetCampaignId, connectionId });
    await walkThroughPage(page, 'provider connection (linked)');
  });

  it('approves the pending contact of a campaign chosen on the Approvals page', async () => {
    const pendingOf101 = async () =>
      (await apiClient(stack, readWriteKey).get('/campaigns/101')).body.contacts.pending_approval;
    expect(await pendingOf101()).toBe(1);

    // Act: choose the campaign, show it, select the contact, approve.
    await openByKeyboard(page, 'Approvals', '/dashboard/approvals');
    await walkThroughPage(page, 'approvals');
    await tabTo(page, { role: 'combobox', name: 'Campaign' }, { backwards: true, limit: 200 });
    await chooseOption(page, /^Fintech CFOs$/);
    await tabTo(page, { role: 'button', name: 'Show' });
    await page.keyboard.press('Enter');
    await page.waitForURL(`${stack.apiUrl}/dashboard/approvals?campaign=101`);
    await walkThroughPage(page, 'approvals of campaign 101');
    await tabTo(page, { role: 'checkbox', name: `Select ${PENDING_EMAIL}` }, { backwards: true });
    await page.keyboard.press('Space');
    await tabTo(page, { role: 'button', name: 'Approve selected' });
    await page.keyboard.press('Enter');

    // Assess
    expect(await noticeText(page, /^Approved/)).toBe('Approved 1; skipped 0.');
    expect(await pendingOf101()).toBe(0);
  });

  it('invites a member with a role, and sees their one-time password once', async () => {
    // Act
    await openByKeyboard(page, 'Members', '/dashboard/members');
    await walkThroughPage(page, 'members');
    await tabTo(page, { role: 'textbox', name: 'Email' }, { backwards: true });
    await page.keyboard.type(INVITED_EMAIL);
    await tabTo(page, { role: 'combobox', name: 'Role' });
    await chooseOption(page, /^Admin$/);
    await tabTo(page, { role: 'button', name: 'Invite' });
    await page.keyboard.press('Enter');

    // Assess: the notice and the password, the member in the organization, and the password not shown again.
    expect(await noticeText(page, /is a member as/)).toContain(`${INVITED_EMAIL} is a member as admin.`);
    expect((await page.locator('#one-time-password').innerText()).trim()).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect((await listMembers(orgId)).find((each) => each.email === INVITED_EMAIL)).toMatchObject({
      role: 'admin',
      addedBy: ADMIN_EMAIL,
    });
    await walkThroughPage(page, 'members (password shown)');
    await openByKeyboard(page, 'Members', '/dashboard/members');
    expect(await page.locator('#one-time-password').count()).toBe(0);

    // No page logged an error or a CSP violation along the way.
    expect(problems).toEqual([]);
  });
});
