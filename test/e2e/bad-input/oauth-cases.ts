import fc from 'fast-check';
import { MCP_SCOPE } from '#definitions/oauth-scope.ts';
import { validRequest } from '../../../infra/local/route-requests.ts';
import { requestFlaws } from './api-cases.ts';
import { json, notAJsonObject, queryString, unicode } from './arbitraries.ts';
import type { BadRequest, Case, Route } from './cases.ts';
import { REDIRECT_URI, target, world } from './world.ts';

/**
 * The OAuth endpoints: RFC 6749 errors (JSON from the token endpoint; an HTML
 * page or an error redirect from the authorization endpoint).
 */

const formBody = (parameters: Record<string, string>) => new URLSearchParams(parameters).toString();

/** The route's valid request in the catalogue. */
function catalogued(route: Route): BadRequest {
  const { method, url, headers, body } = validRequest(route.name as 'oauth-token', target());
  return { method, url, headers, body };
}

/** One bad parameter of an otherwise authenticated token request, and the error code it earns. */
interface GrantFlaw {
  flaw: string;
  parameters: Record<string, string>;
  error: string;
}

export function tokenCases(route: Route): fc.Arbitrary<Case> {
  const { clientId, clientSecret } = world.client;
  const token = (
    parameters: Record<string, string>,
    asJson: boolean,
    authorization?: string,
  ): BadRequest => ({
    method: 'POST',
    url: '/oauth/token',
    headers: {
      'content-type': asJson ? 'application/json' : 'application/x-www-form-urlencoded',
      ...(authorization !== undefined && { authorization }),
    },
    body: asJson ? json(parameters) : formBody(parameters),
  });
  const basic = (id: string, secret: string) =>
    `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  const refused = (flaw: string, request: BadRequest, status: number, error: string): Case => ({
    flaw,
    request,
    status,
    protocol: 'oauth',
    error,
  });
  const anyGrant = fc.record({
    grant_type: fc.constantFrom('client_credentials', 'authorization_code', 'password'),
  });
  /** How a client that exists authenticates: HTTP Basic or the body. */
  const authenticated = fc
    .boolean()
    .map((inBody): { extra: Record<string, string>; authorization?: string } => ({
      extra: inBody ? { client_id: clientId, client_secret: clientSecret } : {},
      authorization: inBody ? undefined : basic(clientId, clientSecret),
    }));
  const secret = fc.stringMatching(/^[A-Za-z0-9_-]{1,60}$/);
  return fc.oneof(
    ...requestFlaws(route, catalogued(route)),
    // Client authentication fails first, whatever else is wrong: 401 invalid_client.
    fc
      .tuple(
        anyGrant,
        fc.boolean(),
        fc.oneof(
          fc.constant({ flaw: 'no client credentials', body: {}, authorization: undefined }),
          fc.tuple(fc.stringMatching(/^mcp_[A-Za-z0-9_-]{16}$/), secret).map(([id, value]) => ({
            flaw: 'an unknown client',
            body: { client_id: id, client_secret: value },
            authorization: undefined,
          })),
          fc.tuple(unicode(40, 1), secret).map(([id, value]) => ({
            flaw: 'a junk client id',
            body: { client_id: id, client_secret: value },
            authorization: undefined,
          })),
          secret.map((value) => ({
            flaw: 'a wrong secret',
            body: { client_id: clientId, client_secret: value },
            authorization: undefined,
          })),
          fc.constant({
            flaw: 'a client id without its secret',
            body: { client_id: clientId },
            authorization: undefined,
          }),
          fc.constant({
            flaw: 'a revoked client',
            body: { client_id: world.revokedClientId, client_secret: clientSecret },
            authorization: undefined,
          }),
          secret.map((value) => ({
            flaw: 'Basic with a wrong secret',
            body: {},
            authorization: basic(clientId, value),
          })),
          fc
            .constantFrom(
              'Basic',
              'Basic !!!',
              'Basic bm9jb2xvbg==',
              `Basic ${Buffer.from('%E0:%').toString('base64')}`,
              'Bearer x',
            )
            .map((value) => ({ flaw: `authorization ${value}`, body: {}, authorization: value })),
        ),
      )
      .map(([grant, asJson, credentials]) =>
        refused(
          credentials.flaw,
          token(
            { ...grant, ...credentials.body } as Record<string, string>,
            asJson,
            credentials.authorization,
          ),
          401,
          'invalid_client',
        ),
      ),
    // An authenticated client with one bad grant parameter: 400 with the RFC's error code.
    fc
      .tuple(
        authenticated,
        fc.boolean(),
        fc.oneof(
          fc.constant<GrantFlaw>({ flaw: 'no grant_type', parameters: {}, error: 'invalid_request' }),
          unicode(40)
            .filter((value) => value !== 'client_credentials' && value !== 'authorization_code')
            .map(
              (value): GrantFlaw => ({
                flaw: `grant_type ${value}`,
                parameters: { grant_type: value },
                error: 'unsupported_grant_type',
              }),
            ),
          unicode(40)
            .filter((value) => value.split(' ').some((scope) => scope !== MCP_SCOPE))
            .map(
              (value): GrantFlaw => ({
                flaw: `scope ${value}`,
                parameters: { grant_type: 'client_credentials', scope: value },
                error: 'invalid_scope',
              }),
            ),
          fc
            .oneof(unicode(60), fc.constant('https://assistant.example/mcp'))
            .filter((value) => value !== `${world.apiUrl}/mcp`)
            .map(
              (value): GrantFlaw => ({
                flaw: `resource ${value}`,
                parameters: { grant_type: 'client_credentials', resource: value },
                error: 'invalid_target',
              }),
            ),
          fc.constant<GrantFlaw>({
            flaw: 'a code grant without code',
            parameters: { grant_type: 'authorization_code' },
            error: 'invalid_request',
          }),
          fc.oneof(unicode(60, 1), fc.stringMatching(/^mac_[A-Za-z0-9_-]{43}$/)).map(
            (code): GrantFlaw => ({
              flaw: `code ${code}`,
              parameters: {
                grant_type: 'authorization_code',
                code,
                redirect_uri: REDIRECT_URI,
                code_verifier: 'v'.repeat(43),
              },
              error: 'invalid_grant',
            }),
          ),
        ),
      )
      .map(([client, asJson, grant]) =>
        refused(
          grant.flaw,
          token({ ...grant.parameters, ...client.extra }, asJson, client.authorization),
          400,
          grant.error,
        ),
      ),
    // A body the endpoint cannot read is no parameters at all: with Basic credentials, no grant_type.
    notAJsonObject.map((body) =>
      refused(
        'a JSON body that is no object',
        { ...token({}, true, basic(clientId, clientSecret)), body },
        400,
        'invalid_request',
      ),
    ),
    // Parameters of the wrong JSON type are ignored, so the grant type is missing.
    fc
      .constantFrom('5', 'null', 'true', '["client_credentials"]', '{"a":1}')
      .map((value) =>
        refused(
          `grant_type ${value}`,
          { ...token({}, true, basic(clientId, clientSecret)), body: `{"grant_type":${value}}` },
          400,
          'invalid_request',
        ),
      ),
  );
}

export function authorizeCases(route: Route): fc.Arbitrary<Case> {
  const submit = route.method === 'POST';
  // The consent request's parameters (the client, its redirect URI, a PKCE challenge, the resource).
  const valid: Record<string, string> = Object.fromEntries(validRequest('oauth-authorize', target()).query);
  const authorize = (parameters: Record<string, string | undefined>): BadRequest => {
    const defined = Object.fromEntries(
      Object.entries(parameters).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    return submit
      ? {
          method: 'POST',
          url: '/oauth/authorize',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: formBody(defined),
        }
      : { method: 'GET', url: `/oauth/authorize${queryString(Object.entries(defined))}`, headers: {} };
  };
  const state = fc.option(unicode(40, 1), { nil: undefined });
  /** Redirected back with an RFC 6749 §4.1.2.1 error, the client's state and the issuer. */
  const redirected = (
    flaw: string,
    parameters: Record<string, string | undefined>,
    error: string,
    sent?: string,
  ): Case => ({
    flaw,
    request: authorize({ ...parameters, state: sent }),
    status: 302,
    protocol: 'redirect',
    error,
    state: sent,
  });
  const flaws: fc.Arbitrary<Case>[] = [
    ...requestFlaws(route, catalogued(route)),
    // An unknown client or redirect URI: an error page, never a redirect.
    fc
      .oneof(
        fc.constant<string | undefined>(undefined),
        unicode(40),
        fc.stringMatching(/^mcp_[A-Za-z0-9_-]{16}$/),
        fc.constant(world.revokedClientId),
      )
      .map(
        (client): Case => ({
          flaw: `client ${client}`,
          request: authorize({ ...valid, client_id: client }),
          status: 400,
          protocol: 'html',
        }),
      ),
    fc
      .oneof(
        fc.constant<string | undefined>(undefined),
        fc.constantFrom(
          '',
          REDIRECT_URI.toUpperCase(),
          `${REDIRECT_URI}/evil`,
          `${REDIRECT_URI}?x=1`,
          'https://evil.example/callback',
        ),
        unicode(60),
      )
      .filter((uri) => uri !== REDIRECT_URI)
      .map(
        (uri): Case => ({
          flaw: `redirect_uri ${uri}`,
          request: authorize({ ...valid, redirect_uri: uri }),
          status: 400,
          protocol: 'html',
        }),
      ),
    fc
      .tuple(
        fc.option(
          unicode(20).filter((type) => type !== 'code'),
          { nil: undefined },
        ),
        state,
      )
      .map(([type, sent]) =>
        redirected(
          `response_type ${type}`,
          { ...valid, response_type: type },
          'unsupported_response_type',
          sent,
        ),
      ),
    fc
      .tuple(
        fc.oneof(
          fc.constant({ code_challenge: undefined }),
          fc.constant({ code_challenge: '' }),
          fc.constant({ code_challenge_method: undefined }),
          unicode(10)
            .filter((method) => method !== 'S256')
            .map((method) => ({ code_challenge_method: method })),
        ),
        state,
      )
      .map(([change, sent]) =>
        redirected(`PKCE ${JSON.stringify(change)}`, { ...valid, ...change }, 'invalid_request', sent),
      ),
    fc
      .tuple(
        unicode(60).filter((resource) => resource !== `${world.apiUrl}/mcp`),
        state,
      )
      .map(([resource, sent]) =>
        redirected(`resource ${resource}`, { ...valid, resource }, 'invalid_target', sent),
      ),
    fc
      .tuple(
        unicode(40).filter((scope) => scope.split(' ').some((part) => part !== MCP_SCOPE)),
        state,
      )
      .map(([scope, sent]) => redirected(`scope ${scope}`, { ...valid, scope }, 'invalid_scope', sent)),
  ];
  if (submit) {
    flaws.push(
      fc
        .tuple(
          fc.option(
            unicode(20).filter((decision) => decision !== 'approve'),
            { nil: undefined },
          ),
          state,
        )
        .map(([decision, sent]) =>
          redirected(
            `decision ${decision}`,
            { ...valid, decision, api_key: world.apiKey },
            'access_denied',
            sent,
          ),
        ),
      // Approval needs an API key of the client's organization; anything else shows the form again (401).
      fc
        .oneof(
          fc.constant<string | undefined>(undefined),
          unicode(60),
          fc.constant(world.revokedApiKey),
          fc.constant(world.otherApiKey),
          fc.constant(`${world.orgId}.${'A'.repeat(43)}`),
        )
        .map(
          (key): Case => ({
            flaw: `approve with key ${key}`,
            request: authorize({ ...valid, decision: 'approve', api_key: key }),
            status: 401,
            protocol: 'html',
          }),
        ),
      notAJsonObject.map(
        (body): Case => ({
          flaw: 'a JSON body that is no object',
          request: {
            method: 'POST',
            url: '/oauth/authorize',
            headers: { 'content-type': 'application/json' },
            body,
          },
          status: 400,
          protocol: 'html',
        }),
      ),
    );
  }
  return fc.oneof(...flaws);
}
