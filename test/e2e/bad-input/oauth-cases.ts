import fc from 'fast-check';
import { MAX_JSON_DEPTH } from '#api/http/json-depth.ts';
import { MAX_PARAMETER_BODY_BYTES } from '#api/oauth/requests.ts';
import { MCP_SCOPE } from '#definitions/oauth-scope.ts';
import { MAX_CLIENT_NAME_LENGTH, MAX_REDIRECT_URIS } from '#schemas/oauth-clients.ts';
import { validRequest } from '../../../infra/local/route-requests.ts';
import { requestFlaws } from './api-cases.ts';
import { json, notAJsonObject, notAString, objectText, queryString, unicode } from './arbitraries.ts';
import type { BadRequest, Case, Route } from './cases.ts';
import { REDIRECT_URI, target, world } from './world.ts';

/**
 * The OAuth endpoints: RFC 6749 errors (JSON from the token endpoint; an HTML
 * page or an error redirect from the authorization endpoint), and RFC 7591
 * errors from the registration endpoint.
 */

const formBody = (parameters: Record<string, string>) => new URLSearchParams(parameters).toString();

/** The route's valid request in the catalogue. */
function catalogued(route: Route): BadRequest {
  const { method, url, headers, body } = validRequest(route.name as 'oauth-token', target());
  return { method, url, headers, body };
}

/**
 * Client registration (RFC 7591): a body that is no JSON object, is over
 * 16 KiB or nests too deep, bad redirect URIs (`invalid_redirect_uri`), and bad
 * metadata (`invalid_client_metadata`). A refused registration is not counted
 * against the address's hourly limit, so none of these writes anything.
 */
export function registerCases(route: Route): fc.Arbitrary<Case> {
  const valid = catalogued(route);
  const validMembers = Object.fromEntries(
    Object.entries(validRequest('oauth-register', target()).json!).map(([name, value]) => [
      name,
      json(value),
    ]),
  );
  /** The valid registration with some members' raw JSON replaced (undefined: left out). */
  const registration = (members: Record<string, string | undefined>): BadRequest => ({
    ...valid,
    body: objectText(
      Object.fromEntries(
        Object.entries({ ...validMembers, ...members }).filter(
          (entry): entry is [string, string] => entry[1] !== undefined,
        ),
      ),
    ),
  });
  const refused = (flaw: string, request: BadRequest, error: string): Case => ({
    flaw,
    request,
    status: 400,
    protocol: 'oauth',
    error,
  });
  const uris = (...list: string[]) => json(list);
  const https = (index: number) => `https://assistant.example/callback/${index}`;
  return fc.oneof(
    ...requestFlaws(route, valid),
    notAJsonObject.map((body) =>
      refused('a body that is no JSON object', { ...valid, body }, 'invalid_client_metadata'),
    ),
    fc.constant(
      refused(
        'a form body',
        {
          ...valid,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ redirect_uris: REDIRECT_URI }).toString(),
        },
        'invalid_client_metadata',
      ),
    ),
    fc
      .integer({ min: 1, max: 4096 })
      .map((extra) =>
        refused(
          'a body over 16 KiB',
          registration({ software_statement: json('x'.repeat(MAX_PARAMETER_BODY_BYTES + extra)) }),
          'invalid_client_metadata',
        ),
      ),
    fc
      .integer({ min: MAX_JSON_DEPTH, max: 1000 })
      .map((levels) =>
        refused(
          `an ignored member nesting ${levels} levels`,
          registration({ extra: `${'['.repeat(levels)}${']'.repeat(levels)}` }),
          'invalid_client_metadata',
        ),
      ),
    // Redirect URIs: missing, empty, too many, of the wrong type, or one no client may register itself.
    fc
      .oneof(
        fc.constant({ flaw: 'no redirect_uris', value: undefined }),
        fc.constant({ flaw: 'no redirect URI', value: '[]' }),
        fc.constant({
          flaw: `${MAX_REDIRECT_URIS + 1} redirect URIs`,
          value: uris(...Array.from({ length: MAX_REDIRECT_URIS + 1 }, (_, index) => https(index))),
        }),
        fc.oneof(notAString, fc.constant(json(REDIRECT_URI))).map((value) => ({
          flaw: `redirect_uris ${value}`,
          value,
        })),
        fc.constantFrom('[5]', '[null]', '[["https://assistant.example/cb"]]').map((value) => ({
          flaw: `redirect_uris ${value}`,
          value,
        })),
        fc
          .constantFrom(
            'http://assistant.example/callback',
            'http://127.0.0.1.evil.example/callback',
            'https://assistant.example/callback#fragment',
            'https://assistant.example/callback#',
            'com.example.app:/callback',
            'javascript:alert(1)//',
            'data:text/html,<script>alert(1)</script>',
            'file:///etc/passwd',
            'not a url',
            '',
            `https://assistant.example/${'a'.repeat(2000)}`,
          )
          .chain((bad) =>
            fc.integer({ min: 0, max: 2 }).map((position) => {
              const list = [https(1), https(2)];
              list.splice(position, 0, bad);
              return { flaw: `redirect URI ${bad.slice(0, 60)}`, value: uris(...list) };
            }),
          ),
      )
      .map(({ flaw, value }) =>
        refused(flaw, registration({ redirect_uris: value }), 'invalid_redirect_uri'),
      ),
    // Other metadata: an authentication method, grant or response type, scope or name this server does not take.
    fc
      .oneof(
        fc
          .oneof(
            fc.constantFrom('private_key_jwt', 'client_secret_jwt', 'tls_client_auth', 'NONE', ''),
            unicode(30),
          )
          .filter((method) => !['none', 'client_secret_basic', 'client_secret_post'].includes(method))
          .map((method) => ({ token_endpoint_auth_method: json(method) })),
        fc
          .constantFrom(
            ['client_credentials'],
            ['authorization_code', 'client_credentials'],
            ['implicit'],
            ['refresh_token'],
            [],
          )
          .map((types) => ({ grant_types: json(types) })),
        fc.constantFrom(['token'], ['code', 'token'], []).map((types) => ({ response_types: json(types) })),
        fc
          .oneof(fc.constantFrom('mcp:write', 'mcp:read admin', '', ' '), unicode(40))
          .filter((scope) => scope.split(' ').some((requested) => requested !== MCP_SCOPE))
          .map((scope) => ({ scope: json(scope) })),
        fc
          .constantFrom('', 'x'.repeat(MAX_CLIENT_NAME_LENGTH + 1))
          .map((name) => ({ client_name: json(name) })),
        fc
          .tuple(
            fc.constantFrom(
              'token_endpoint_auth_method',
              'grant_types',
              'response_types',
              'scope',
              'client_name',
            ),
            notAString,
          )
          // No non-string JSON is a valid value of these, nor of the lists (`[]` and `["x"]` included).
          .map(([name, value]) => ({ [name]: value })),
      )
      .map((members) =>
        refused(
          `metadata ${JSON.stringify(members).slice(0, 120)}`,
          registration(members),
          'invalid_client_metadata',
        ),
      ),
  );
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
            .filter((value) => !['client_credentials', 'authorization_code', 'refresh_token'].includes(value))
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
          fc.constant<GrantFlaw>({
            flaw: 'a refresh grant without refresh_token',
            parameters: { grant_type: 'refresh_token' },
            error: 'invalid_request',
          }),
          fc.oneof(unicode(60, 1), fc.stringMatching(/^mrt_[A-Za-z0-9_-]{43}$/)).map(
            (refreshToken): GrantFlaw => ({
              flaw: `refresh_token ${refreshToken}`,
              parameters: { grant_type: 'refresh_token', refresh_token: refreshToken },
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
    // A public client (no secret) may use the code and refresh grants only: 400 unauthorized_client.
    fc
      .tuple(
        fc.boolean(),
        fc.constantFrom(world.publicClientId, 'https://assistant.example/oauth/client.json'),
      )
      .map(([asJson, client]) =>
        refused(
          `client_credentials for the public client ${client}`,
          token({ grant_type: 'client_credentials', client_id: client }, asJson),
          400,
          'unauthorized_client',
        ),
      ),
    // An id that names no public client, alone, authenticates nothing: 401 invalid_client.
    fc
      .tuple(
        anyGrant,
        fc.boolean(),
        fc.oneof(
          fc.stringMatching(/^mcp_[A-Za-z0-9_-]{16}$/),
          unicode(40, 1),
          fc.constantFrom(
            world.revokedClientId,
            'http://assistant.example/oauth/client.json',
            'https://assistant.example/',
            'https://assistant.example/oauth/client.json#x',
            'https://user:pass@assistant.example/oauth/client.json',
            'https://assistant.example/a/../client.json',
          ),
        ),
      )
      .map(([grant, asJson, client]) =>
        refused(
          `the public client ${client}`,
          token({ ...grant, client_id: client }, asJson),
          401,
          'invalid_client',
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
    // Signed in to the dashboard as an admin of the organization, whose session's token the form carries.
    const cookie = { cookie: world.member.cookie };
    return submit
      ? {
          method: 'POST',
          url: '/oauth/authorize',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...cookie },
          body: formBody({ csrf: world.member.csrfToken, ...defined }),
        }
      : { method: 'GET', url: `/oauth/authorize${queryString(Object.entries(defined))}`, headers: cookie };
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
            { ...valid, decision, orgId: String(world.orgId) },
            'access_denied',
            sent,
          ),
        ),
      // Approval needs the session's CSRF token and an organization the person is an admin of (403),
      // and a session at all (401): the page again, nothing approved, never a redirect.
      fc
        .oneof(fc.constant(''), unicode(60), fc.constant(world.member.csrfToken.toUpperCase()))
        .filter((csrf) => csrf !== world.member.csrfToken)
        .map(
          (csrf): Case => ({
            flaw: `approve with CSRF token ${JSON.stringify(csrf)}`,
            request: authorize({ ...valid, decision: 'approve', orgId: String(world.orgId), csrf }),
            status: 403,
            protocol: 'html',
          }),
        ),
      fc
        .oneof(
          fc.constant<string | undefined>(undefined),
          unicode(20),
          fc.integer({ min: 1, max: 2 ** 40 }).map(String),
        )
        .filter((orgId) => orgId !== String(world.orgId))
        .map(
          (orgId): Case => ({
            flaw: `approve for organization ${orgId}`,
            request: authorize({ ...valid, decision: 'approve', orgId }),
            status: 403,
            protocol: 'html',
          }),
        ),
      fc.constant<Case>({
        flaw: 'approve without a dashboard session',
        request: {
          method: 'POST',
          url: '/oauth/authorize',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: formBody({ ...valid, decision: 'approve', orgId: String(world.orgId) }),
        },
        status: 401,
        protocol: 'html',
      }),
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
