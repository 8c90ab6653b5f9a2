import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '#api/openapi/document.ts';
import { routes } from '#definitions/routes.ts';
import { createApiKey } from '#domain/api-keys.ts';
import { createOrganization } from '#domain/organizations.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { PROJECT_ROOT } from '../../infra/paths.ts';
import {
  type AxeViolation,
  axeViolations,
  blocking,
  describeViolations,
} from '../support/dashboard-browser.ts';
import { startTestStack } from '../support/local-stack.ts';

/**
 * The reference page at GET /docs in a real browser: headless Chromium
 * (Debian's `chromium` package, driven by playwright-core) opens it on the
 * local stack, finds every operation of the manifest, authorizes with an API
 * key typed into the page and runs one "Try it out" call. Screenshots go to
 * test-results/docs-browser/. Where Chromium is missing (.ci/run installs it
 * when it can), these tests are skipped and the run says why.
 */

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = resolve(PROJECT_ROOT, 'test-results/docs-browser');
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(
    `docs-browser: ${CHROMIUM} is missing, so the reference page is not tested in a browser (install Debian's chromium package; .ci/run does when it runs as root)`,
  );
}

let stack: LocalStack;
let apiKey: string;
let browser: Browser;
let page: Page;
/** What the page reported as broken: script errors, failed loads, CSP violations. */
const pageErrors: string[] = [];
/** axe-core's violations (of any impact) in each state of the page checked. */
const axeResults = new Map<string, AxeViolation[]>();

/** Runs axe-core on the page as it is now, kept for the test that holds them all to none serious or critical. */
async function checkAccessibility(state: string): Promise<void> {
  axeResults.set(state, await axeViolations(page));
}

beforeAll(async () => {
  if (!hasChromium) return;
  stack = await startTestStack();
  const { orgId } = await createOrganization('Docs Inc');
  ({ apiKey } = await createApiKey(orgId));
  browser = await chromium.launch({ executablePath: CHROMIUM });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  page.on('requestfailed', (request) => pageErrors.push(`${request.url()}: ${request.failure()?.errorText}`));
  await page.goto(`${stack.apiUrl}/docs`);
  await page.locator('.opblock').first().waitFor();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe.skipIf(!hasChromium)('the API reference page in Chromium', () => {
  it('renders the document, served by the stack, with its title and version', async () => {
    await expect(page.locator('.info .title').textContent()).resolves.toContain(
      'Outreach Campaign Public API',
    );
    expect((await page.locator('.info .title .version').first().textContent())?.trim()).toBe('1.0.0');
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: resolve(SCREENSHOTS, 'reference-page.png'), fullPage: true });
    await checkAccessibility('as loaded');
  });

  it('shows an operation for every route of the manifest, and every webhook', async () => {
    const shown = await page
      .locator('.opblock-summary')
      .evaluateAll((summaries) =>
        summaries.map(
          (summary) =>
            `${summary.querySelector('.opblock-summary-method')?.textContent} ${summary.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
        ),
      );
    const document = openApiDocument(stack.apiUrl);
    const expected = [
      ...routes.flatMap((route) =>
        Object.keys(document.paths[route.path] ?? {})
          .filter((method) => route.method === 'ANY' || method === route.method.toLowerCase())
          .map((method) => `${method.toUpperCase()} ${route.path}`),
      ),
      ...Object.keys(document.webhooks).map((type) => `POST ${type}`),
    ];
    expect([...shown].sort()).toEqual([...expected].sort());
  });

  it('runs "Try it out" with the API key typed into Authorize', async () => {
    await page.locator('.auth-wrapper button.authorize').click();
    const apiKeyScheme = page.locator('.auth-container', { hasText: 'x-api-key' });
    await apiKeyScheme.getByLabel('Value:').fill(apiKey);
    await checkAccessibility('the Authorize dialog');
    await apiKeyScheme.getByRole('button', { name: 'Authorize', exact: true }).click();
    await apiKeyScheme.getByRole('button', { name: 'Close' }).click();

    const operation = page.locator('#operations-Auth-auth');
    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    const [request] = await Promise.all([
      page.waitForRequest((candidate) => candidate.url() === `${stack.apiUrl}/public/v1/auth`),
      operation.getByRole('button', { name: 'Execute' }).click(),
    ]);
    expect(request.headers()['x-api-key']).toBe(apiKey);
    const response = operation.locator('.live-responses-table .response');
    await expect(response.locator('.response-col_status').first().textContent()).resolves.toContain('200');
    await expect
      .poll(() => response.locator('.microlight').first().textContent())
      .toContain('"signed_in": true');
    await checkAccessibility('an operation tried out');
    await operation.scrollIntoViewIfNeeded();
    await operation.screenshot({ path: resolve(SCREENSHOTS, 'try-it-out.png') });
  });

  it('has no serious or critical axe violation in any state checked', () => {
    expect([...axeResults.keys()]).toEqual(['as loaded', 'the Authorize dialog', 'an operation tried out']);
    const refused = [...axeResults].flatMap(([state, violations]) =>
      blocking(violations).map((violation) => ({ ...violation, help: `${violation.help} (${state})` })),
    );
    expect(refused, describeViolations(refused)).toEqual([]);
  });

  it('loads without a script error, a failed request or a CSP violation', () => {
    expect(pageErrors).toEqual([]);
  });
});
