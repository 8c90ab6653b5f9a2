import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenIdProvider, startOpenIdProvider } from '../../infra/local/openid-provider/index.ts';

/*
 * The local OpenID provider (infra/local/openid-provider/) as the dashboard
 * and the operator meet it: discovery, the authorization code flow with PKCE
 * driven as a browser drives it (plain fetch, cookies kept, redirects
 * followed by hand, forms submitted where their action points), the ID token
 * verified with jose against the published keys, the admin API, and a
 * restart over the same data folder.
 */

const ADMIN_TOKEN = 'admin-token-for-tests';
const CLIENT_ID = 'dashboard';
// Nothing listens there: the flow stops at the redirect to it, where the code is.
const REDIRECT_URI = 'http://127.0.0.1:9/dashboard/callback';
const SIGNED_OUT_URI = 'http://127.0.0.1:9/dashboard/signed-out';
const CLIENTS = [
  { clientId: CLIENT_ID, redirectUris: [REDIRECT_URI], postLogoutRedirectUris: [SIGNED_OUT_URI] },
];
const PERMANENT_PASSWORD = 'correct horse battery staple';

type Json = Record<string, unknown>;

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  end_session_endpoint: string;
  [field: string]: unknown;
}

const discover = async (issuer: string) =>
  (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as Discovery;

interface StoredCookie {
  name: string;
  value: string;
  path: string;
}

/** A browser as far as the flow needs one: cookies kept by name and path, redirects not followed on its own. */
class Browser {
  private readonly cookies = new Map<string, StoredCookie>();

  async request(url: string, form?: Record<string, string>): Promise<Response> {
    const target = new URL(url);
    const cookie = [...this.cookies.values()]
      .filter((stored) => target.pathname.startsWith(stored.path))
      .map((stored) => `${stored.name}=${stored.value}`)
      .join('; ');
    const headers: Record<string, string> = cookie ? { cookie } : {};
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(target, {
      method: form ? 'POST' : 'GET',
      headers,
      body: form ? new URLSearchParams(form) : undefined,
      redirect: 'manual',
    });
    for (const header of response.headers.getSetCookie()) this.keep(header);
    return response;
  }

  /**
   * Requests `url` and follows the redirects that stay at `origin`; answers the first response that is not
   * one (a page, or a redirect away, such as the one to the client with its code).
   */
  async navigate(origin: string, url: string, form?: Record<string, string>): Promise<Response> {
    let response = await this.request(url, form);
    for (let hops = 0; hops < 10; hops += 1) {
      const location = response.headers.get('location');
      if (response.status < 300 || response.status > 399 || !location) return response;
      const next = new URL(location, url);
      if (next.origin !== origin) return response;
      await response.arrayBuffer();
      url = next.href;
      response = await this.request(url);
    }
    throw new Error(`Too many redirects from ${url}`);
  }

  private keep(header: string) {
    const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
    const separator = pair.indexOf('=');
    const name = pair.slice(0, separator);
    const value = pair.slice(separator + 1);
    const attribute = (wanted: string) =>
      attributes.find((part) => part.toLowerCase().startsWith(`${wanted}=`))?.slice(wanted.length + 1);
    const path = attribute('path') ?? '/';
    const expires = attribute('expires');
    const key = `${path} ${name}`;
    // A cookie is deleted by setting it empty and expired; oidc-provider's expiries are far in the future.
    if (value === '' || (expires !== undefined && Date.parse(expires) <= Date.now()))
      this.cookies.delete(key);
    else this.cookies.set(key, { name, value, path });
  }
}

/** The action of the page's form (the only one the provider's pages have). */
function formAction(html: string, base: string): string {
  const action = /<form[^>]* action="([^"]+)"/.exec(html)?.[1];
  if (action === undefined) throw new Error(`No form in the page:\n${html}`);
  return new URL(action.replaceAll('&amp;', '&'), base).href;
}

const roleAlert = (html: string) => /<p class="alert" role="alert"[^>]*>([^<]*)<\/p>/.exec(html)?.[1];

interface AuthorizationRequest {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

function authorizationRequest(
  discovery: Discovery,
  changes: Record<string, string | undefined> = {},
): AuthorizationRequest {
  const codeVerifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const nonce = randomBytes(16).toString('base64url');
  const parameters: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    scope: 'openid email',
    state,
    nonce,
    code_challenge: createHash('sha256').update(codeVerifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...changes,
  };
  const query = new URLSearchParams(
    Object.entries(parameters).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return { url: `${discovery.authorization_endpoint}?${query}`, state, nonce, codeVerifier };
}

/** Where a response sends the browser at the client, with the redirect's query. */
function clientRedirect(response: Response): URL {
  expect(response.status).toBe(303);
  const location = new URL(response.headers.get('location')!);
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
  return location;
}

function adminClient(issuer: string, token: string | null = ADMIN_TOKEN) {
  return async (method: string, path: string, body?: Json) => {
    const response = await fetch(`${issuer}/_admin/users${path}`, {
      method,
      headers: {
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as Json | null };
  };
}

/** Signs in from the authorization request to the redirect at the client, for a user with a permanent password. */
async function signIn(discovery: Discovery, email: string, password: string, browser = new Browser()) {
  const request = authorizationRequest(discovery);
  const signInPage = await browser.navigate(discovery.issuer, request.url);
  expect(signInPage.status).toBe(200);
  const answer = await browser.navigate(discovery.issuer, formAction(await signInPage.text(), request.url), {
    email,
    password,
  });
  return { request, callback: clientRedirect(answer) };
}

async function redeem(discovery: Discovery, code: string, codeVerifier: string) {
  const response = await fetch(discovery.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: CLIENT_ID,
      code_verifier: codeVerifier,
    }),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

async function verifiedIdToken(discovery: Discovery, idToken: unknown) {
  const keys = createRemoteJWKSet(new URL(discovery.jwks_uri));
  const { payload } = await jwtVerify(idToken as string, keys, {
    issuer: discovery.issuer,
    audience: CLIENT_ID,
  });
  return payload;
}

describe('the local OpenID provider', () => {
  let provider: OpenIdProvider;
  let discovery: Discovery;
  const admin = () => adminClient(provider.issuer);

  /** A user with a permanent password, as the browser tests make one. */
  async function userWithPassword(email: string) {
    const created = await admin()('POST', '', { email });
    expect(created.status).toBe(201);
    const sub = created.body!.sub as string;
    expect((await admin()('POST', `/${sub}/password`, { password: PERMANENT_PASSWORD })).status).toBe(204);
    return sub;
  }

  beforeAll(async () => {
    provider = await startOpenIdProvider({ port: 0, adminToken: ADMIN_TOKEN, clients: CLIENTS });
    discovery = await discover(provider.issuer);
  });

  afterAll(async () => {
    await provider?.stop();
  });

  it('publishes its discovery document', () => {
    const { issuer } = provider;
    expect(issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(discovery).toMatchObject({
      issuer,
      authorization_endpoint: `${issuer}/auth`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/jwks`,
      end_session_endpoint: `${issuer}/session/end`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      id_token_signing_alg_values_supported: ['RS256'],
      subject_types_supported: ['public'],
    });
    expect(discovery.scopes_supported).toEqual(expect.arrayContaining(['openid', 'email']));
    expect(discovery.claims_supported).toEqual(expect.arrayContaining(['sub', 'email', 'email_verified']));
    expect(discovery).not.toHaveProperty('userinfo_endpoint');
    expect(discovery).not.toHaveProperty('pushed_authorization_request_endpoint');
  });

  it('publishes an RS256 signing key, public part only', async () => {
    const { keys } = (await (await fetch(discovery.jwks_uri)).json()) as { keys: Json[] };
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(keys[0]).not.toHaveProperty('d');
  });

  it('signs in a new user with the one-time password, makes them choose a password, and issues a verified ID token', async () => {
    const created = await admin()('POST', '', { email: 'New.Member@Example.com' });
    expect(created.status).toBe(201);
    const { sub, oneTimePassword } = created.body as { sub: string; oneTimePassword: string };
    expect(created.body).toMatchObject({ email: 'new.member@example.com' });
    expect(sub).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(oneTimePassword).toMatch(/^[A-Za-z0-9_-]{16}$/);

    const request = authorizationRequest(discovery);
    const browser = new Browser();
    const signInResponse = await browser.navigate(provider.issuer, request.url);
    expect(signInResponse.status).toBe(200);
    const csp = signInResponse.headers.get('content-security-policy');
    expect(csp).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http://127.0.0.1:9; frame-ancestors 'none'",
    );
    const signInHtml = await signInResponse.text();
    expect(signInHtml).toContain('<html lang="en">');
    expect(signInHtml).toContain('<h1>Sign in</h1>');
    expect(signInHtml).toContain('<label for="email">Email</label>');
    expect(signInHtml).toContain('<label for="password">Password</label>');
    expect(signInHtml).toContain('<button type="submit">Sign in</button>');
    expect(signInHtml).not.toContain('<script');
    expect(roleAlert(signInHtml)).toBeUndefined();

    // The email as typed, in another case: users are found by the lower-cased address.
    const passwordResponse = await browser.navigate(provider.issuer, formAction(signInHtml, request.url), {
      email: 'NEW.member@example.com',
      password: oneTimePassword,
    });
    expect(passwordResponse.status).toBe(200);
    const passwordHtml = await passwordResponse.text();
    expect(passwordHtml).toContain('<h1>Choose a new password</h1>');
    expect(passwordHtml).toContain('<label for="new_password">New password</label>');
    expect(passwordHtml).toContain('<label for="confirm_password">Confirm new password</label>');
    expect(passwordHtml).toContain('<button type="submit">Set password</button>');
    const setPasswordUrl = formAction(passwordHtml, request.url);

    const refusals = [
      [{ new_password: PERMANENT_PASSWORD, confirm_password: `${PERMANENT_PASSWORD}!` }, 'do not match'],
      [{ new_password: 'too short', confirm_password: 'too short' }, 'at least 12 characters'],
      [
        { new_password: oneTimePassword, confirm_password: oneTimePassword },
        'differ from the one-time password',
      ],
    ] as const;
    for (const [form, message] of refusals) {
      const refused = await browser.navigate(provider.issuer, setPasswordUrl, form);
      expect(refused.status).toBe(400);
      expect(roleAlert(await refused.text())).toContain(message);
    }
    expect((await admin()('GET', `?email=new.member@example.com`)).body).toMatchObject({
      mustChangePassword: true,
    });

    const finished = await browser.navigate(provider.issuer, setPasswordUrl, {
      new_password: PERMANENT_PASSWORD,
      confirm_password: PERMANENT_PASSWORD,
    });
    const callback = clientRedirect(finished);
    expect(callback.searchParams.get('state')).toBe(request.state);
    expect(callback.searchParams.get('iss')).toBe(provider.issuer);
    const code = callback.searchParams.get('code');
    expect(code).toBeTruthy();

    const tokens = await redeem(discovery, code!, request.codeVerifier);
    expect(tokens.status).toBe(200);
    expect(tokens.body).not.toHaveProperty('refresh_token');
    const claims = await verifiedIdToken(discovery, tokens.body.id_token);
    expect(claims).toMatchObject({
      sub,
      email: 'new.member@example.com',
      email_verified: true,
      nonce: request.nonce,
      aud: CLIENT_ID,
      iss: provider.issuer,
    });

    // The code is good once.
    expect((await redeem(discovery, code!, request.codeVerifier)).body).toMatchObject({
      error: 'invalid_grant',
    });
    expect((await admin()('GET', `?email=new.member@example.com`)).body).toMatchObject({
      sub,
      mustChangePassword: false,
    });

    // The one-time password no longer opens anything; the chosen one signs in straight to the client.
    const again = authorizationRequest(discovery);
    const otherBrowser = new Browser();
    const page = await otherBrowser.navigate(provider.issuer, again.url);
    const withOneTimePassword = await otherBrowser.navigate(
      provider.issuer,
      formAction(await page.text(), again.url),
      { email: 'new.member@example.com', password: oneTimePassword },
    );
    expect(withOneTimePassword.status).toBe(401);
    expect(roleAlert(await withOneTimePassword.text())).toBe('Incorrect email or password');
    const { callback: second } = await signIn(discovery, 'new.member@example.com', PERMANENT_PASSWORD);
    expect(second.searchParams.get('code')).toBeTruthy();
  });

  it('refuses a wrong password or an unknown email with the same alert, and issues no code', async () => {
    await userWithPassword('wrong.password@example.com');
    for (const credentials of [
      { email: 'wrong.password@example.com', password: 'not the password at all' },
      { email: 'nobody@example.com', password: PERMANENT_PASSWORD },
    ]) {
      const request = authorizationRequest(discovery);
      const browser = new Browser();
      const page = await browser.navigate(provider.issuer, request.url);
      const refused = await browser.navigate(
        provider.issuer,
        formAction(await page.text(), request.url),
        credentials,
      );
      expect(refused.status).toBe(401);
      expect(refused.headers.get('location')).toBeNull();
      const html = await refused.text();
      expect(roleAlert(html)).toBe('Incorrect email or password');
      expect(html).toContain(`value="${credentials.email}"`);
      expect(html).toContain('aria-invalid="true"');
    }
  });

  it('refuses an authorization request without PKCE, with plain PKCE, or to an unregistered redirect_uri', async () => {
    const browser = new Browser();
    for (const changes of [
      { code_challenge: undefined, code_challenge_method: undefined },
      { code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' },
    ]) {
      const refused = clientRedirect(
        await browser.navigate(provider.issuer, authorizationRequest(discovery, changes).url),
      );
      expect(refused.searchParams.get('error')).toBe('invalid_request');
      expect(refused.searchParams.has('code')).toBe(false);
    }

    // An unregistered redirect_uri is never redirected to: the error is shown at the provider.
    const elsewhere = await browser.navigate(
      provider.issuer,
      authorizationRequest(discovery, { redirect_uri: 'http://127.0.0.1:9/elsewhere' }).url,
    );
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.headers.get('location')).toBeNull();
    expect(roleAlert(await elsewhere.text())).toContain('redirect_uri');
  });

  it('refuses to redeem a code with another code_verifier', async () => {
    await userWithPassword('verifier@example.com');
    const { callback } = await signIn(discovery, 'verifier@example.com', PERMANENT_PASSWORD);
    const refused = await redeem(
      discovery,
      callback.searchParams.get('code')!,
      randomBytes(32).toString('base64url'),
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'invalid_grant' });
  });

  it('answers a form posted without the sign-in cookie with the expired-sign-in page', async () => {
    const request = authorizationRequest(discovery);
    const page = await new Browser().navigate(provider.issuer, request.url);
    const action = formAction(await page.text(), request.url);
    const cookieless = await new Browser().request(action, { email: 'a@example.com', password: 'whatever' });
    expect(cookieless.status).toBe(400);
    expect(roleAlert(await cookieless.text())).toContain('expired');
  });

  it('keeps the sign-in for the next authorization request, until the end-session endpoint ends it', async () => {
    await userWithPassword('session@example.com');
    const browser = new Browser();
    await signIn(discovery, 'session@example.com', PERMANENT_PASSWORD, browser);
    const signedIn = clientRedirect(
      await browser.navigate(provider.issuer, authorizationRequest(discovery).url),
    );
    expect(signedIn.searchParams.get('code')).toBeTruthy();

    const endSession = `${discovery.end_session_endpoint}?${new URLSearchParams({
      client_id: CLIENT_ID,
      post_logout_redirect_uri: SIGNED_OUT_URI,
      state: 'after-sign-out',
    })}`;
    const confirmation = await browser.navigate(provider.issuer, endSession);
    expect(confirmation.status).toBe(200);
    expect(confirmation.headers.get('content-security-policy')).toContain(
      "form-action 'self' http://127.0.0.1:9",
    );
    const html = await confirmation.text();
    expect(html).toContain('<h1>Sign out</h1>');
    expect(html).not.toContain('<script');
    const signedOut = await browser.navigate(provider.issuer, formAction(html, endSession), {
      xsrf: /name="xsrf" value="([^"]+)"/.exec(html)![1]!,
      logout: 'yes',
    });
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get('location')).toBe(`${SIGNED_OUT_URI}?state=after-sign-out`);

    const afterwards = await browser.navigate(provider.issuer, authorizationRequest(discovery).url);
    expect(afterwards.status).toBe(200);
    expect(await afterwards.text()).toContain('<h1>Sign in</h1>');
  });

  it('signs a deleted user out: their code is refused and their browser is asked to sign in again', async () => {
    const sub = await userWithPassword('deleted@example.com');
    const browser = new Browser();
    await signIn(discovery, 'deleted@example.com', PERMANENT_PASSWORD, browser);
    const pending = authorizationRequest(discovery);
    const code = clientRedirect(await browser.navigate(provider.issuer, pending.url)).searchParams.get(
      'code',
    )!;

    expect((await admin()('DELETE', `/${sub}`)).status).toBe(204);
    expect((await redeem(discovery, code, pending.codeVerifier)).body).toMatchObject({
      error: 'invalid_grant',
    });
    const afterwards = await browser.navigate(provider.issuer, authorizationRequest(discovery).url);
    expect(afterwards.status).toBe(200);
    expect(await afterwards.text()).toContain('<h1>Sign in</h1>');
  });

  it('keeps its admin API behind the bearer token', async () => {
    for (const token of [null, 'not-the-token']) {
      const refused = await adminClient(provider.issuer, token)('GET', '');
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ message: expect.any(String) });
    }
  });

  it('creates, lists, finds, gives a password to and deletes users through the admin API', async () => {
    const created = await admin()('POST', '', { email: 'Admin.Made@example.com' });
    expect(created.status).toBe(201);
    const sub = created.body!.sub as string;

    const again = await admin()('POST', '', { email: 'admin.made@EXAMPLE.com' });
    expect(again).toEqual({
      status: 200,
      body: { sub, email: 'admin.made@example.com', oneTimePassword: null },
    });

    const invalid = await admin()('POST', '', { email: 'not an email' });
    expect(invalid.status).toBe(400);
    expect(invalid.body!.message).toMatch(/^Invalid body field 'email'/);

    const listed = await admin()('GET', '');
    expect(listed.status).toBe(200);
    expect(listed.body!.users).toContainEqual({
      sub,
      email: 'admin.made@example.com',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      mustChangePassword: true,
    });

    const found = await admin()('GET', `?email=${encodeURIComponent('ADMIN.made@example.com')}`);
    expect(found).toMatchObject({ status: 200, body: { sub, email: 'admin.made@example.com' } });
    expect((await admin()('GET', '?email=unknown@example.com')).status).toBe(404);

    expect((await admin()('POST', `/${sub}/password`, { password: 'short' })).status).toBe(400);
    expect((await admin()('POST', `/${sub}/password`, { password: PERMANENT_PASSWORD })).status).toBe(204);
    expect((await admin()('GET', `?email=admin.made@example.com`)).body).toMatchObject({
      mustChangePassword: false,
    });
    expect(
      (
        await admin()('POST', '/00000000-0000-4000-8000-000000000000/password', {
          password: PERMANENT_PASSWORD,
        })
      ).status,
    ).toBe(404);

    expect((await admin()('DELETE', `/${sub}`)).status).toBe(204);
    expect((await admin()('DELETE', `/${sub}`)).status).toBe(404);
    expect((await admin()('GET', `?email=admin.made@example.com`)).status).toBe(404);
    expect((await admin()('GET', '')).body!.users).not.toContainEqual(expect.objectContaining({ sub }));
  });

  it('refuses an admin body over 16 KiB', async () => {
    const response = await admin()('POST', '', { email: `${'a'.repeat(17 * 1024)}@example.com` });
    expect(response.status).toBe(413);
  });
});

describe('the local OpenID provider with a data folder', () => {
  let dataDir: string;
  let provider: OpenIdProvider | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'openid-provider-'));
  });

  afterAll(async () => {
    await provider?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps users and signing keys across a restart', async () => {
    provider = await startOpenIdProvider({ port: 0, dataDir, adminToken: ADMIN_TOKEN, clients: CLIENTS });
    const before = await discover(provider.issuer);
    const admin = adminClient(provider.issuer);
    const sub = (await admin('POST', '', { email: 'kept@example.com' })).body!.sub as string;
    expect((await admin('POST', `/${sub}/password`, { password: PERMANENT_PASSWORD })).status).toBe(204);
    const first = await signIn(before, 'kept@example.com', PERMANENT_PASSWORD);
    const earlierToken = (
      await redeem(before, first.callback.searchParams.get('code')!, first.request.codeVerifier)
    ).body.id_token;

    for (const file of ['openid-users.json', 'openid-keys.json'])
      expect((await stat(join(dataDir, file))).mode & 0o777).toBe(0o600);

    // The same port, so the same issuer, as `npm start` gives it.
    const port = Number(new URL(provider.issuer).port);
    await provider.stop();
    provider = await startOpenIdProvider({ port, dataDir, adminToken: ADMIN_TOKEN, clients: CLIENTS });
    const after = await discover(provider.issuer);
    expect(after.issuer).toBe(before.issuer);

    expect((await adminClient(provider.issuer)('GET', '?email=kept@example.com')).body).toMatchObject({
      sub,
      mustChangePassword: false,
    });
    const second = await signIn(after, 'kept@example.com', PERMANENT_PASSWORD);
    const laterTokens = await redeem(
      after,
      second.callback.searchParams.get('code')!,
      second.request.codeVerifier,
    );
    expect(await verifiedIdToken(after, laterTokens.body.id_token)).toMatchObject({
      sub,
      email: 'kept@example.com',
    });
    // Issued before the restart, verified against the keys published after it.
    expect(await verifiedIdToken(after, earlierToken)).toMatchObject({ sub, nonce: first.request.nonce });
  });
});
