import { MAX_JSON_DEPTH } from '#api/http/json-depth.ts';
import { MAX_PARAMETER_BODY_BYTES } from '#api/oauth/requests.ts';
import { DEFAULT_MCP_CLIENT_RATE } from '#definitions/mcp-limits.ts';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  MAX_METADATA_DOCUMENT_FETCHES_PER_MINUTE,
  MAX_REGISTRATIONS_PER_HOUR,
  REFRESH_TOKEN_TTL_SECONDS,
} from '#definitions/oauth-limits.ts';
import { MCP_SCOPE } from '#definitions/oauth-scope.ts';
import { MAX_CONTACTS_PER_REQUEST } from '#definitions/raw-operations.ts';
import { MAX_PROVIDER_WEBHOOK_BYTES } from '#definitions/request-limits.ts';
import type { routes } from '#definitions/routes.ts';
import {
  MAX_CLIENT_NAME_LENGTH,
  MAX_REDIRECT_URIS,
  REGISTRABLE_GRANT_TYPES,
  TOKEN_ENDPOINT_AUTH_METHODS,
} from '#schemas/oauth-clients.ts';
import {
  AUTHORIZATION_PARAMETERS,
  errorResponse,
  formFields,
  html,
  json,
  jsonRpcError,
  metadataFetchLimited,
  type OperationDescription,
  oauthMetadata,
  redirect,
  ref,
  text,
} from './helpers.ts';

type RouteName = (typeof routes)[number]['name'];

/** A public client (no credentials) or a confidential one with HTTP Basic: the token endpoint takes either. */
const PUBLIC_OR_BASIC_CLIENT: Record<string, string[]>[] = [{}, { oauthClientBasic: [] }];

/** The operations that speak another protocol than the API's JSON: the providers' inbound webhooks, MCP's JSON-RPC and OAuth. */
export const protocolOperations = {
  'receive-provider-webhook': {
    tag: 'Provider connections',
    summary: 'Receive a provider webhook',
    description: [
      'Where a provider posts its events: the complete `webhook_url` of a connection. No API key: the URL’s token is the credential (lemlist and HeyReach cannot sign). For Smartlead, a `secret_key` in the payload must equal the token.',
      `The body (at most ${MAX_PROVIDER_WEBHOOK_BYTES} bytes) is the provider’s native payload; it is queued and answered at once, then mapped and recorded (docs/providers.md). Events that match nothing are listed under the connection’s unmatched events.`,
    ].join('\n\n'),
    parameters: [
      { ...text('organization', 'The organization id.'), in: 'path', required: true },
      { ...text('connection', 'The provider connection id.'), in: 'path', required: true },
      { ...text('token', 'The connection’s current token.'), in: 'path', required: true },
    ],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: { type: 'object', description: 'The provider’s webhook payload, as it documents it.' },
        },
      },
    },
    responses: {
      200: json(
        { type: 'object', properties: { received: { type: 'boolean' } }, required: ['received'] },
        'Queued.',
      ),
      400: errorResponse('The body is not a JSON object, or nests deeper than 32 levels.'),
      401: errorResponse('Unknown connection, or a wrong or rotated token; nothing is written.'),
      413: errorResponse(
        `The body is over ${MAX_PROVIDER_WEBHOOK_BYTES} bytes, or would not fit one queue message once what the queue refuses is escaped.`,
      ),
    },
  },
  mcp: {
    tag: 'MCP',
    method: 'post',
    summary: 'MCP server (streamable HTTP)',
    description: [
      'A stateless streamable-HTTP Model Context Protocol server with read-only research tools over the organization’s data (`lookup_account`, `list_campaigns`, `get_campaign`, `list_campaign_accounts`, `list_campaign_contacts`, `search_jobs`, `check_eligibility`, `get_analytics_overview`), each answering as its REST endpoint does.',
      'Every POST carries one JSON-RPC message and gets a JSON response (no event stream, no session). Send `Accept: application/json, text/event-stream` and `Content-Type: application/json`. A JSON-RPC batch (a JSON array, `[]` too) is refused with 400 (`-32600`): protocol 2025-06-18 has none.',
      `Each OAuth client may send ${DEFAULT_MCP_CLIENT_RATE} requests per second unless the operator arranged another rate for it; \`check_eligibility\` takes at most ${MAX_CONTACTS_PER_REQUEST} emails per call, as the REST dry run does.`,
      `Requests need a bearer token from \`POST /oauth/token\` (scope \`${MCP_SCOPE}\`). \`GET\`, \`DELETE\` and other methods are 405 \`{message}\` with \`Allow: POST\`.`,
    ].join('\n\n'),
    security: [{ mcpOAuth: [MCP_SCOPE] }],
    requestBody: {
      required: true,
      content: { 'application/json': { schema: ref('schemas', 'JsonRpcMessage') } },
    },
    responses: {
      200: json(ref('schemas', 'JsonRpcResponse'), 'The JSON-RPC response.'),
      202: { description: 'A notification or response was accepted; no body.' },
      400: jsonRpcError(
        `Malformed JSON or not a JSON-RPC message (\`-32700\`); a batch, or a body nesting deeper than ${MAX_JSON_DEPTH} levels (\`-32600\`); an unsupported \`MCP-Protocol-Version\` (\`-32000\`).`,
      ),
      401: errorResponse('A missing, invalid, expired or revoked bearer token.', {
        'WWW-Authenticate': {
          description:
            'A Bearer challenge naming the protected-resource metadata URL, and `error="invalid_token"` for a token that is not valid.',
          required: true,
          schema: { type: 'string' },
        },
      }),
      406: jsonRpcError('The Accept header does not list both application/json and text/event-stream.'),
      413: {
        description: 'The body is over the MCP transport’s 4 MiB, or over the API’s 6 MiB.',
        content: {
          'application/json': {
            schema: { anyOf: [ref('schemas', 'JsonRpcTransportError'), ref('schemas', 'Error')] },
          },
        },
      },
      415: jsonRpcError('The Content-Type is not application/json.'),
      429: errorResponse(
        `Over the client's rate (${DEFAULT_MCP_CLIENT_RATE} requests per second unless arranged), or over a limit of the gateway in front of the server.`,
        {
          'Retry-After': {
            description: 'Seconds to wait before retrying.',
            required: true,
            schema: { type: 'integer', minimum: 1 },
          },
        },
      ),
    },
  },
  'oauth-protected-resource': {
    tag: 'OAuth',
    summary: 'Protected-resource metadata',
    description:
      'RFC 9728 metadata of the MCP server: `resource` is `{base}/mcp`, and the authorization server is this service.',
    responses: {
      200: oauthMetadata(
        'RFC 9728 protected-resource metadata',
        '`resource`, `authorization_servers`, `scopes_supported`, `bearer_methods_supported`, `resource_name`.',
      ),
    },
  },
  'oauth-protected-resource-mcp': {
    tag: 'OAuth',
    summary: 'Protected-resource metadata of /mcp',
    description:
      'The same RFC 9728 document at the path-specific location the 401 challenge of `/mcp` names.',
    responses: {
      200: oauthMetadata(
        'RFC 9728 protected-resource metadata',
        '`resource`, `authorization_servers`, `scopes_supported`, `bearer_methods_supported`, `resource_name`.',
      ),
    },
  },
  'oauth-authorization-server': {
    tag: 'OAuth',
    summary: 'Authorization-server metadata',
    description:
      'RFC 8414 metadata: the authorization-code flow with PKCE S256, refresh tokens and client credentials; dynamic client registration (RFC 7591) and client ID metadata documents; confidential and public clients.',
    responses: {
      200: oauthMetadata(
        'RFC 8414 authorization-server metadata',
        '`issuer`, `authorization_endpoint`, `token_endpoint`, `registration_endpoint`, `response_types_supported`, `grant_types_supported` (`authorization_code`, `refresh_token`, `client_credentials`), `code_challenge_methods_supported` (`S256`), `token_endpoint_auth_methods_supported` (`client_secret_basic`, `client_secret_post`, `none`), `scopes_supported`, `client_id_metadata_document_supported` (`true`).',
      ),
    },
  },
  'oauth-authorize': {
    tag: 'OAuth',
    summary: 'Consent page (authorization-code flow)',
    description: [
      'Shows a consent page for an MCP client to a person signed in to the dashboard (without a session: a redirect to the dashboard’s sign-in, which comes back here). They pick one of the organizations they are an admin of (an operator’s client: its own organization). PKCE with S256 is required (`code_challenge` of 43 base64url characters), and `redirect_uri` must equal one the client registered; otherwise nothing is redirected. Other refusals redirect back with an RFC 6749 `error`.',
      `A client named by the URL of its metadata document is read from the document, which the service keeps for its \`Cache-Control\` max-age (from a minute to an hour; a document it could not fetch or refused, 5 minutes) and fetches at most ${MAX_METADATA_DOCUMENT_FETCHES_PER_MINUTE} times a minute for one source address (documents it keeps do not count).`,
    ].join(' '),
    security: [],
    parameters: Object.entries(AUTHORIZATION_PARAMETERS).map(([name, description]) => ({
      in: 'query',
      ...text(name, description),
    })),
    responses: {
      200: html('The consent page.'),
      302: redirect('A refused request (`error`, `error_description`, `state`, `iss`).'),
      303: {
        description: 'No dashboard session: to the dashboard’s sign-in, which returns to this page.',
        headers: { Location: { required: true, schema: { type: 'string' } } },
      },
      400: html(
        'An unknown, revoked or expired client, or a redirect URI the client did not register or that is not https, http on a loopback host, or (for an operator’s client) a private-use scheme.',
      ),
      403: html('The person is an admin of no organization the client may connect to.'),
      429: metadataFetchLimited,
    },
  },
  'oauth-authorize-submit': {
    tag: 'OAuth',
    summary: 'Approve or deny (authorization-code flow)',
    description:
      'The consent form’s submission, with the dashboard session’s cookie and CSRF token. Approving records the organization’s grant of the client (listed, and revocable, on the dashboard’s AI assistant page) and redirects with a single-use code valid for 10 minutes.',
    security: [],
    requestBody: {
      required: true,
      content: {
        'application/x-www-form-urlencoded': {
          schema: {
            type: 'object',
            properties: formFields({
              ...AUTHORIZATION_PARAMETERS,
              csrf: 'The dashboard session’s CSRF token.',
              orgId: 'The organization to connect, one the person is an admin of.',
              decision: '`approve` or `deny`.',
            }),
          },
        },
      },
    },
    responses: {
      302: redirect('Approved (`code`, `state`, `iss`) or denied or refused (`error`, `error_description`).'),
      400: html(
        'An unknown, revoked or expired client, or a redirect URI the client did not register or that is not https, http on a loopback host, or (for an operator’s client) a private-use scheme.',
      ),
      401: html('No dashboard session: nothing was approved.'),
      403: html(
        'A missing or forged CSRF token, or an organization the person is not an admin of: nothing was approved.',
      ),
      413: errorResponse(
        `The form is over ${MAX_PARAMETER_BODY_BYTES / 1024} KiB, or the body over the API's 6 MiB.`,
      ),
      429: metadataFetchLimited,
      // The submission has no success status of its own: every outcome is the 302 to the client (OAuth
      // 2.1) or an error page. `default` (which Redocly's operation-2xx-response accepts in place of a
      // 2xx) says what else can come: the gateway's own answers, as on every operation.
      default: errorResponse(
        'No 2xx: an outcome is always the 302 above. Any other status is the gateway’s own `{message}` (504 on AWS when the function does not answer within the integration timeout).',
      ),
    },
  },
  'oauth-register': {
    tag: 'OAuth',
    summary: 'Register a client (RFC 7591)',
    description: [
      `Dynamic client registration: anyone may register a client, which belongs to no organization until a person of one approves it on the consent page. Unknown metadata members are ignored. A public client (\`token_endpoint_auth_method\` \`none\`) gets no secret and uses PKCE alone; a confidential one gets a secret (\`mcs_…\`), shown only in this response.`,
      `Redirect URIs are https, or http on a loopback host (\`127.0.0.1\`, \`[::1]\`, \`localhost\`, any port), without a fragment; the authorization request repeats one exactly as registered. A registration no organization approves expires after 30 days.`,
      `Each source address may register ${MAX_REGISTRATIONS_PER_HOUR} clients per hour of the clock; the next is 429 \`rate_limited\` with \`Retry-After\` (seconds until the hour ends). Refused registrations do not count.`,
    ].join('\n\n'),
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: {
              redirect_uris: {
                type: 'array',
                // Absolute URIs (`#domain/oauth-redirect-uris.ts`); the response shows them as registered.
                items: { type: 'string', format: 'uri' },
                minItems: 1,
                maxItems: MAX_REDIRECT_URIS,
                description: 'https, or http on a loopback host; no fragment.',
              },
              client_name: { type: 'string', minLength: 1, maxLength: MAX_CLIENT_NAME_LENGTH },
              token_endpoint_auth_method: {
                type: 'string',
                enum: [...TOKEN_ENDPOINT_AUTH_METHODS],
                default: 'client_secret_basic',
              },
              grant_types: {
                type: 'array',
                items: { type: 'string', enum: [...REGISTRABLE_GRANT_TYPES] },
                default: ['authorization_code'],
                description: 'Must include `authorization_code`; add `refresh_token` for refresh tokens.',
              },
              response_types: { type: 'array', items: { type: 'string', enum: ['code'] }, default: ['code'] },
              scope: { type: 'string', default: MCP_SCOPE, description: `\`${MCP_SCOPE}\`, the only scope.` },
            },
            required: ['redirect_uris'],
          },
        },
      },
    },
    responses: {
      201: json(
        {
          type: 'object',
          description:
            'RFC 7591 §3.2.1: `client_id` (`mcp_…`), `client_secret` and `client_secret_expires_at` (0: never) for a confidential client, `client_id_issued_at`, and the registered metadata.',
          properties: {
            client_id: { type: 'string' },
            client_secret: { type: 'string' },
            client_secret_expires_at: { type: 'integer' },
            client_id_issued_at: { type: 'integer' },
            redirect_uris: { type: 'array', items: { type: 'string' } },
            client_name: { type: 'string' },
            token_endpoint_auth_method: { type: 'string', enum: [...TOKEN_ENDPOINT_AUTH_METHODS] },
            grant_types: { type: 'array', items: { type: 'string', enum: [...REGISTRABLE_GRANT_TYPES] } },
            response_types: { type: 'array', items: { type: 'string' } },
            scope: { type: 'string' },
          },
          required: [
            'client_id',
            'client_id_issued_at',
            'redirect_uris',
            'token_endpoint_auth_method',
            'grant_types',
            'response_types',
            'scope',
          ],
        },
        'The client is registered; not cacheable.',
      ),
      400: json(
        {
          type: 'object',
          description: 'RFC 7591 §3.2.2 error: `{"error", "error_description"}`.',
          properties: {
            error: { type: 'string', enum: ['invalid_redirect_uri', 'invalid_client_metadata'] },
            error_description: { type: 'string' },
          },
          required: ['error', 'error_description'],
        },
        `\`invalid_redirect_uri\` for anything wrong with \`redirect_uris\`; \`invalid_client_metadata\` for the rest, including a body that is no JSON object or is over ${MAX_PARAMETER_BODY_BYTES / 1024} KiB.`,
      ),
      429: {
        description: `Over ${MAX_REGISTRATIONS_PER_HOUR} registrations this hour from the address (\`rate_limited\`), or over a limit of the gateway (\`{message}\`).`,
        headers: {
          'Retry-After': {
            description: 'Seconds to wait before retrying.',
            required: true,
            schema: { type: 'integer', minimum: 1 },
          },
        },
        content: {
          'application/json': {
            schema: {
              anyOf: [
                {
                  type: 'object',
                  properties: { error: { const: 'rate_limited' }, error_description: { type: 'string' } },
                  required: ['error', 'error_description'],
                },
                ref('schemas', 'Error'),
              ],
            },
          },
        },
      },
    },
  },
  'oauth-token': {
    tag: 'OAuth',
    summary: 'Token endpoint',
    description: [
      '`grant_type=authorization_code` with `code`, `redirect_uri` and `code_verifier` (43 to 128 characters of `A-Z a-z 0-9 - . _ ~`); `grant_type=refresh_token` with `refresh_token`; or `grant_type=client_credentials` (operator clients only). A confidential client authenticates with HTTP Basic or `client_id` and `client_secret` in the body (one of them, not both); a public client (registered with `none`, or a client ID metadata document URL) sends `client_id` alone. The body may be form-encoded or JSON.',
      `Access tokens (\`mat_…\`) last ${ACCESS_TOKEN_TTL_SECONDS / 60} minutes. The code grant also issues a refresh token (\`mrt_…\`, ${REFRESH_TOKEN_TTL_SECONDS / 86_400} days) to clients with the \`refresh_token\` grant; each refresh consumes it and issues a new pair. A code is redeemed once, and only by the client it was issued to; redeeming it again, or presenting a consumed refresh token again, is \`invalid_grant\` and revokes every token descended from the code.`,
      '`resource`, when given, must be `{base}/mcp`; a missing `scope` means `mcp:read`. Errors follow RFC 6749: `{"error", "error_description"}`.',
    ].join('\n\n'),
    security: PUBLIC_OR_BASIC_CLIENT,
    requestBody: {
      required: true,
      content: Object.fromEntries(
        ['application/x-www-form-urlencoded', 'application/json'].map((type) => [
          type,
          {
            schema: {
              type: 'object',
              properties: formFields({
                grant_type: '`authorization_code`, `refresh_token` or `client_credentials`.',
                client_id: 'With `client_secret`, instead of HTTP Basic; alone for a public client.',
                client_secret: 'The secret (`mcs_…`) shown when the client was created or registered.',
                code: 'The authorization code (authorization_code).',
                redirect_uri: 'The redirect URI the code was issued for (authorization_code).',
                code_verifier: 'The PKCE verifier (authorization_code).',
                refresh_token: 'The refresh token (`mrt_…`) to exchange (refresh_token).',
                resource: AUTHORIZATION_PARAMETERS.resource,
                scope: AUTHORIZATION_PARAMETERS.scope,
              }),
              required: ['grant_type'],
            },
          },
        ]),
      ),
    },
    responses: {
      200: json(
        {
          type: 'object',
          description: `An opaque access token (\`mat_…\`) for \`/mcp\`: \`access_token\`, \`token_type\` (\`Bearer\`), \`expires_in\` (${ACCESS_TOKEN_TTL_SECONDS}), \`scope\`, and \`refresh_token\` (\`mrt_…\`) from the code and refresh grants for clients with the \`refresh_token\` grant.`,
        },
        'The tokens; not cacheable.',
      ),
      400: json(
        { type: 'object', description: 'RFC 6749 error: `{"error", "error_description"}`.' },
        '`invalid_request` (also for Basic and body credentials together), `invalid_grant`, `invalid_target`, `invalid_scope`, `unauthorized_client` (a grant the client may not use, or an organization that revoked it) or `unsupported_grant_type`.',
      ),
      413: {
        description: `The body is over ${MAX_PARAMETER_BODY_BYTES / 1024} KiB (\`invalid_request\`), or over the API's 6 MiB (\`{message}\`).`,
        content: {
          'application/json': {
            schema: {
              anyOf: [
                {
                  type: 'object',
                  description: 'RFC 6749 error: `{"error": "invalid_request", "error_description"}`.',
                },
                ref('schemas', 'Error'),
              ],
            },
          },
        },
      },
      401: {
        ...json(
          {
            type: 'object',
            description: 'RFC 6749 error: `{"error": "invalid_client", "error_description"}`.',
          },
          'The client failed to authenticate (`invalid_client`).',
        ),
        headers: {
          'WWW-Authenticate': {
            description: '`Basic realm="oauth"`.',
            required: true,
            schema: { type: 'string' },
          },
        },
      },
    },
  },
} satisfies Partial<Record<RouteName, OperationDescription>>;
