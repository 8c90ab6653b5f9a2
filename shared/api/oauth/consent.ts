import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { type Html, html } from '#api/dashboard/html.ts';
import { cookieOf, formOf, htmlResponse, sessionCookieName } from '#api/dashboard/http.ts';
import { csrfField, notice, publicPage } from '#api/dashboard/layout.ts';
import { publicBaseUrl } from '#api/http/base-url.ts';
import { MCP_SCOPE } from '#definitions/oauth-scope.ts';
import { csrfTokenMatches, type DashboardSession, resumeSession } from '#domain/dashboard-sessions.ts';
import { DomainError, MetadataDocumentFetchLimitReached } from '#domain/errors.ts';
import { organizationsOf } from '#domain/members.ts';
import { type AuthorizationClient, resolveAuthorizationClient } from '#domain/oauth-clients.ts';
import { isS256CodeChallenge } from '#domain/oauth-grants.ts';
import { redirectUriProblem } from '#domain/oauth-redirect-uris.ts';
import { configuration } from '#platform/config.ts';
import { approveAssistant } from '#use-cases/approve-assistant.ts';
import { mcpResource } from './metadata.ts';
import { requestParameters } from './requests.ts';

/**
 * The authorization endpoint of the code flow (PKCE S256 required), with the
 * dashboard's session as the proof of who approves: a person signed in to
 * the dashboard (sign-in first if need be, then back here) picks one of the
 * organizations they are an admin of (an operator's client: its own
 * organization only) and approves or denies. Approving records the
 * organization's grant of the client and redirects back with a single-use
 * code. With an unknown client, or a redirect URI the client did not
 * register, nothing is redirected, not even an error.
 */

const FORWARDED = [
  'response_type',
  'client_id',
  'redirect_uri',
  'code_challenge',
  'code_challenge_method',
  'state',
  'scope',
  'resource',
];

/** The page's CSP lets its form lead to the client's redirect URI: Chromium applies form-action to the redirect. */
function page(
  base: string,
  status: number,
  title: string,
  body: Html,
  redirectOrigin?: string,
): APIGatewayProxyResult {
  const answer = htmlResponse(status, publicPage(base, title, body));
  const formAction = redirectOrigin ? `'self' ${redirectOrigin}` : "'self'";
  answer.headers = {
    ...answer.headers,
    'content-security-policy': `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
  };
  return answer;
}

function redirect(
  redirectUri: string,
  parameters: Record<string, string | undefined>,
): APIGatewayProxyResult {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters))
    if (value !== undefined) url.searchParams.set(name, value);
  return { statusCode: 302, headers: { location: url.toString(), 'cache-control': 'no-store' }, body: '' };
}

/** The organizations the person may connect the client to: theirs as an admin, an operator client's own only. */
async function organizationsFor(session: DashboardSession, client: AuthorizationClient) {
  const mine = (await organizationsOf(session.subject)).filter(
    (organization) => organization.role === 'admin',
  );
  return client.orgId === null ? mine : mine.filter((organization) => organization.orgId === client.orgId);
}

/** Where the client sends the person back, for the consent page's words. */
const destination = (redirectUri: string) => {
  const url = new URL(redirectUri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : url.protocol;
};

/** The client the request names, or the 429 page when its metadata document may not be fetched now. */
async function clientOf(
  event: APIGatewayProxyEvent,
  base: string,
  clientId: string | undefined,
): Promise<{ client: AuthorizationClient | null } | { refusal: APIGatewayProxyResult }> {
  if (!clientId) return { client: null };
  try {
    return { client: await resolveAuthorizationClient(clientId, event.requestContext.identity.sourceIp) };
  } catch (error) {
    if (!(error instanceof MetadataDocumentFetchLimitReached)) throw error;
    const refusal = page(
      base,
      429,
      'Too many requests',
      html`<p>${error.message}. Try again in a minute.</p>`,
    );
    refusal.headers = { ...refusal.headers, 'retry-after': String(error.retryAfterSeconds) };
    return { refusal };
  }
}

export async function serveConsent(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const base = publicBaseUrl(event);
  const parameters = requestParameters(event);
  const resolved = await clientOf(event, base, parameters.client_id);
  if ('refusal' in resolved) return resolved.refusal;
  const { client } = resolved;
  if (!client)
    return page(base, 400, 'Unknown client', html`<p>This application is not registered, or no longer.</p>`);
  const redirectUri = parameters.redirect_uri;
  if (
    !redirectUri ||
    !client.redirectUris.includes(redirectUri) ||
    redirectUriProblem(redirectUri, client.kind === 'operator' ? 'operator' : 'client')
  ) {
    return page(
      base,
      400,
      'Invalid redirect URI',
      html`<p>The redirect URI is not one this application registered.</p>`,
    );
  }
  const fail = (error: string, description: string) =>
    redirect(redirectUri, { error, error_description: description, state: parameters.state, iss: base });
  if (parameters.response_type !== 'code')
    return fail('unsupported_response_type', 'response_type must be code');
  if (!parameters.code_challenge || parameters.code_challenge_method !== 'S256')
    return fail('invalid_request', 'PKCE with code_challenge_method S256 is required');
  if (!isS256CodeChallenge(parameters.code_challenge))
    return fail(
      'invalid_request',
      'code_challenge must be the base64url SHA-256 of the code verifier: 43 characters, no padding',
    );
  if (parameters.resource !== undefined && parameters.resource !== mcpResource(base))
    return fail('invalid_target', 'Unknown resource');
  if (parameters.scope?.split(' ').some((scope) => scope !== MCP_SCOPE))
    return fail('invalid_scope', `The only scope is ${MCP_SCOPE}`);

  const session = await resumeSession(
    cookieOf(event, sessionCookieName(configuration().dashboard.secureCookies)),
  );
  const query = new URLSearchParams(
    FORWARDED.filter((name) => parameters[name] !== undefined).map((name): [string, string] => [
      name,
      parameters[name]!,
    ]),
  );
  const here = `/oauth/authorize?${query.toString()}`;
  const origin = new URL(redirectUri).protocol.startsWith('http') ? new URL(redirectUri).origin : undefined;
  if (!session) {
    if (event.httpMethod === 'GET')
      return {
        statusCode: 303,
        headers: {
          location: `${base}/dashboard/sign-in?return_to=${encodeURIComponent(here)}`,
          'cache-control': 'no-store',
        },
        body: '',
      };
    return page(
      base,
      401,
      'Your session has ended',
      html`<p>Nothing was approved. <a href="${base}${here}">Sign in and try again</a>.</p>`,
    );
  }
  const organizations = await organizationsFor(session, client);
  if (event.httpMethod === 'POST') {
    const form = formOf(event);
    if (!form || !csrfTokenMatches(session, form.get('csrf')))
      return page(
        base,
        403,
        'Form refused',
        html`<p>This form was not sent by a page of your session. Nothing was approved. <a href="${base}${here}">Start again</a>.</p>`,
      );
    if (form.get('decision') !== 'approve') return fail('access_denied', 'The request was denied');
    const orgId = Number(form.get('orgId'));
    if (!organizations.some((organization) => organization.orgId === orgId))
      return page(
        base,
        403,
        'Not allowed',
        html`<p>You are not an admin of that organization. Nothing was approved.</p>`,
      );
    try {
      const code = await approveAssistant({
        orgId,
        client,
        approvedBy: session.email,
        redirectUri,
        codeChallenge: parameters.code_challenge,
        resource: mcpResource(base),
        scope: MCP_SCOPE,
      });
      return redirect(redirectUri, { code, state: parameters.state, iss: base });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return page(base, 400, 'Unknown client', html`<p>${error.message}</p>`);
    }
  }
  if (organizations.length === 0) {
    return page(
      base,
      403,
      'No organization to connect',
      html`<p>${session.email} is not an admin of ${client.orgId === null ? 'any organization' : `organization ${client.orgId}`}: an admin approves assistants.</p>`,
    );
  }
  const registeredBy =
    client.kind === 'operator'
      ? html`<p>Your operator created this client for organization ${client.orgId}.</p>`
      : html`<p>This assistant registered itself${client.kind === 'metadata-document' ? html` (its identity: <code>${client.clientId}</code>)` : ''}. Approve it only if you are connecting it now.</p>`;
  return page(
    base,
    200,
    'Authorize access',
    html`<p><strong>${client.name}</strong> asks for read-only access (${MCP_SCOPE}) to an organization’s campaigns, accounts, contacts and jobs. After you decide, you return to <strong>${destination(redirectUri)}</strong>.</p>
${registeredBy}${client.kind !== 'operator' ? notice('ok', 'Never approve an assistant you did not just connect yourself.') : null}
<form method="post" action="${base}/oauth/authorize">${csrfField(session.csrfToken)}${FORWARDED.filter((name) => parameters[name] !== undefined).map((name) => html`<input type="hidden" name="${name}" value="${parameters[name]!}">`)}
<fieldset><legend>Organization</legend>${organizations.map(
      (organization, index) =>
        html`<label class="check"><input type="radio" name="orgId" value="${organization.orgId}"${index === 0 ? html` checked` : ''}> ${organization.name}</label>`,
    )}</fieldset>
<p>Signed in as ${session.email}.</p>
<button class="primary" type="submit" name="decision" value="approve">Approve</button> <button type="submit" name="decision" value="deny">Deny</button>
</form>`,
    origin,
  );
}
