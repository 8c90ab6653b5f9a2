import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_ONLY_KEY_MESSAGE } from '#api/http/endpoint.ts';
import { createApiKey } from '#domain/api-keys.ts';
import { createOrganization } from '#domain/organizations.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { PROJECT_ROOT } from '../../infra/paths.ts';
import { apiClient } from '../support/api-client.ts';
import { admin } from '../support/cli.ts';
import {
  type AxeViolation,
  axeViolations,
  blocking,
  CHROMIUM,
  dashboardPages,
  describeViolations,
  hasChromium,
  type InvitedMember,
  screenshot,
  scrollsSideways,
  signInForTheFirstTime,
  WIDTHS,
  watchForProblems,
} from '../support/dashboard-browser.ts';
import { smallDocument } from '../support/fixtures.ts';
import { importFor } from '../support/import.ts';
import { startTestStack } from '../support/local-stack.ts';
import { countRequests } from '../support/request-counter.ts';
import { waitFor } from '../support/wait.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * The organization dashboard in headless Chromium, from a real sign-in at
 * the local OpenID provider (a one-time password, then a new one): an admin
 * creates, uses and revokes an API key, subscribes a webhook and sees its
 * test delivery, connects an AI assistant through the consent page (dynamic
 * client registration, PKCE, refresh), approves a pending contact that is
 * then enrolled at the Smartlead emulator, changes a setting and finds it
 * all in the audit log; a viewer sees every page without a control that
 * changes anything. axe-core runs on every page (no serious or critical
 * violation), and no page may log an error or a CSP violation. The HTTP-level
 * rules (CSRF, roles, sessions, tenant isolation) are dashboard.test.ts.
 *
 * The tests share one stack and one browser and run in order: each carries
 * on from the state the previous one left. Screenshots go to
 * test-results/dashboard/, or to docs/dashboard/ with UPDATE_SCREENSHOTS=1.
 */

if (!hasChromium) {
  console.warn(
    `dashboard-browser: ${CHROMIUM} is missing, so the dashboard is not tested in a browser (install Debian's chromium package; .ci/run does when it runs as root)`,
  );
}

const ADMIN_EMAIL = 'ada@browser-agency.example';
const VIEWER_EMAIL = 'vic@browser-agency.example';
const NEW_PASSWORD = 'a-long-new-password-42';
const WORKSPACE_KEY = 'browser-smartlead-key';
/** The pending-approval contact of smallDocument (assignment 502 of campaign 101, sequence 201). */
const PENDING = { assignmentId: 502, email: 'bob@globex.io' };

let stack: LocalStack;
let localDir: string;
let receiver: WebhookReceiver;
let callback: CallbackServer;
let orgId: number;
let readWriteKey: string;
let adminMember: InvitedMember;
let viewerMember: InvitedMember;
let browser: Browser;
let page: Page;
/** What any page reported as broken: console errors (CSP violations among them), script errors, failed loads. */
const problems: string[] = [];
/** axe-core's violations (of any impact) on every page checked, by page. */
const axeResults = new Map<string, AxeViolation[]>();
/** The pages checked that are not the dashboard's (the OpenID provider's): held to no serious or critical violation only. */
const notOurs = new Set<string>();
/** Items made along the way, which later tests visit. */
const made = { webhookId: 0, connectionId: 0, campaignId: 0, assignmentId: 0 };

/** A small loopback server standing for an assistant's OAuth redirect URI: it keeps the queries it gets. */
interface CallbackServer {
  redirectUri: string;
  received: URLSearchParams[];
  stop(): Promise<void>;
}

async function startCallbackServer(): Promise<CallbackServer> {
  const received: URLSearchParams[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      // The browser asks for /favicon.ico: nothing to show, and no failure to report.
      response.writeHead(204).end();
      return;
    }
    received.push(url.searchParams);
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        '<!doctype html><html lang="en"><title>Connected</title><h1>You may close this window</h1></html>',
      );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    redirectUri: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    received,
    async stop() {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
}

/** Adds a member with `outreach-admin member add --json`, which answers their one-time password. */
async function addMember(email: string, role: 'admin' | 'viewer', org = orgId): Promise<InvitedMember> {
  const run = await admin(localDir, [
    'member',
    'add',
    '--org',
    String(org),
    '--email',
    email,
    '--role',
    role,
    '--json',
  ]);
  expect(run.code, run.stderr).toBe(0);
  const added = JSON.parse(run.stdout) as { email: string; oneTimePassword: string | null };
  expect(added.oneTimePassword).toMatch(/^[A-Za-z0-9_-]{16}$/);
  return { email: added.email, oneTimePassword: added.oneTimePassword! };
}

/** A page's global object as far as the tests read it (their TypeScript has no DOM types). */
type PageGlobal = { navigator: { clipboard: { readText(): Promise<string> } } };

/**
 * A browser context of its own (its own cookies: a person of their own), its problems watched, allowed
 * to use the clipboard on the dashboard (its copy buttons).
 */
async function newPerson(who: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.apiUrl });
  const opened = await context.newPage();
  watchForProblems(opened, problems, who);
  return { context, page: opened };
}

/**
 * Runs axe-core on the page as it is now: a violation of any impact fails the test on a page of the
 * dashboard, a serious or critical one on another's (the OpenID provider's), and the test goes on.
 */
async function checkAccessibility(on: Page, name: string, options: { ours?: boolean } = {}): Promise<void> {
  const violations = await axeViolations(on);
  axeResults.set(name, violations);
  if (options.ours === false) notOurs.add(name);
  const refused = options.ours === false ? blocking(violations) : violations;
  expect.soft(refused, `axe on ${name}:\n${describeViolations(refused)}`).toEqual([]);
}

/**
 * The time a walk through every page (checkEveryPageAtBothWidths) may take: it opens each page twice,
 * runs axe and takes photographs, 25 s on a quiet machine and 37 s beside another full run, and it
 * timed out at the file's 60 s beside a second full run on two cores.
 */
const WALK_TIMEOUT_MS = 300_000;

/**
 * Opens every page of the dashboard (support/dashboard-browser.ts `dashboardPages`) at each width:
 * none may scroll sideways, axe finds nothing, and the admin's are photographed (`<page>-<width>.png`).
 * A viewer's pages differ from an admin's by what they leave out, so axe runs on them at one width
 * (the narrow one), which keeps the run short. `atEach` checks more on each page, at the first width.
 */
async function checkEveryPageAtBothWidths(
  on: Page,
  who: 'admin' | 'viewer',
  atEach?: (path: string) => Promise<void>,
): Promise<void> {
  for (const width of WIDTHS) {
    await on.setViewportSize({ width, height: 900 });
    for (const visit of dashboardPages(made)) {
      const answer = await on.goto(`${stack.apiUrl}${visit.path}`);
      expect.soft(answer?.status(), visit.path).toBe(200);
      await on.getByRole('heading', { level: 1 }).waitFor();
      expect
        .soft(await scrollsSideways(on), `${who}: ${visit.path} scrolls sideways at ${width} px`)
        .toBe(false);
      if (who === 'admin' || width === 390) await checkAccessibility(on, `${who} ${visit.name} at ${width}`);
      if (who === 'admin') await screenshot(on, `${visit.name}-${width}`);
      if (width === WIDTHS[0]) await atEach?.(visit.path);
    }
  }
  await on.setViewportSize({ width: 1280, height: 900 });
}

/** Follows the dashboard's navigation to a page (its `<h1>` is the link's name), then marked current. */
async function openPage(on: Page, name: string, path: string): Promise<void> {
  const link = on.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name, exact: true });
  await link.click();
  await on.waitForURL(`${stack.apiUrl}${path}`);
  await on.getByRole('heading', { level: 1, name }).waitFor();
  expect(await link.getAttribute('aria-current')).toBe('page');
}

/** The cells of a table's body rows, as text. */
async function tableRows(on: Page, caption: string | RegExp): Promise<string[][]> {
  const table = on.getByRole('table').filter({ has: on.locator('caption', { hasText: caption }) });
  const rows = await table.locator('tbody tr').all();
  return Promise.all(rows.map((row) => row.locator('th, td').allInnerTexts()));
}

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

const base64url = (bytes: Buffer) => bytes.toString('base64url');

beforeAll(async () => {
  if (!hasChromium) return;
  localDir = mkdtempSync(join(tmpdir(), 'dashboard-browser-'));
  stack = await startTestStack({ endpointsDir: localDir, authorizerCacheSeconds: 1, openIdProvider: true });
  receiver = await startWebhookReceiver();
  callback = await startCallbackServer();
  ({ orgId } = await createOrganization('Browser Agency'));
  await importFor(orgId, smallDocument());
  ({ apiKey: readWriteKey } = await createApiKey(orgId));
  // The campaign page and a contact's thread are among the pages every width and role is checked on.
  const campaigns = await apiClient(stack, readWriteKey).call<{ campaigns: { id: number }[] }>(
    'GET',
    '/campaigns',
  );
  made.campaignId = campaigns.body.campaigns[0]!.id;
  const contacts = await apiClient(stack, readWriteKey).call<{ data: { assignment_id: number }[] }>(
    'GET',
    `/campaigns/${made.campaignId}/contacts`,
  );
  made.assignmentId = contacts.body.data[0]!.assignment_id;
  adminMember = await addMember(ADMIN_EMAIL, 'admin');
  viewerMember = await addMember(VIEWER_EMAIL, 'viewer');
  browser = await chromium.launch({ executablePath: CHROMIUM });
  ({ page } = await newPerson('admin'));
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await receiver?.stop();
  await callback?.stop();
  if (localDir) rmSync(localDir, { recursive: true, force: true });
  if (axeResults.size > 0) {
    const results = resolve(PROJECT_ROOT, 'test-results/dashboard');
    mkdirSync(results, { recursive: true });
    writeFileSync(
      resolve(results, 'axe.json'),
      `${JSON.stringify(Object.fromEntries(axeResults), null, 2)}\n`,
    );
  }
});

describe.skipIf(!hasChromium)('the dashboard in Chromium', () => {
  it('signs an admin in at the local OpenID provider, with a new password, onto the overview', async () => {
    // Act
    await signInForTheFirstTime(page, {
      apiUrl: stack.apiUrl,
      issuer: stack.openIdProvider!.issuer,
      member: adminMember,
      newPassword: NEW_PASSWORD,
      async atProvider(step) {
        await checkAccessibility(page, `provider ${step}`, { ours: false });
        if (step === 'sign-in') await screenshot(page, 'sign-in');
      },
    });

    // Assess: one organization, picked for them.
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    // The account menu names the organization and role; the email is in it, shown when it opens.
    expect(await page.locator('header summary').innerText()).toBe('Browser Agency (admin)');
    await page.locator('header summary').click();
    expect(await page.locator('header .menu').innerText()).toContain(`Signed in as ${ADMIN_EMAIL}`);
    await page.locator('header summary').click();
    const campaigns = await tableRows(page, 'Each campaign’s contacts by status');
    expect(campaigns.map((row) => row[0])).toEqual(expect.arrayContaining(['Fintech CFOs', 'Retail Ops']));
    expect(await page.getByRole('img', { name: /Contacts of each campaign by status/ }).count()).toBe(1);
    await checkAccessibility(page, 'overview');
  });

  it('creates a read key shown once, which reads and is refused a write, and revokes it', async () => {
    // Act: create it.
    await openPage(page, 'API keys', '/dashboard/api-keys');
    await page.getByLabel('Name').fill('Reporting');
    await page.getByLabel('Scope').selectOption('read');
    await page.getByLabel('Expires in days (empty: never)').fill('30');
    await page.getByRole('button', { name: 'Create key' }).click();

    // Assess: the secret, once, with the copy button the script reveals.
    const secret = page.locator('#new-secret');
    await secret.waitFor();
    expect(await secret.isVisible()).toBe(true);
    // Shown by the page's script once it runs (progressive enhancement), which may be after the heading.
    await page.getByRole('button', { name: 'Copy' }).waitFor({ state: 'visible' });
    const apiKey = (await secret.innerText()).trim();
    expect(apiKey).toMatch(new RegExp(`^${orgId}\\.`));
    const keyId = Number(/Key (\d+) created/.exec(await page.locator('.secret').innerText())?.[1]);
    expect(keyId).toBeGreaterThan(0);
    const listed = (await tableRows(page, 'API keys of the organization')).find(
      (row) => row[0] === String(keyId),
    );
    expect(listed?.slice(1, 3)).toEqual(['Reporting', 'Read only']);
    expect(listed?.[5]).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M UTC$/);
    await checkAccessibility(page, 'api-keys (secret shown)');
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(
      await page.evaluate(() => (globalThis as unknown as PageGlobal).navigator.clipboard.readText()),
    ).toBe(apiKey);

    // Act: use it.
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${stack.apiUrl}/public/v1${path}`, {
        method,
        headers: {
          'x-api-key': apiKey,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const read = await call('GET', '/campaigns');
    const write = await call('POST', '/campaigns/101/raw/contacts', {
      contacts: [{ email: 'never@written.example', firstName: 'Never' }],
      sequenceId: 201,
    });

    // Assess
    expect(read.status).toBe(200);
    expect(
      ((await read.json()) as { campaigns: { id: number }[] }).campaigns.map((each) => each.id),
    ).toContain(101);
    expect(write.status).toBe(403);
    expect(await write.json()).toMatchObject({ message: READ_ONLY_KEY_MESSAGE });

    // Act: revoke it, accepting the page's confirmation.
    await openPage(page, 'API keys', '/dashboard/api-keys');
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    await page.getByRole('button', { name: `Revoke key ${keyId} (Reporting)` }).click();

    // Assess: revoked on the page, and refused once the authorizer's cache (1 s here) forgets it.
    await page.getByRole('status').filter({ hasText: 'The key was revoked' }).waitFor();
    expect(asked).toEqual([`Revoke key ${keyId}? Clients using it stop working.`]);
    const revoked = (await tableRows(page, 'API keys of the organization')).find(
      (row) => row[0] === String(keyId),
    );
    expect(revoked?.[6]).toMatch(/^Revoked [A-Z][a-z]{2} \d/);
    await waitFor(
      async () => {
        const answer = await call('GET', '/campaigns');
        expect(answer.status).toBe(401);
      },
      { what: 'the revoked key to be refused', intervalMs: 250 },
    );
  });

  it('subscribes the receiver, whose secret signs the test event delivered in the log', async () => {
    // Act: subscribe to two of the events.
    await openPage(page, 'Webhooks', '/dashboard/webhooks');
    await page.getByLabel('HTTPS URL').fill(`${receiver.url}/ok/dashboard`);
    await page.getByLabel('New opportunities').uncheck();
    expect(await page.getByLabel('First touch').isChecked()).toBe(true);
    expect(await page.getByLabel('Positive reply').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Subscribe' }).click();

    // Assess: the signing secret, once.
    const secretBox = page.locator('.secret');
    await secretBox.waitFor();
    // Named by its URL's host, not its id.
    const host = new URL(receiver.url).host;
    expect(await secretBox.innerText()).toContain(`Subscribed ${host}. Signing secret:`);
    const link = page.getByRole('link', { name: host, exact: true });
    made.webhookId = Number(/\/webhooks\/(\d+)$/.exec((await link.getAttribute('href')) ?? '')?.[1]);
    expect(made.webhookId).toBeGreaterThan(0);
    const signingSecret = (await page.locator('#new-secret').innerText()).trim();
    expect(signingSecret.length).toBeGreaterThan(20);
    // Shown by the page's script once it runs (progressive enhancement), which may be after the heading.
    await page.getByRole('button', { name: 'Copy' }).waitFor({ state: 'visible' });
    await checkAccessibility(page, 'webhooks (secret shown)');
    const [subscription] = (await tableRows(page, 'Webhook subscriptions')).filter(
      (row) => row[1] === `${receiver.url}/ok/dashboard`,
    );
    expect(subscription).toEqual([
      host,
      `${receiver.url}/ok/dashboard`,
      'First touch, Positive reply',
      'Enabled',
    ]);

    // Act: its page, and a test event.
    await link.click();
    await page.waitForURL(`${stack.apiUrl}/dashboard/webhooks/${made.webhookId}`);
    await page.getByRole('heading', { level: 2, name: host }).waitFor();
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await page.getByRole('status').filter({ hasText: 'A test event was queued' }).waitFor();

    // Assess: delivered, with its response code and latency, once the page is reloaded after it.
    const delivery = await waitFor(
      async () => {
        await page.reload();
        const [latest] = await tableRows(page, /deliveries, newest first/);
        expect(latest?.slice(1, 3)).toEqual(['Test event', 'Delivered']);
        return latest!;
      },
      { what: 'the test delivery to show as delivered', intervalMs: 250 },
    );
    expect(delivery[3]).toBe('200');
    expect(delivery[4]).toMatch(/^[\d,]+ ms$/);
    expect(delivery[5]).toBe('1');
    const [arrived] = await receiver.arrivals('/ok/dashboard', 1);
    const payload = new Webhook(signingSecret).verify(
      arrived!.body,
      arrived!.headers as Record<string, string>,
    ) as { type: string };
    expect(payload.type).toBe('test');
    await checkAccessibility(page, 'webhook (deliveries)');
  });

  it('connects an assistant that registered itself, approved on the consent page, and refreshes its token', async () => {
    // Prepare: dynamic client registration of a public client, and PKCE.
    const registration = await fetch(`${stack.apiUrl}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        redirect_uris: [callback.redirectUri],
        client_name: 'Browser Assistant',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
      }),
    });
    expect(registration.status).toBe(201);
    const { client_id: clientId } = (await registration.json()) as { client_id: string };
    const verifier = base64url(randomBytes(32));
    const authorize = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: callback.redirectUri,
      code_challenge: base64url(createHash('sha256').update(verifier).digest()),
      code_challenge_method: 'S256',
      state: 'xyz',
      resource: `${stack.apiUrl}/mcp`,
      scope: 'mcp:read',
    });

    // Act: the signed-in admin approves it for the organization.
    await page.goto(`${stack.apiUrl}/oauth/authorize?${authorize}`);
    await page.getByRole('heading', { level: 1, name: 'Authorize access' }).waitFor();
    expect(await page.locator('main').innerText()).toContain('Browser Assistant');
    const organization = page.getByRole('radio', { name: 'Browser Agency' });
    expect(await organization.isChecked()).toBe(true);
    await checkAccessibility(page, 'consent');
    await screenshot(page, 'consent');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((url) => `${url.origin}${url.pathname}` === callback.redirectUri);

    // Assess: the code and the state at the redirect URI, redeemed without a secret.
    expect(callback.received).toHaveLength(1);
    const redirected = callback.received[0]!;
    expect(redirected.get('state')).toBe('xyz');
    expect(redirected.get('iss')).toBe(stack.apiUrl);
    const token = async (parameters: Record<string, string>) => {
      const response = await fetch(`${stack.apiUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(parameters),
      });
      const body = (await response.json()) as { access_token: string; refresh_token: string };
      expect(response.status, JSON.stringify(body)).toBe(200);
      return body;
    };
    const first = await token({
      grant_type: 'authorization_code',
      code: redirected.get('code')!,
      redirect_uri: callback.redirectUri,
      client_id: clientId,
      code_verifier: verifier,
    });
    expect(first).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String) });
    const campaignIdsWith = async (accessToken: string) => {
      const transport = new StreamableHTTPClientTransport(new URL(`${stack.apiUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${accessToken}` } },
      });
      const client = new Client({ name: 'browser-assistant', version: '1.0.0' });
      await client.connect(transport);
      const result = await client.callTool({ name: 'list_campaigns', arguments: {} });
      await client.close();
      expect(result.isError ?? false).toBe(false);
      return (result.structuredContent as { campaigns: { id: number }[] }).campaigns.map((each) => each.id);
    };
    expect((await campaignIdsWith(first.access_token)).sort()).toEqual([101, 102]);
    const second = await token({
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: first.refresh_token,
    });
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await campaignIdsWith(second.access_token)).sort()).toEqual([101, 102]);

    // Assess: listed among the organization's connected assistants.
    await page.goto(`${stack.apiUrl}/dashboard`);
    await openPage(page, 'AI assistant', '/dashboard/assistant');
    const connected = await tableRows(page, 'Assistants approved for the organization');
    expect(connected).toContainEqual([
      'Browser Assistant',
      clientId,
      'Registered itself',
      ADMIN_EMAIL,
      expect.any(String),
      'Disconnect',
    ]);
    expect(await page.getByRole('button', { name: 'Disconnect Browser Assistant' }).isVisible()).toBe(true);
    expect(await page.locator('#mcp-url').innerText()).toBe(`${stack.apiUrl}/mcp`);
    await checkAccessibility(page, 'assistant');
  });

  it('approves the selected pending contact, which is enrolled at Smartlead', async () => {
    // Prepare: the organization connected to the Smartlead emulator, sequence 201 linked to a campaign there.
    await smartleadEmulator('POST', 'workspaces', { apiKey: WORKSPACE_KEY });
    const connected = await fetch(`${stack.apiUrl}/public/v1/provider-connections`, {
      method: 'POST',
      headers: { 'x-api-key': readWriteKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        provider: 'smartlead',
        api_key: WORKSPACE_KEY,
        base_url: stack.providerApiUrls.smartlead,
      }),
    });
    const connection = (await connected.json()) as { id: number; webhook_url: string };
    expect(connected.status, JSON.stringify(connection)).toBe(200);
    made.connectionId = connection.id;
    await smartleadEmulator('POST', 'webhooks', { apiKey: WORKSPACE_KEY, url: connection.webhook_url });
    const externalId = (
      await smartleadEmulator('POST', 'campaigns', { apiKey: WORKSPACE_KEY, name: 'Fintech' })
    ).id as string;
    const linked = await admin(localDir, [
      'sequence',
      'link',
      '--org',
      String(orgId),
      '--sequence',
      '201',
      '--connection',
      String(connection.id),
      '--external-id',
      externalId,
    ]);
    expect(linked.code, linked.stderr).toBe(0);

    // Act
    await openPage(page, 'Approvals', '/dashboard/approvals');
    await page.getByLabel('Campaign').selectOption('101');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(`${stack.apiUrl}/dashboard/approvals?campaign=101`);
    const pending = await tableRows(page, 'Contacts waiting for approval');
    // Each named by its email, its sequence by its provider and channel (not their ids).
    expect(pending.map((row) => [row[1], row[4]])).toEqual([[PENDING.email, 'Smartlead email sequence']]);
    await page.getByRole('checkbox', { name: `Select ${PENDING.email}` }).check();
    await checkAccessibility(page, 'approvals');
    await page.getByRole('button', { name: 'Approve selected' }).click();

    // Assess: reported, no longer waiting, and the lead at the provider.
    const outcome = page.getByRole('status').filter({ hasText: /^Approved/ });
    await outcome.waitFor();
    expect(await outcome.innerText()).toBe('Approved 1; skipped 0.');
    expect(await tableRows(page, 'Contacts waiting for approval')).toEqual([]);
    await checkAccessibility(page, 'approvals (approved)');
    await waitFor(
      async () => {
        const { leads } = (await smartleadEmulator(
          'GET',
          `leads?apiKey=${WORKSPACE_KEY}&campaignId=${encodeURIComponent(externalId)}`,
        )) as { leads: { received: unknown }[] };
        expect(leads.map((lead) => JSON.stringify(lead.received))).toEqual([
          expect.stringContaining(PENDING.email),
        ]);
      },
      { what: 'the approved contact to be enrolled at Smartlead', intervalMs: 200 },
    );
  });

  it('shows the providers and members, saves the cooldown, and logs every change with its author', async () => {
    // Providers: the connection and its page with the URL to paste.
    await openPage(page, 'Providers', '/dashboard/providers');
    const connectionName = `Smartlead connection ${made.connectionId}`;
    expect(await tableRows(page, 'Provider connections')).toEqual([
      // Its health as its badge: connecting verified the key, so it starts ok.
      [connectionName, expect.any(String), expect.stringMatching(/^ok$/i)],
    ]);
    await checkAccessibility(page, 'providers');
    await page.getByRole('link', { name: connectionName, exact: true }).click();
    await page.getByRole('heading', { level: 2, name: connectionName }).waitFor();
    expect(await page.locator('#webhook-url').innerText()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    // Shown by the page's script once it runs (progressive enhancement), which may be after the heading.
    await page.getByRole('button', { name: 'Copy' }).waitFor({ state: 'visible' });
    await checkAccessibility(page, 'provider connection');

    // Members
    await openPage(page, 'Members', '/dashboard/members');
    const members = await tableRows(page, 'Members of the organization');
    expect(members.map((row) => row.slice(0, 2))).toEqual(
      expect.arrayContaining([
        [ADMIN_EMAIL, 'Admin'],
        [VIEWER_EMAIL, 'Viewer'],
      ]),
    );
    await checkAccessibility(page, 'members');

    // Settings: a new cooldown.
    await openPage(page, 'Settings', '/dashboard/settings');
    const cooldown = page.getByLabel('Cooldown days');
    const newCooldown = (await cooldown.inputValue()) === '45' ? '60' : '45';
    await cooldown.fill(newCooldown);
    await page.getByRole('button', { name: 'Save cooldown' }).click();
    await page.getByRole('status').filter({ hasText: 'The cooldown window was saved.' }).waitFor();
    expect(await page.getByLabel('Cooldown days').inputValue()).toBe(newCooldown);
    await checkAccessibility(page, 'settings');

    // Audit log: every change above, by the admin.
    await openPage(page, 'Audit log', '/dashboard/audit');
    const entries = (await tableRows(page, 'Changes, newest first')).map(([, who, what, target]) => ({
      who,
      what,
      target,
    }));
    for (const [what, target] of [
      ['Created an API key', /"Reporting" \(read\)/],
      ['Revoked an API key', /^key \d+$/],
      ['Subscribed a webhook', `/ok/dashboard`],
      ['Sent a test event', `subscription ${made.webhookId}`],
      ['Connected an AI assistant', 'Browser Assistant'],
      ['Approved contacts', `campaign 101: 1 (${PENDING.assignmentId})`],
      ['Changed the cooldown', `${newCooldown} days`],
    ] as const) {
      expect(entries).toContainEqual({
        who: ADMIN_EMAIL,
        what,
        target: typeof target === 'string' ? expect.stringContaining(target) : expect.stringMatching(target),
      });
    }
    expect(entries).toContainEqual({
      who: 'operator (CLI)',
      what: 'Added a member',
      target: expect.any(String),
    });
    await checkAccessibility(page, 'audit');
  });

  it(
    'fits every page at 390 and 1,366 px without sideways scroll, for the admin, and photographs it',
    async () => {
      await checkEveryPageAtBothWidths(page, 'admin');
    },
    WALK_TIMEOUT_MS,
  );

  it(
    'shows a viewer every page with no control but sign-out and copying',
    async () => {
      // Prepare
      const viewer = await newPerson('viewer');
      await signInForTheFirstTime(viewer.page, {
        apiUrl: stack.apiUrl,
        issuer: stack.openIdProvider!.issuer,
        member: viewerMember,
        newPassword: NEW_PASSWORD,
      });
      expect(await viewer.page.locator('header summary').innerText()).toBe('Browser Agency (viewer)');

      // Act and assess, page by page (the approvals: of campaign 101, the first, with a contact waiting).
      await checkEveryPageAtBothWidths(viewer.page, 'viewer', async (path) => {
        // The forms that are not the sign-out read, never change: the approvals' campaign picker ("Show") and
        // the campaign page's search of its contacts ("Search"), both GETs.
        const campaignPage = `${stack.apiUrl}/dashboard/campaigns/${made.campaignId}`;
        const forms = await viewer.page
          .locator('form')
          .evaluateAll((all) =>
            all.map((form) => `${form.getAttribute('method')} ${form.getAttribute('action')}`),
          );
        for (const form of forms)
          expect([
            `post ${stack.apiUrl}/dashboard/sign-out`,
            `get ${stack.apiUrl}/dashboard/approvals`,
            `get ${campaignPage}#contacts`,
          ]).toContain(form);
        // Every <button>, shown or not (Sign out is in the closed account menu).
        const texts = (buttons: string[]) => buttons.map((text) => text.trim());
        const buttons = texts(await viewer.page.locator('button').allTextContents());
        const pickerButtons = texts(await viewer.page.locator('form[method="get"] button').allTextContents());
        const readingButtons = path.startsWith('/dashboard/approvals')
          ? ['Show']
          : path === `/dashboard/campaigns/${made.campaignId}`
            ? ['Search']
            : [];
        expect(pickerButtons, path).toEqual(readingButtons);
        const others = buttons.filter((name) => !pickerButtons.includes(name));
        expect(
          others.filter((name) => name !== 'Copy'),
          path,
        ).toEqual(['Sign out']);
        // The MCP URL is for everyone; a provider connection's webhook URL, a write credential, for admins only.
        if (path === '/dashboard/assistant') expect(others, path).toContain('Copy');
        if (path.startsWith('/dashboard/providers/')) {
          expect(others, path).not.toContain('Copy');
          expect(await viewer.page.locator('#webhook-url').count(), path).toBe(0);
        }
        // No field to change anything: the only fields a viewer gets are those of the reading (GET) forms.
        expect(
          await viewer.page
            .locator('input:not([type="hidden"]), textarea')
            .evaluateAll((all) => all.filter((field) => field.closest('form[method="get"]') === null).length),
          path,
        ).toBe(0);
      });
      await viewer.context.close();
    },
    WALK_TIMEOUT_MS,
  );

  it('refuses a sign-in callback followed in another browser (login CSRF): that browser keeps its own session', async () => {
    // Prepare: an attacker, admin of an organization of their own, signs in in browser A and stops at the
    // callback, whose link they hand to the admin (browser B, signed in to Browser Agency).
    const { orgId: attackerOrg } = await createOrganization('Attacker Org');
    const attacker = await addMember('mallory@attacker.example', 'admin', attackerOrg);
    const browserA = await browser.newContext();
    const pageA = await browserA.newPage();
    // The provider answers the new password with redirects that end at the dashboard's callback; the
    // browser would follow them all (a route sees only a redirect chain's first request), so this one
    // request's redirects are followed here, with A's cookies, and the callback is kept, not visited.
    let callbackUrl = '';
    const isCallback = (location: string) => location.startsWith(`${stack.apiUrl}/dashboard/callback?`);
    await pageA.route(
      (url) => url.origin === stack.openIdProvider!.issuer && url.pathname.endsWith('/password'),
      async (route) => {
        let answer = await route.fetch({ maxRedirects: 0 });
        let location = answer.headers().location;
        while (location !== undefined) {
          location = new URL(location, answer.url()).href;
          if (isCallback(location)) break;
          answer = await browserA.request.get(location, { maxRedirects: 0 });
          location = answer.headers().location;
        }
        if (location === undefined) return route.fulfill({ response: answer });
        callbackUrl = location;
        await route.fulfill({
          contentType: 'text/html',
          body: '<!doctype html><html lang="en"><title>Stopped</title><h1>Stopped at the callback</h1></html>',
        });
      },
    );
    await signInForTheFirstTime(pageA, {
      apiUrl: stack.apiUrl,
      issuer: stack.openIdProvider!.issuer,
      member: attacker,
      newPassword: NEW_PASSWORD,
      landing: null,
    });
    await waitFor(() => callbackUrl !== '', { what: 'the callback URL' });
    expect(new URL(callbackUrl).searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookiesOfB = await page.context().cookies();
    expect(cookiesOfB.map((cookie) => cookie.name)).toContain('outreach_session');

    // Act: B follows the link (a page of its own, as a link opened in a new tab; the 400 is expected there).
    const pageB = await page.context().newPage();
    const { result: answer, calls } = await countRequests(async () => {
      const [first] = await Promise.all([
        pageB.waitForResponse((response) => response.url() === callbackUrl),
        pageB.goto(callbackUrl),
      ]);
      return first;
    });

    // Assess: refused, no session opened, B's cookies as they were and still Browser Agency's admin.
    expect(answer.status()).toBe(400);
    expect(await answer.headerValue('set-cookie')).toBeNull();
    expect(await pageB.getByRole('heading', { level: 1 }).innerText()).toBe('Sign-in not started here');
    const sessionsWritten = calls.filter((call) => JSON.stringify(call.input).includes('DASHSESSION#'));
    expect(sessionsWritten.filter((call) => call.operation !== 'GetItem')).toEqual([]);
    expect(await page.context().cookies()).toEqual(cookiesOfB);
    await pageB.goto(`${stack.apiUrl}/dashboard`);
    const header = await pageB.locator('header').textContent();
    expect(header).toContain('Browser Agency (admin)');
    expect(header).toContain(ADMIN_EMAIL);
    await pageB.close();

    // A client without the cookie is refused alike, and so is one holding the cookie of another sign-in.
    const bare = await fetch(callbackUrl, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('set-cookie')]).toEqual([400, null]);
    const otherSignIn = await fetch(`${stack.apiUrl}/dashboard/sign-in`, { redirect: 'manual' });
    const otherCookie = otherSignIn.headers.get('set-cookie')!.split(';')[0]!;
    expect(otherCookie).toMatch(/^outreach_sign_in=[A-Za-z0-9_-]{43}$/);
    const crossed = await fetch(callbackUrl, { headers: { cookie: otherCookie }, redirect: 'manual' });
    expect([crossed.status, crossed.headers.get('set-cookie')]).toEqual([400, null]);

    // The browser that started the sign-in still completes it, into its own organization, and its
    // sign-in cookie is cleared.
    await pageA.unrouteAll();
    await pageA.goto(callbackUrl);
    await pageA.waitForURL(`${stack.apiUrl}/dashboard`);
    expect(await pageA.locator('header summary').innerText()).toBe('Attacker Org (admin)');
    // Cookies are not kept apart by port: the provider's own are on 127.0.0.1 too.
    const ours = (await browserA.cookies()).filter((cookie) => cookie.name.startsWith('outreach_'));
    expect(ours.map((cookie) => cookie.name)).toEqual(['outreach_session']);
    await browserA.close();
  });

  it('found no axe violation on any page of the dashboard, and no serious or critical one elsewhere', () => {
    expect([...axeResults.keys()]).toEqual(
      expect.arrayContaining([
        'provider sign-in',
        'provider new-password',
        'overview',
        'api-keys (secret shown)',
        'webhooks (secret shown)',
        'webhook (deliveries)',
        'consent',
        'assistant',
        'approvals',
        'providers',
        'provider connection',
        'members',
        'settings',
        'audit',
        ...dashboardPages(made).flatMap((visit) => [
          ...WIDTHS.map((width) => `admin ${visit.name} at ${width}`),
          `viewer ${visit.name} at 390`,
        ]),
      ]),
    );
    const refused = [...axeResults].flatMap(([name, violations]) =>
      (notOurs.has(name) ? blocking(violations) : violations).map((violation) => ({
        ...violation,
        help: `${violation.help} (${name})`,
      })),
    );
    expect(refused, describeViolations(refused)).toEqual([]);
  });

  it('logged no console error, script error, failed request or CSP violation on any page', () => {
    expect(problems).toEqual([]);
  });
});
