import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Configuration, KoaContextWithOIDC, Provider } from 'oidc-provider';
import { ADMIN_USERS_PATH, adminApi } from './admin-api.ts';
import { requestTarget } from './http.ts';
import type { interactionPages } from './interactions.ts';
import { type MemoryStore, memoryStore } from './memory-adapter.ts';
import { pageHeaders, problemPage, signedOutPage, signOutPage } from './pages.ts';
import { INTERACTION_TTL_SECONDS, SCOPES } from './settings.ts';
import { loadSigningKeys } from './signing-keys.ts';
import { UserDirectory } from './users.ts';

/**
 * The local stand-in for the dashboard's Cognito user pool: a real OpenID
 * provider (panva's certified oidc-provider) on loopback, so the dashboard's
 * relying-party code (authorization code with PKCE S256 as a public client,
 * the ID token verified against the issuer's JWKS) runs the same locally as
 * on AWS. It serves the protocol endpoints, its own sign-in pages (with the
 * first-sign-in password change of a user created with a one-time password)
 * and an admin API for the users, on one node:http server. See
 * docs/openid-provider.md.
 */

export interface OpenIdProviderOptions {
  /** 0 picks a free port. */
  port: number;
  /** The address to listen on, and the host of the issuer; default 127.0.0.1. */
  host?: string;
  /** When given, users persist in `<dataDir>/openid-users.json` and the signing keys in `openid-keys.json`. */
  dataDir?: string;
  /** The bearer token the admin API requires. */
  adminToken: string;
  clients: { clientId: string; redirectUris: string[]; postLogoutRedirectUris?: string[] }[];
}

export interface OpenIdProvider {
  /** `http://HOST:PORT`, no trailing slash. */
  issuer: string;
  stop(): Promise<void>;
}

const HOUR_SECONDS = 60 * 60;

/** The origins a form on the provider's pages may end up at, through the provider's redirects. */
const clientOrigins = (clients: OpenIdProviderOptions['clients']) => [
  ...new Set(
    clients.flatMap((client) =>
      [...client.redirectUris, ...(client.postLogoutRedirectUris ?? [])].map((uri) => new URL(uri).origin),
    ),
  ),
];

/** A page of oidc-provider's own (an error, the sign-out), with the provider's headers. */
function renderPage(ctx: KoaContextWithOIDC, html: string, formTargetOrigins: readonly string[]) {
  for (const [name, value] of Object.entries(pageHeaders(formTargetOrigins))) ctx.set(name, value);
  ctx.type = 'html';
  ctx.body = html;
}

function providerConfiguration(
  options: OpenIdProviderOptions,
  users: UserDirectory,
  store: MemoryStore,
  jwks: Configuration['jwks'],
): Configuration {
  const formTargetOrigins = clientOrigins(options.clients);
  return {
    adapter: store.adapter,
    clients: options.clients.map((client) => ({
      client_id: client.clientId,
      redirect_uris: client.redirectUris,
      post_logout_redirect_uris: client.postLogoutRedirectUris ?? [],
      application_type: 'web',
      // A public client, as the dashboard is at Cognito (an app client without a secret): PKCE stands in.
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      id_token_signed_response_alg: 'RS256',
    })),
    clientAuthMethods: ['none'],
    responseTypes: ['code'],
    pkce: { methods: ['S256'], required: () => true },
    // The dashboard always sends its redirect_uri, as Cognito requires; a request without one is refused.
    allowOmittingSingleRegisteredRedirectUri: false,
    scopes: [...SCOPES],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      auth_time: null,
      iss: null,
      sid: null,
    },
    subjectTypes: ['public'],
    enabledJWA: { idTokenSigningAlgValues: ['RS256'] },
    jwks,
    // Sign-in state lives in memory only; the cookies that point at it are signed with keys of this run.
    cookies: {
      keys: [randomBytes(32).toString('base64url')],
      // Plain http on loopback: no Secure flag, and Lax (a SameSite=None cookie without Secure is dropped).
      long: { httpOnly: true, sameSite: 'lax', secure: false },
      short: { httpOnly: true, sameSite: 'lax', secure: false },
    },
    ttl: {
      AccessToken: HOUR_SECONDS,
      AuthorizationCode: 60,
      Grant: 24 * HOUR_SECONDS,
      IdToken: HOUR_SECONDS,
      Interaction: INTERACTION_TTL_SECONDS,
      Session: 24 * HOUR_SECONDS,
    },
    features: {
      // The provider's own pages (interactions.ts) replace the development ones.
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => renderPage(ctx, signOutPage(form), formTargetOrigins),
        postLogoutSuccessSource: async (ctx) => renderPage(ctx, signedOutPage(), formTargetOrigins),
      },
      // The dashboard reads who signed in from the ID token alone (as from Cognito's), so no userinfo, and
      // none of the other features oidc-provider has on by default.
      userinfo: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      resourceIndicators: { enabled: false },
    },
    // The token endpoint is called by the dashboard's server, never from a page: no CORS for it.
    clientBasedCORS: () => false,
    async findAccount(_ctx, sub) {
      const user = users.findBySub(sub);
      if (!user) return undefined;
      return {
        accountId: user.sub,
        // Only the admin API makes users, each for an address it was given: the email counts as verified.
        claims: async () => ({ sub: user.sub, email: user.email, email_verified: true }),
      };
    },
    async renderError(ctx, out) {
      renderPage(
        ctx,
        problemPage({
          title: 'Sign-in could not continue',
          message: out.error_description ?? out.error,
          detail: `Error: ${out.error}. Go back to the application and sign in again.`,
        }),
        formTargetOrigins,
      );
    },
  };
}

function listen(server: ReturnType<typeof createServer>, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Starts the provider; its issuer is known once it listens (the port may be picked by the OS). */
export async function startOpenIdProvider(options: OpenIdProviderOptions): Promise<OpenIdProvider> {
  if (!options.adminToken) throw new Error('The OpenID provider needs an admin token');
  const host = options.host ?? '127.0.0.1';
  if (options.dataDir !== undefined) mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const dataFile = (name: string) =>
    options.dataDir === undefined ? undefined : join(options.dataDir, name);
  const [users, jwks] = await Promise.all([
    UserDirectory.open(dataFile('openid-users.json')),
    loadSigningKeys(dataFile('openid-keys.json')),
  ]);

  const server = createServer();
  const port = await listen(server, options.port, host);
  const issuer = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const store = memoryStore();
  const answerAdmin = adminApi(users, options.adminToken, store.forgetAccount);
  // oidc-provider is hundreds of modules (most of a second of CPU under tsx): it loads on the first
  // request that needs it, so a local start spends that second on nothing while it seeds.
  let protocol:
    | Promise<{
        answerInteraction: ReturnType<typeof interactionPages>;
        answerProtocol: ReturnType<Provider['callback']>;
      }>
    | undefined;
  const protocolAnswers = () =>
    (protocol ??= Promise.all([import('oidc-provider'), import('./interactions.ts')]).then(
      ([{ Provider }, { interactionPages }]) => {
        const provider = new Provider(issuer, providerConfiguration(options, users, store, jwks));
        provider.on('server_error', (_ctx, error) => console.error('OpenID provider: server error', error));
        return {
          answerInteraction: interactionPages(provider, users, clientOrigins(options.clients)),
          answerProtocol: provider.callback(),
        };
      },
    ));

  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const { path, query } = requestTarget(request);
    if (path === ADMIN_USERS_PATH || path.startsWith(`${ADMIN_USERS_PATH}/`))
      await answerAdmin(request, response, path, query);
    else if (path.startsWith('/interaction/'))
      await (await protocolAnswers()).answerInteraction(request, response, path);
    else await (await protocolAnswers()).answerProtocol(request, response);
  };
  // Attached before the event loop turns after listening: no request is read before the provider exists.
  server.on('request', (request, response) => {
    answer(request, response).catch((error: unknown) => {
      console.error('OpenID provider: request failed', error);
      if (response.headersSent) response.destroy();
      else
        response
          .writeHead(500, { 'content-type': 'application/json' })
          .end('{"message":"Internal server error"}');
    });
  });

  return {
    issuer,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
