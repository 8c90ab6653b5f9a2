import type { APIGatewayProxyResult } from 'aws-lambda';
import { publicBaseUrl } from '#api/http/base-url.ts';
import { defineHttpHandler } from '#api/http/endpoint.ts';
import { mcpResource } from '#api/oauth/metadata.ts';
import { requestParameters } from '#api/oauth/requests.ts';
import { MCP_SCOPE } from '#definitions/oauth-scope.ts';
import { verifyApiKey } from '#domain/api-keys.ts';
import { getOAuthClient } from '#domain/oauth-clients.ts';
import { isS256CodeChallenge, issueAuthorizationCode } from '#domain/oauth-grants.ts';
import { redirectUriProblem } from '#domain/oauth-redirect-uris.ts';
import { escapeHtml } from '#platform/html.ts';

/**
 * The authorization endpoint of the code flow (PKCE S256 required). GET shows
 * a consent page; the person approves by entering an API key of the client's
 * organization (the proof that they may grant access to its data), and POST
 * redirects back with a single-use code. A redirect URI must equal one the
 * client registered and be one registration accepts today (a client on
 * record from before the check may hold others); with an unknown client or
 * such a URI nothing is redirected, not even an error.
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

function page(status: number, title: string, body: string): APIGatewayProxyResult {
  return {
    statusCode: status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy':
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
      'x-frame-options': 'DENY',
    },
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}input{width:100%;padding:.5rem;margin:.5rem 0}button{padding:.5rem 1rem;margin-right:.5rem}</style>
</head><body>${body}</body></html>`,
  };
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

export const handler = defineHttpHandler(async (event) => {
  const base = publicBaseUrl(event);
  const parameters = requestParameters(event);
  const client = parameters.client_id ? await getOAuthClient(parameters.client_id) : null;
  if (!client || client.revokedAt)
    return page(400, 'Unknown client', '<h1>Unknown client</h1><p>This application is not registered.</p>');
  const redirectUri = parameters.redirect_uri;
  if (!redirectUri || !client.redirectUris.includes(redirectUri) || redirectUriProblem(redirectUri)) {
    return page(
      400,
      'Invalid redirect',
      '<h1>Invalid redirect URI</h1><p>The redirect URI is not one this application registered.</p>',
    );
  }
  const fail = (error: string, description: string) =>
    redirect(redirectUri, { error, error_description: description, state: parameters.state, iss: base });
  if (parameters.response_type !== 'code')
    return fail('unsupported_response_type', 'response_type must be code');
  if (!parameters.code_challenge || parameters.code_challenge_method !== 'S256') {
    return fail('invalid_request', 'PKCE with code_challenge_method S256 is required');
  }
  if (!isS256CodeChallenge(parameters.code_challenge)) {
    return fail(
      'invalid_request',
      'code_challenge must be the base64url SHA-256 of the code verifier: 43 characters, no padding',
    );
  }
  if (parameters.resource !== undefined && parameters.resource !== mcpResource(base))
    return fail('invalid_target', 'Unknown resource');
  if (parameters.scope?.split(' ').some((scope) => scope !== MCP_SCOPE))
    return fail('invalid_scope', `The only scope is ${MCP_SCOPE}`);

  const hidden = FORWARDED.filter((name) => parameters[name] !== undefined)
    .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(parameters[name]!)}">`)
    .join('');
  const consent = (message = '') =>
    page(
      message ? 401 : 200,
      'Authorize access',
      `<h1>Authorize ${escapeHtml(client.name)}</h1>
<p><strong>${escapeHtml(client.name)}</strong> asks for read-only access (${MCP_SCOPE}) to the campaigns, accounts, contacts and jobs of organization ${client.orgId}.</p>
${message ? `<p role="alert">${escapeHtml(message)}</p>` : ''}
<form method="post" action="${escapeHtml(`${base}/oauth/authorize`)}">${hidden}
<label>API key of organization ${client.orgId}<input type="password" name="api_key" autocomplete="off" required></label>
<button type="submit" name="decision" value="approve">Approve</button><button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</form>`,
    );

  if (event.httpMethod === 'GET') return consent();
  if (parameters.decision !== 'approve') return fail('access_denied', 'The request was denied');
  const identity = await verifyApiKey(parameters.api_key);
  if (!identity || identity.orgId !== client.orgId)
    return consent(`That is not a valid API key of organization ${client.orgId}.`);
  const code = await issueAuthorizationCode({
    orgId: client.orgId,
    clientId: client.clientId,
    resource: mcpResource(base),
    scope: MCP_SCOPE,
    redirectUri,
    codeChallenge: parameters.code_challenge,
  });
  return redirect(redirectUri, { code, state: parameters.state, iss: base });
});
