import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PagePath } from '#api/dashboard/layout.ts';
import { DASHBOARD_PAGES } from '#api/dashboard/pages/index.ts';
import { createApiKey, listApiKeys } from '#domain/api-keys.ts';
import { listPendingApprovals } from '#domain/approvals.ts';
import { approveAssistant, listAssistantGrants } from '#domain/assistant-grants.ts';
import { openSession, resumeSession, SESSION_IDLE_SECONDS } from '#domain/dashboard-sessions.ts';
import { addMember } from '#domain/members.ts';
import { registerClient } from '#domain/oauth-registration.ts';
import { createOrganization } from '#domain/organizations.ts';
import { hashSecret } from '#platform/secret-hash.ts';
import { dashboardSessions } from '#store/dashboard-sessions.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { apiClient, send } from '../support/api-client.ts';
import { admin } from '../support/cli.ts';
import { type DashboardClient, dashboardClient, SESSION_COOKIE } from '../support/dashboard.ts';
import { smallDocument } from '../support/fixtures.ts';
import { importFor } from '../support/import.ts';
import { startTestStack } from '../support/local-stack.ts';
import { emulatedConnection } from '../support/provider-workspace.ts';
import { countRequests, sentTogether } from '../support/request-counter.ts';
import { expectNoWriteCredential } from '../support/write-credentials.ts';

/**
 * The dashboard over HTTP, as a browser's requests reach it: sign-in
 * redirects, the security headers of every page, CSRF, roles, sessions and
 * their end, tenant isolation of every page and item, the audit log, and the
 * members CLI. The pages in a real browser, from the local OpenID provider's
 * sign-in, are dashboard-browser.test.ts.
 */

let stack: LocalStack;
let localDir: string;
let orgA: number;
let orgB: number;
let adminA: DashboardClient;
let viewerA: DashboardClient;
let adminB: DashboardClient;
let webhookOfA: number;
let connectionOfA: number;
let keyOfA: number;
/** A's write credentials: its API key, webhook signing secret, provider connection's webhook URL and API key. */
let secretsOfA: string[];
let connectionUrlOfA: string;

beforeAll(async () => {
  localDir = mkdtempSync(join(tmpdir(), 'dashboard-'));
  stack = await startTestStack({ endpointsDir: localDir, openIdProvider: true });
  orgA = (await createOrganization('Alpha Inc')).orgId;
  orgB = (await createOrganization('Beta Ltd')).orgId;
  for (const orgId of [orgA, orgB]) {
    await importFor(orgId, smallDocument());
  }
  const key = await createApiKey(orgA);
  keyOfA = key.keyId;
  const apiA = apiClient(stack, key.apiKey);
  const webhook = await apiA.post('/webhooks', { url: 'http://127.0.0.1:9/hook-a', events: ['first_touch'] });
  webhookOfA = webhook.body.id;
  const connection = await apiA.post(
    '/provider-connections',
    await emulatedConnection(stack, 'smartlead', 'key-a'),
  );
  connectionOfA = connection.body.id;
  connectionUrlOfA = connection.body.webhook_url;
  secretsOfA = [key.apiKey, webhook.body.secret, connectionUrlOfA, 'key-a'];
  adminA = await dashboardClient(stack.apiUrl, { orgId: orgA, role: 'admin' });
  viewerA = await dashboardClient(stack.apiUrl, { orgId: orgA, role: 'viewer' });
  adminB = await dashboardClient(stack.apiUrl, { orgId: orgB, role: 'admin' });
});
afterAll(async () => {
  await stack?.stop();
  rmSync(localDir, { recursive: true, force: true });
});

const PAGES = [
  '/dashboard',
  ...['api-keys', 'webhooks', 'assistant', 'providers', 'approvals', 'settings', 'members', 'audit'].map(
    (page) => `/dashboard/${page}`,
  ),
];

describe('signing in', () => {
  it('sends a visitor without a session to sign-in, and sign-in to the OpenID provider with PKCE', async () => {
    const page = await fetch(`${stack.apiUrl}/dashboard/webhooks?x=1`, { redirect: 'manual' });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(
      `${stack.apiUrl}/dashboard/sign-in?return_to=${encodeURIComponent('/dashboard/webhooks?x=1')}`,
    );
    const signIn = await fetch(page.headers.get('location')!, { redirect: 'manual' });
    expect(signIn.status).toBe(303);
    const authorize = new URL(signIn.headers.get('location')!);
    expect(`${authorize.origin}`).toBe(stack.openIdProvider!.issuer);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'outreach-dashboard',
      redirect_uri: `${stack.apiUrl}/dashboard/callback`,
      scope: 'openid email',
      code_challenge_method: 'S256',
    });
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('binds a sign-in to its browser with a cookie for the callback only, which the callback clears', async () => {
    const signIn = await fetch(`${stack.apiUrl}/dashboard/sign-in`, { redirect: 'manual' });
    const state = new URL(signIn.headers.get('location')!).searchParams.get('state')!;
    expect(signIn.headers.get('set-cookie')).toBe(
      `outreach_sign_in=${state}; Path=/dashboard/callback; HttpOnly; SameSite=Lax; Max-Age=600`,
    );
    // Where cookies are Secure, it is too, and its path keeps an execute-api URL's stage.
    const { signInCookie } = await import('#api/dashboard/http.ts');
    expect(signInCookie(state, true, 600, 'https://api.example/prod')).toBe(
      `__Secure-outreach_sign_in=${state}; Path=/prod/dashboard/callback; HttpOnly; SameSite=Lax; Max-Age=600; Secure`,
    );
    // The browser that holds it: the provider's refusal ends the sign-in, and the cookie goes; the
    // session cookie is left alone.
    const refused = await fetch(`${stack.apiUrl}/dashboard/callback?error=access_denied&state=${state}`, {
      headers: { cookie: `outreach_sign_in=${state}` },
      redirect: 'manual',
    });
    expect(refused.status).toBe(400);
    expect(refused.headers.getSetCookie()).toEqual([
      'outreach_sign_in=; Path=/dashboard/callback; HttpOnly; SameSite=Lax; Max-Age=0',
    ]);
    // Another browser (no cookie, or the cookie of another sign-in) is refused and sets no cookie at all.
    const other = await fetch(`${stack.apiUrl}/dashboard/sign-in`, { redirect: 'manual' });
    const otherCookie = other.headers.get('set-cookie')!.split(';')[0]!;
    for (const cookie of [undefined, otherCookie, `${otherCookie}; ${adminB.cookie}`]) {
      const answer = await fetch(`${stack.apiUrl}/dashboard/callback?code=abc&state=${state}`, {
        headers: cookie === undefined ? {} : { cookie },
        redirect: 'manual',
      });
      expect([answer.status, answer.headers.get('set-cookie')]).toEqual([400, null]);
      expect(await answer.text()).toContain('Sign-in not started here');
    }
    expect((await adminB.get('/dashboard')).status).toBe(200);
  });

  it('refuses a callback with an unknown state, or none, and opens no session', async () => {
    for (const query of ['?code=abc&state=unknown', '?code=abc', '?error=access_denied&state=x']) {
      const answer = await fetch(`${stack.apiUrl}/dashboard/callback${query}`, { redirect: 'manual' });
      expect(answer.status).toBe(400);
      expect(answer.headers.get('set-cookie')).toBeNull();
    }
  });

  it('lands a sign-in only on a path of this service', async () => {
    const signIn = await fetch(
      `${stack.apiUrl}/dashboard/sign-in?return_to=${encodeURIComponent('//evil.example/x')}`,
      {
        redirect: 'manual',
      },
    );
    expect(signIn.status).toBe(303);
    // The landing is kept with the sign-in's state; what matters is that it is never an absolute URL.
    const { landingPath } = await import('#api/dashboard/sign-in.ts');
    for (const hostile of ['//evil.example', '/\\evil.example', 'https://evil.example/dashboard', '/docs'])
      expect(landingPath(hostile)).toBe('/dashboard');
    expect(landingPath('/dashboard/webhooks?x=1')).toBe('/dashboard/webhooks?x=1');
    expect(landingPath('/oauth/authorize?client_id=x')).toBe('/oauth/authorize?client_id=x');
  });

  it('lands on /dashboard when return_to or next holds a control character, never in the Location header', async () => {
    const { landingPath } = await import('#api/dashboard/sign-in.ts');
    const subject = randomUUID();
    const email = `landing-${subject.slice(0, 8)}@members.example`;
    await addMember(orgA, { subject, email }, 'admin', 'operator');
    for (const control of ['\r\n', '\n', '\r', '\0', '\x01', '\x1f', '\t', '\x7f']) {
      for (const raw of [`/dashboard/api-keys${control}x: y`, `/oauth/authorize?client_id=a${control}b`]) {
        const shown = JSON.stringify(raw);
        // The picker's form (next in the body) ...
        const picked = await adminA.post('/dashboard/organizations', { orgId: String(orgA), next: raw });
        expect([picked.status, picked.headers.get('location')], shown).toEqual([
          303,
          `${stack.apiUrl}/dashboard`,
        ]);
        // ... and its automatic pick (next in the query), where a callback lands a session that picked none yet.
        const unpicked = `${SESSION_COOKIE}=${await openSession({ subject, email })}`;
        const landed = await fetch(
          `${stack.apiUrl}/dashboard/organizations?next=${encodeURIComponent(raw)}`,
          { headers: { cookie: unpicked }, redirect: 'manual' },
        );
        expect([landed.status, landed.headers.get('location')], shown).toEqual([
          303,
          `${stack.apiUrl}/dashboard`,
        ]);
        expect(landingPath(raw), shown).toBe('/dashboard');
      }
    }
    // Nor a space or what is not ASCII: a path of this service comes percent-encoded.
    for (const raw of ['/dashboard/a b', '/dashboard/caf\u00e9', '/dashboard?q=\u20ac', '/dashboard/\u2028'])
      expect(landingPath(raw), JSON.stringify(raw)).toBe('/dashboard');
  });
});

describe('every page', () => {
  it.each(PAGES)(
    '%s is no-store, unframeable, and runs only the dashboard’s own script and style',
    async (path) => {
      const answer = await adminA.get(path);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
      const policy = answer.headers.get('content-security-policy')!;
      expect(policy).toContain("default-src 'none'");
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("style-src 'self'");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).not.toContain('unsafe-inline');
      expect(answer.text).not.toMatch(/<script(?![^>]*\bsrc=)/);
      expect(answer.text).not.toMatch(/\sstyle="/);
      expect(answer.text).toContain('<html lang="en">');
      expect(answer.text.match(/<h1>/g)).toHaveLength(1);
    },
  );

  it('serves the assets and nothing else under /dashboard/assets', async () => {
    for (const [name, type] of [
      ['app.css', 'text/css'],
      ['app.js', 'text/javascript'],
      ['icon.svg', 'image/svg+xml'],
    ]) {
      const answer = await fetch(`${stack.apiUrl}/dashboard/assets/${name}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toContain(type);
    }
    for (const name of ['..%2Fsecrets', 'constructor', '__proto__'])
      expect((await fetch(`${stack.apiUrl}/dashboard/assets/${name}`)).status).toBe(404);
  });

  it('reads the session with a bounded number of requests', async () => {
    const { calls } = await countRequests(() => adminA.get('/dashboard/members'));
    // Session (GetItem), membership and organization (one BatchGetItem); the members page: the
    // organization (GetItem, as the CLI's list checks it) and its members (one Query).
    expect(calls.map((call) => call.operation).sort()).toEqual([
      'BatchGetItem',
      'GetItem',
      'GetItem',
      'Query',
    ]);
  });
});

describe('what people wrote', () => {
  it('is shown escaped on every page that shows it: names, URLs, campaign names, the audit log, the account menu', async () => {
    // Prepare: an organization, a campaign, a key and a webhook named with markup and quotes.
    const hostile = `<img src=x onerror="alert(1)">'&`;
    const escaped = '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&#39;&amp;';
    const { orgId } = await createOrganization(`Org ${hostile}`);
    const fixture = smallDocument();
    const [first, ...others] = fixture.campaigns as { name: string }[];
    await importFor(orgId, { ...fixture, campaigns: [{ ...first, name: `Campaign ${hostile}` }, ...others] });
    const member = await dashboardClient(stack.apiUrl, {
      orgId,
      role: 'admin',
      email: `o'brien+${randomUUID().slice(0, 8)}@members.example`,
    });
    expect(
      (await member.post('/dashboard/api-keys', { action: 'create', name: `Key ${hostile}` })).status,
    ).toBe(200);
    const webhookUrl = `http://127.0.0.1:9/in?x=${encodeURIComponent(hostile)}&y="z"`;
    const subscribed = await member.post('/dashboard/webhooks', { url: webhookUrl, events: ['first_touch'] });
    expect(subscribed.status, subscribed.text).toBe(200);

    // Act and assess: each page that shows one of them shows it escaped, never as markup.
    for (const path of [
      '/dashboard',
      '/dashboard/api-keys',
      '/dashboard/approvals',
      '/dashboard/webhooks',
      '/dashboard/audit',
      '/dashboard/settings',
    ]) {
      const answer = await member.get(path);
      expect(answer.status, path).toBe(200);
      expect(answer.text, path).not.toContain('<img');
      expect(answer.text, path).not.toContain('onerror="');
      // The account menu's summary and its title attribute.
      expect(answer.text, path).toContain(`title="Org ${escaped} (admin)"`);
      expect(answer.text, path).toContain(member.email.replace("'", '&#39;'));
    }
    expect((await member.get('/dashboard')).text).toContain(
      `<span class="bar-label">Campaign ${escaped}</span>`,
    );
    expect((await member.get('/dashboard/approvals')).text).toContain(`Campaign ${escaped}</option>`);
    expect((await member.get('/dashboard/api-keys')).text).toContain(`Key ${escaped}`);
    const webhooks = await member.get('/dashboard/webhooks');
    expect(webhooks.text).toContain('>127.0.0.1:9</a>');
    expect(webhooks.text).not.toContain('y="z"');
    expect((await member.get('/dashboard/audit')).text).toContain(`Key ${escaped}`);
  });
});

describe('forms', () => {
  const keysOf = async (orgId: number) => (await listApiKeys(orgId)).length;

  it('refuses a form without the CSRF token, or with another one, and changes nothing', async () => {
    const before = await keysOf(orgA);
    for (const csrf of [null, 'forged', adminB.csrfToken]) {
      const answer = await adminA.post('/dashboard/api-keys', { action: 'create', scope: 'read' }, csrf);
      expect(answer.status).toBe(403);
      expect(answer.text).toContain('Nothing was changed');
    }
    expect(await keysOf(orgA)).toBe(before);
  });

  it('creates a key with the token, showing its secret once, and writes the audit log', async () => {
    const answer = await adminA.post('/dashboard/api-keys', {
      action: 'create',
      scope: 'read',
      name: 'Reporting',
    });
    expect(answer.status).toBe(200);
    const secret = /<code id="new-secret">([^<]+)<\/code>/.exec(answer.text)![1]!;
    expect(secret).toMatch(new RegExp(`^${orgA}\\.`));
    const listed = await adminA.get('/dashboard/api-keys');
    expect(listed.text).toContain('Reporting');
    expect(listed.text).not.toContain(secret);
    const audit = await adminA.get('/dashboard/audit');
    expect(audit.text).toContain(adminA.email);
    expect(audit.text).toContain('api-key.create');
  });

  it('shows a viewer every page without a form that changes anything, and refuses their forms', async () => {
    for (const path of PAGES) {
      const answer = await viewerA.get(path);
      expect(answer.status).toBe(200);
      const forms = answer.text.match(/<form method="post" action="[^"]*"/g) ?? [];
      expect(forms.every((form) => form.endsWith('/dashboard/sign-out"'))).toBe(true);
    }
    const before = await keysOf(orgA);
    const answer = await viewerA.post('/dashboard/api-keys', { action: 'create', scope: 'read' });
    expect(answer.status).toBe(403);
    expect(await keysOf(orgA)).toBe(before);
    expect((await viewerA.post('/dashboard/settings', { cooldownDays: '5' })).status).toBe(403);
  });

  it('shows what the API would refuse on the page, with its status', async () => {
    const answer = await adminA.post('/dashboard/webhooks', {
      url: 'http://10.0.0.1/hook',
      events: 'first_touch',
    });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('role="alert"');
    const cooldown = await adminA.post('/dashboard/settings', { cooldownDays: '0' });
    expect(cooldown.status).toBe(400);
  });

  it('refuses a form over 64 KiB', async () => {
    const answer = await adminA.post('/dashboard/settings', {
      cooldownDays: '5',
      padding: 'x'.repeat(70 * 1024),
    });
    expect(answer.status).toBe(413);
  });
});

/**
 * Every page of the dashboard, from its one list (DASHBOARD_PAGES), each item
 * page with an item of A's, the approvals of a campaign (whose forms show
 * only with one) and a campaign's contact: a page added to the dashboard is in this matrix.
 */
function everyPageOfA(): string[] {
  const items: Partial<Record<PagePath, number>> = {
    webhooks: webhookOfA,
    providers: connectionOfA,
    campaigns: 101,
  };
  return [
    ...Object.keys(DASHBOARD_PAGES).map((path) => (path ? `/dashboard/${path}` : '/dashboard')),
    ...Object.entries(items).map(([path, id]) => `/dashboard/${path}/${id}`),
    '/dashboard/approvals?campaign=101',
    '/dashboard/campaigns/101?contact=501',
  ];
}

interface PageForm {
  /** Where it was shown, and where it posts. */
  page: string;
  action: string;
  fields: Record<string, string[]>;
}

/**
 * The forms of a page as the dashboard writes them (html.ts: double-quoted,
 * escaped attributes): where each posts and the names and values of its
 * fields, the CSRF token left out (the poster sends its own). The values the
 * dashboard writes are ids and action names: one that would need unescaping
 * fails the test rather than be sent wrong.
 */
function formsOf(page: string, text: string): PageForm[] {
  return [...text.matchAll(/<form\b[^>]*\smethod="post" action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)].flatMap(
    ([, action, inner]) => {
      const named = (tags: string) =>
        [
          ...inner!.matchAll(
            new RegExp(`<(?:${tags})\\b[^>]*?\\sname="([^"]*)"(?:[^>]*?\\svalue="([^"]*)")?`, 'g'),
          ),
        ].map(([, name, value = '']) => {
          expect(`${action}${name}${value}`, page).not.toContain('&');
          return [name!, value] as const;
        });
      const fields: Record<string, string[]> = {};
      for (const [name, value] of named('input|select|textarea'))
        if (name !== 'csrf') fields[name] = [...(fields[name] ?? []), value];
      const { pathname, search } = new URL(action!);
      // A form with several named submit buttons (approve, reject, …) is one form per button.
      const buttons = named('button');
      return (buttons.length > 0 ? buttons : [null]).map((button) => ({
        page,
        action: `${pathname}${search}`,
        fields: button ? { ...fields, [button[0]]: [button[1]] } : fields,
      }));
    },
  );
}

/** An assistant that registered itself (RFC 7591), as a public client. */
const selfRegistered = (clientName: string, redirectUri: string) =>
  registerClient(
    {
      redirectUris: [redirectUri],
      clientName,
      tokenEndpointAuthMethod: 'none',
      grantTypes: ['authorization_code', 'refresh_token'],
    },
    'dashboard-test',
  );

describe('a viewer', () => {
  it('has every page of the dashboard in the matrix, and an item of every page that has items', async () => {
    const pages = everyPageOfA();
    for (const [path, load] of Object.entries(DASHBOARD_PAGES)) {
      const page = await load();
      if (page.hasItems)
        expect(
          pages.some((url) => url.startsWith(`/dashboard/${path}/`)),
          path,
        ).toBe(true);
    }
  });

  it('sees every page an admin sees, without a form that changes anything and without a write credential', async () => {
    for (const path of everyPageOfA()) {
      const [asAdmin, asViewer] = [await adminA.get(path), await viewerA.get(path)];
      expect(asAdmin.status, path).toBe(200);
      expect(asViewer.status, path).toBe(200);
      expect(formsOf(path, asViewer.text).map((form) => form.action)).toEqual(['/dashboard/sign-out']);
      expectNoWriteCredential(asViewer.text, `${path} as a viewer`, secretsOfA);
    }
    // An admin still sees the webhook URL to paste into the provider.
    expect((await adminA.get(`/dashboard/providers/${connectionOfA}`)).text).toContain(connectionUrlOfA);
  });

  it('is refused every form an admin is shown (403), and nothing changes', async () => {
    // An OAuth client and a connected assistant, so that the assistant page shows their forms too.
    const created = await adminA.post('/dashboard/assistant', {
      action: 'create-client',
      name: 'Matrix client',
      redirectUri: 'https://matrix-assistant.example/callback',
    });
    expect(created.status).toBe(200);
    const clientSecret = /mcs_[A-Za-z0-9_-]+/.exec(created.text)![0];
    const assistant = await selfRegistered('Matrix Assistant', 'https://matrix-assistant.example/callback');
    await approveAssistant({
      orgId: orgA,
      clientId: assistant.clientId,
      clientName: 'Matrix Assistant',
      kind: 'dynamic',
      approvedBy: adminA.email,
    });
    const secrets = [...secretsOfA, clientSecret];
    const pages = everyPageOfA();
    const forms: PageForm[] = [];
    for (const path of pages) {
      const answer = await adminA.get(path);
      expect(answer.status, path).toBe(200);
      // Signing out is the session's own, not a change of the organization: a viewer may.
      forms.push(...formsOf(path, answer.text).filter((form) => form.action !== '/dashboard/sign-out'));
    }
    // Every page that takes forms shows an admin at least one.
    for (const [path, load] of Object.entries(DASHBOARD_PAGES)) {
      if (!(await load()).post) continue;
      const at = path ? `/dashboard/${path}` : '/dashboard';
      const posted = forms.map((form) => form.action.split('?')[0]!);
      expect(
        posted.some((action) => action === at || action.startsWith(`${at}/`)),
        at,
      ).toBe(true);
    }
    const view = async () => Promise.all(pages.map(async (path) => (await adminA.get(path)).text));
    const before = await view();
    for (const form of forms) {
      const answer = await viewerA.post(form.action, form.fields);
      const what = `${form.page}: ${form.action} ${JSON.stringify(form.fields)}`;
      expect(answer.status, what).toBe(403);
      expect(answer.text, what).toContain(
        'you can see its settings but not change them. Nothing was changed.',
      );
      expectNoWriteCredential(answer.text, what, secrets);
    }
    expect(await view()).toEqual(before);
    for (const path of pages) expectNoWriteCredential((await viewerA.get(path)).text, path, secrets);
  });

  it('cannot connect an assistant to the organization on the consent page: a grant is an admin’s to give', async () => {
    const redirectUri = 'https://viewer-assistant.example/callback';
    const assistant = await selfRegistered('Viewer Assistant', redirectUri);
    const parameters = {
      response_type: 'code',
      client_id: assistant.clientId,
      redirect_uri: redirectUri,
      code_challenge: 'c'.repeat(43),
      code_challenge_method: 'S256',
      state: 'viewer',
    };
    const shown = await send(stack.apiUrl, {
      method: 'GET',
      url: `/oauth/authorize?${new URLSearchParams(parameters)}`,
      headers: { cookie: viewerA.cookie },
    });
    expect(shown.status).toBe(403);
    expect(shown.text).not.toContain('value="approve"');
    const approved = await send(stack.apiUrl, {
      method: 'POST',
      url: '/oauth/authorize',
      headers: { cookie: viewerA.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        ...parameters,
        csrf: viewerA.csrfToken,
        decision: 'approve',
        orgId: String(orgA),
      }).toString(),
    });
    expect(approved.status).toBe(403);
    expect(approved.headers.get('location')).toBeNull();
    expect((await listAssistantGrants(orgA)).map((grant) => grant.clientId)).not.toContain(
      assistant.clientId,
    );
  });
});

describe('another organization’s items', () => {
  it('are not found from a session of another organization, and nothing changes', async () => {
    expect((await adminB.get(`/dashboard/webhooks/${webhookOfA}`)).status).toBe(404);
    expect((await adminB.get(`/dashboard/providers/${connectionOfA}`)).status).toBe(404);
    expect((await adminB.post(`/dashboard/webhooks/${webhookOfA}`, { action: 'delete' })).status).toBe(404);
    expect((await adminB.post(`/dashboard/providers/${connectionOfA}`, { action: 'delete' })).status).toBe(
      404,
    );
    expect(
      (await adminB.post('/dashboard/api-keys', { action: 'revoke', keyId: String(keyOfA) })).status,
    ).toBe(404);
    expect((await listApiKeys(orgA)).find((key) => key.keyId === keyOfA)?.revokedAt).toBeNull();
    expect((await adminA.get(`/dashboard/webhooks/${webhookOfA}`)).status).toBe(200);
    // B's own pages never show A's items.
    expect((await adminB.get('/dashboard/webhooks')).text).not.toContain('hook-a');
  });

  it('cannot be picked: a session switches only to an organization its person belongs to', async () => {
    const answer = await adminB.post('/dashboard/organizations', { orgId: String(orgA) });
    expect(answer.status).toBe(404);
    expect((await adminB.get('/dashboard/members')).text).toContain('Beta Ltd');
  });

  it('approvals of another organization’s campaign are refused', async () => {
    // Both organizations imported the same document: the ids exist in each, under its own partition.
    const pendingOfA = await listPendingApprovals(orgA, 101, 10);
    expect(pendingOfA.length).toBeGreaterThan(0);
    const answer = await adminB.post('/dashboard/approvals', {
      campaign: '999',
      action: 'approve',
      ids: String(pendingOfA[0]!.assignmentId),
    });
    expect(answer.status).toBe(404);
    expect(await listPendingApprovals(orgA, 101, 10)).toEqual(pendingOfA);
  });
});

describe('sessions', () => {
  it('end at sign-out: the cookie is cleared and stops working', async () => {
    const member = await dashboardClient(stack.apiUrl, { orgId: orgA, role: 'viewer' });
    const out = await member.post('/dashboard/sign-out', {});
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe(`${stack.apiUrl}/dashboard/signed-out`);
    expect(out.headers.get('set-cookie')).toMatch(
      new RegExp(`^${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`),
    );
    expect((await member.get('/dashboard')).status).toBe(303);
  });

  it('end after an hour without use', async () => {
    const member = await dashboardClient(stack.apiUrl, { orgId: orgA, role: 'viewer' });
    const value = member.cookie.split('=')[1]!;
    const id = hashSecret(value);
    const stored = (await dashboardSessions.get(id))!;
    await dashboardSessions.remove(id);
    await dashboardSessions.create(id, { ...stored, expiresAt: Math.floor(Date.now() / 1000) - 1 });
    expect((await member.get('/dashboard')).status).toBe(303);
    expect(await resumeSession(value)).toBeNull();
    expect(SESSION_IDLE_SECONDS).toBe(3600);
  });

  it('are kept alive and checked at once: the idle expiry written beside the membership read', async () => {
    const member = await dashboardClient(stack.apiUrl, { orgId: orgA, role: 'viewer' });
    const value = member.cookie.split('=')[1]!;
    const id = hashSecret(value);
    const stored = (await dashboardSessions.get(id))!;
    // Used ten minutes ago: the idle expiry is due to move.
    await dashboardSessions.touch(id, stored.expiresAt - 600);
    const { result: session, calls } = await countRequests(() => resumeSession(value));
    expect(session?.organization).toMatchObject({ orgId: orgA, role: 'viewer' });
    expect(calls.map((call) => call.operation).sort()).toEqual(['BatchGetItem', 'GetItem', 'UpdateItem']);
    const touch = calls.find((call) => call.operation === 'UpdateItem')!;
    const membership = calls.find((call) => call.operation === 'BatchGetItem')!;
    expect(sentTogether(touch, membership)).toBe(true);
    expect((await dashboardSessions.get(id))!.expiresAt).toBeGreaterThanOrEqual(stored.expiresAt);
  });

  it('end at twelve hours whatever their use', async () => {
    const member = await dashboardClient(stack.apiUrl, { orgId: orgA, role: 'viewer' });
    const value = member.cookie.split('=')[1]!;
    const id = hashSecret(value);
    const stored = (await dashboardSessions.get(id))!;
    await dashboardSessions.remove(id);
    await dashboardSessions.create(id, { ...stored, endsAt: Math.floor(Date.now() / 1000) - 1 });
    expect((await member.get('/dashboard')).status).toBe(303);
  });

  it('lose the organization at once when their person is removed from it', async () => {
    const member = await dashboardClient(stack.apiUrl, { orgId: orgA, role: 'admin' });
    const removed = await admin(localDir, [
      'member',
      'remove',
      '--org',
      String(orgA),
      '--email',
      member.email,
    ]);
    expect(removed.code).toBe(0);
    const answer = await member.get('/dashboard/api-keys');
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toContain('/dashboard/organizations');
    expect((await member.post('/dashboard/api-keys', { action: 'create', scope: 'read' })).status).toBe(303);
  });
});

describe('outreach-admin member', () => {
  it('adds a person at the local OpenID provider with a one-time password, lists and removes them', async () => {
    const added = await admin(localDir, [
      'member',
      'add',
      '--org',
      String(orgB),
      '--email',
      'New.Person@Beta.example',
      '--role',
      'viewer',
      '--json',
    ]);
    expect(added.code).toBe(0);
    const member = JSON.parse(added.stdout);
    expect(member).toMatchObject({
      orgId: orgB,
      email: 'new.person@beta.example',
      role: 'viewer',
      invited: false,
    });
    expect(member.oneTimePassword).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const atProvider = await fetch(
      `${stack.openIdProvider!.issuer}/_admin/users?email=new.person@beta.example`,
      {
        headers: { authorization: `Bearer ${stack.openIdProvider!.adminToken}` },
      },
    );
    expect(((await atProvider.json()) as { sub: string }).sub).toBe(member.subject);

    const again = await admin(localDir, [
      'member',
      'add',
      '--org',
      String(orgB),
      '--email',
      'new.person@beta.example',
      '--role',
      'admin',
      '--json',
    ]);
    expect(JSON.parse(again.stdout)).toMatchObject({ role: 'admin', oneTimePassword: null });

    const listed = JSON.parse(
      (await admin(localDir, ['member', 'list', '--org', String(orgB), '--json'])).stdout,
    );
    expect(
      listed.members.map((each: { email: string; role: string }) => [each.email, each.role]),
    ).toContainEqual(['new.person@beta.example', 'admin']);
    expect(
      (
        await admin(localDir, [
          'member',
          'remove',
          '--org',
          String(orgB),
          '--email',
          'new.person@beta.example',
        ])
      ).code,
    ).toBe(0);
    const audit = await adminB.get('/dashboard/audit');
    for (const action of ['member.add', 'member.role', 'member.remove']) expect(audit.text).toContain(action);
    expect(audit.text).toContain('operator (CLI)');
  });

  it('refuses a bad role or email, and an unknown organization', async () => {
    const badRole = await admin(localDir, [
      'member',
      'add',
      '--org',
      String(orgB),
      '--email',
      'x@beta.example',
      '--role',
      'owner',
    ]);
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain('--role must be one of admin, viewer');
    const badEmail = await admin(localDir, [
      'member',
      'add',
      '--org',
      String(orgB),
      '--email',
      'not-an-email',
      '--role',
      'viewer',
    ]);
    expect(badEmail.code).toBe(1);
    const unknown = await admin(localDir, ['member', 'list', '--org', '999999']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('999999');
    const notMember = await admin(localDir, [
      'member',
      'remove',
      '--org',
      String(orgB),
      '--email',
      'nobody@beta.example',
    ]);
    expect(notMember.code).toBe(1);
  });
});
