import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { NAVIGATION } from '#api/dashboard/layout.ts';
import { PROJECT_ROOT } from '../../infra/paths.ts';

/**
 * Helpers of the dashboard's browser tests (test/e2e/dashboard-browser.test.ts):
 * headless Chromium (Debian's `chromium`, driven by playwright-core, as
 * docs-browser.test.ts does), what a page reports as broken, axe-core run in
 * the page, the real sign-in at the local OpenID provider, and screenshots.
 */

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** Where screenshots go: docs/dashboard/ with UPDATE_SCREENSHOTS=1 (the docs' images), else test-results. */
export const SCREENSHOTS =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? resolve(PROJECT_ROOT, 'docs/dashboard')
    : resolve(PROJECT_ROOT, 'test-results/dashboard');

/** The widths every page must work at: a phone (390 px) and a laptop (1,366 px). */
export const WIDTHS = [1366, 390] as const;

/** A page the browser tests visit, check and photograph: its name (of the screenshot) and path. */
export interface DashboardPageVisit {
  name: string;
  path: string;
}

/** The items the tests made, whose pages (sub-pages of the navigation's) are visited too. */
export interface MadeItems {
  webhookId: number;
  connectionId: number;
  campaignId: number;
  /** An assignment of the campaign, whose message thread the campaign page opens. */
  assignmentId: number;
}

/**
 * Every page of the dashboard, in one place: each page of the navigation
 * (layout.ts NAVIGATION, so a page added there is visited, checked and
 * photographed with no change here) and the sub-pages listed below. A
 * screenshot is `<name>-<width>.png`.
 */
export function dashboardPages(made: MadeItems): DashboardPageVisit[] {
  const SUB_PAGES: DashboardPageVisit[] = [
    { name: 'webhook', path: `/dashboard/webhooks/${made.webhookId}` },
    { name: 'provider', path: `/dashboard/providers/${made.connectionId}` },
    { name: 'campaign', path: `/dashboard/campaigns/${made.campaignId}` },
    { name: 'contact', path: `/dashboard/campaigns/${made.campaignId}?contact=${made.assignmentId}` },
  ];
  return [
    ...NAVIGATION.map((entry) => ({
      name: entry.path || 'overview',
      path: `/dashboard${entry.path ? `/${entry.path}` : ''}`,
    })),
    ...SUB_PAGES,
  ];
}

/** Whether the page scrolls sideways at its width: a table or header too wide for it does. */
export const scrollsSideways = (page: Page): Promise<boolean> =>
  page.evaluate(() => {
    const { document, innerWidth } = globalThis as unknown as {
      document: { documentElement: { scrollWidth: number } };
      innerWidth: number;
    };
    return document.documentElement.scrollWidth > innerWidth;
  });

/** A full-page screenshot `<name>.png` in SCREENSHOTS. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: resolve(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/**
 * Collects into `problems` what a page reports as broken: console errors
 * (Chromium reports a CSP violation there), uncaught script errors, and
 * requests that failed (a blocked load among them).
 */
export function watchForProblems(page: Page, problems: string[], who: string): void {
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`${who} console on ${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`${who} page error on ${page.url()}: ${error.message}`));
  page.on('requestfailed', (request) =>
    problems.push(`${who} request failed: ${request.url()}: ${request.failure()?.errorText}`),
  );
}

/** One axe-core rule a page breaks, and where. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** axe-core's API (the page's global `axe`, once injected), as the package types it. */
type AxeInPage = typeof import('axe-core');

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core on the page as it is and answers its violations. The script
 * is evaluated in the page (the DevTools protocol is not held to the page's
 * CSP), not added as a `<script>`, which the dashboard's strict CSP refuses,
 * as it should.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const { axe } = globalThis as unknown as { axe: AxeInPage };
    // Only violations are read: axe then keeps one node of each other result type instead of every
    // one (its documented `resultTypes` option), and every rule still runs on every node. The dashboard
    // file's renderer CPU went from 44 s to 39 s.
    const results = await axe.run({ resultTypes: ['violations'] });
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? null,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.map(String).join(' ')),
    }));
  });
}

/** The violations a page may not have: serious and critical ones. */
export const blocking = (violations: readonly AxeViolation[]): AxeViolation[] =>
  violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');

/** The violations for an assertion's message, one line each. */
export const describeViolations = (violations: readonly AxeViolation[]): string =>
  violations
    .map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help} at ${violation.targets.join(', ')}`,
    )
    .join('\n');

/** A member added by `outreach-admin member add`, with the one-time password it printed. */
export interface InvitedMember {
  email: string;
  oneTimePassword: string;
}

/**
 * Signs a new member in for the first time, as a person does: the dashboard
 * sends the browser to the local OpenID provider's sign-in page, the
 * one-time password leads to the "Choose a new password" page, and setting
 * one ends at the client, which opens the session and lands on `landing`
 * (null: the test waits for what it stopped the sign-in at itself).
 * `atProvider` is called on each of the provider's pages (to check and
 * photograph it) before it is filled in.
 */
export async function signInForTheFirstTime(
  page: Page,
  options: {
    apiUrl: string;
    issuer: string;
    member: InvitedMember;
    newPassword: string;
    landing?: string | null;
    atProvider?: (step: 'sign-in' | 'new-password') => Promise<void>;
  },
): Promise<void> {
  const { apiUrl, issuer, member, newPassword } = options;
  await page.goto(`${apiUrl}/dashboard`);
  await page.waitForURL((url) => url.origin === issuer);
  await page.getByLabel('Email').waitFor();
  await options.atProvider?.('sign-in');
  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password', { exact: true }).fill(member.oneTimePassword);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await page.getByLabel('New password', { exact: true }).waitFor();
  await options.atProvider?.('new-password');
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Set password' }).click();
  const { landing = '/dashboard' } = options;
  if (landing !== null) await page.waitForURL(`${apiUrl}${landing}`);
}
