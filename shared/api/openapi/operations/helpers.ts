import { MAX_METADATA_DOCUMENT_FETCHES_PER_MINUTE } from '#definitions/oauth-limits.ts';
import { MCP_SCOPE } from '#definitions/oauth-scope.ts';
import type { EndpointSchemas } from '#schemas/endpoint.ts';

/** What the parts of the document's operations share: their types, and the builders of their OpenAPI objects. */

/** A JSON Schema or OpenAPI object as it appears in the document. */
export type Json = Record<string, unknown>;

/** The tags that group operations, in the order the reference page shows them. */
export const TAGS = {
  Auth: 'Checking an API key.',
  Campaigns:
    'Campaigns (ICPs) with their provider sequences, qualified accounts, contacts and message history.',
  Accounts: 'Account lookup and exclusion (misfit marking).',
  Jobs: 'Job openings by company domain.',
  'Raw operations':
    'Pushing contacts into a campaign sequence with your own snippet variables, and the eligibility dry run.',
  Replies: 'Replying to a contact by email.',
  Analytics: 'Organization-wide counts.',
  Webhooks:
    'Subscriptions to outgoing webhooks, their deliveries log and redelivery. What subscribers receive is in the webhooks section.',
  'Provider connections':
    'Your Smartlead, Instantly, lemlist and HeyReach accounts: the webhook URL each posts its events to, and the events that matched nothing.',
  MCP: 'The Model Context Protocol server for AI assistants.',
  OAuth: 'OAuth 2.1 for the MCP server: discovery, client registration, consent and tokens.',
  Reference: 'This document and the reference page rendering it.',
  Dashboard:
    'The organization dashboard: server-rendered HTML pages behind an OpenID Connect sign-in, for people rather than programs (docs/dashboard.md).',
} as const;
export type Tag = keyof typeof TAGS;

/** Statuses a JSON endpoint's own code answers besides 200 (400 for invalid input is added for every validated endpoint). */
export type HandlerErrors = Partial<Record<400 | 404 | 409 | 422 | 502, string>>;

interface Described {
  tag: Tag;
  summary: string;
  description: string;
}

/** A JSON endpoint: its schemas and prose; the generator derives the rest. */
export interface EndpointOperation extends Described {
  endpoint: EndpointSchemas;
  /** What the 200 response carries. */
  returns: string;
  /** When the handler answers these statuses; for 400, what it refuses beyond schema validation. */
  errors?: HandlerErrors;
  /** Request headers the handler reads, as OpenAPI header parameters. */
  headers?: Json[];
}

/** A route whose handler speaks another format: the OpenAPI operation fields, as written here. */
export interface CustomOperation extends Described {
  /** The method documented for an `ANY` route; other methods are answered as `description` says. */
  method?: 'get' | 'post';
  /** The route's POST, documented beside its GET (an `ANY` route that takes forms: the dashboard). */
  post?: Omit<CustomOperation, 'method' | 'post'>;
  /** When the route authenticates otherwise than its auth mode says (the MCP server's OAuth). */
  security?: Record<string, string[]>[];
  parameters?: Json[];
  requestBody?: Json;
  /**
   * Responses of the handler; the gateway's own (413 with a body, 429, 500, 502) are added for the
   * statuses not listed here. A handler that answers one of those itself lists it, covering the
   * gateway's answer too.
   */
  responses: Record<string, Json>;
}

export type OperationDescription = EndpointOperation | CustomOperation;

export const isEndpointOperation = (operation: OperationDescription): operation is EndpointOperation =>
  'endpoint' in operation;

/** A `$ref` to a component of the document. */
export const ref = (kind: 'schemas' | 'requestBodies' | 'responses', name: string): Json => ({
  $ref: `#/components/${kind}/${name}`,
});

export const json = (schema: Json, description: string): Json => ({
  description,
  content: { 'application/json': { schema } },
});
export const errorResponse = (description: string, headers?: Json): Json => ({
  ...json(ref('schemas', 'Error'), description),
  ...(headers && { headers }),
});
/** The consent page's 429: a client metadata document it may not fetch now (a page), or the gateway's (JSON). */
export const metadataFetchLimited: Json = {
  description: `The client is named by a metadata document the service has not cached, and the source address made it fetch ${MAX_METADATA_DOCUMENT_FETCHES_PER_MINUTE} documents this minute (a page; nothing was fetched), or over a limit of the gateway (\`{message}\`).`,
  headers: {
    'Retry-After': {
      description: 'Seconds to wait before retrying (for a fetch: until the minute ends).',
      required: true,
      schema: { type: 'integer', minimum: 1 },
    },
  },
  content: {
    'text/html': { schema: { type: 'string' } },
    'application/json': { schema: ref('schemas', 'Error') },
  },
};
export const html = (description: string): Json => ({
  description,
  content: { 'text/html': { schema: { type: 'string' } } },
});
export const redirect = (description: string): Json => ({
  description,
  headers: {
    Location: {
      description: 'The client’s redirect URI with the outcome in its query.',
      required: true,
      schema: { type: 'string' },
    },
  },
});
export const text = (name: string, description: string, extra: Json = {}): Json => ({
  name,
  description,
  schema: { type: 'string', ...extra },
});
export const formField = (description: string): Json => ({ type: 'string', description });
export const formFields = (descriptions: Record<string, string>): Record<string, Json> =>
  Object.fromEntries(
    Object.entries(descriptions).map(([name, description]) => [name, formField(description)]),
  );

/** The OAuth 2.1 parameters of the authorization request (GET query, POST form). */
export const AUTHORIZATION_PARAMETERS = {
  response_type: '`code`.',
  client_id:
    'The client id: `mcp_…` (created by an operator, or registered at `POST /oauth/register`), or the https URL of the client’s metadata document.',
  redirect_uri: 'One of the client’s registered redirect URIs, exactly.',
  code_challenge: 'PKCE challenge: base64url SHA-256 of the code verifier.',
  code_challenge_method: '`S256` (required).',
  state: 'Returned unchanged in the redirect.',
  scope: `\`${MCP_SCOPE}\`, the only scope.`,
  resource: 'When given, this server’s `/mcp` URL (RFC 8707).',
};

export const oauthMetadata = (standard: string, fields: string): Json =>
  json(
    { type: 'object', description: `${standard}: ${fields}` },
    `${standard} document; cacheable for an hour.`,
  );

export const jsonRpcError = (description: string): Json =>
  json(ref('schemas', 'JsonRpcTransportError'), description);

/** What every dashboard route documents: HTML pages, a sign-in redirect, forms posted with a CSRF token. */
export function dashboardOperation(summary: string, parameters: Json[]): CustomOperation {
  const pages = {
    200: {
      description: 'The page (or, for an asset, the file).',
      content: {
        'text/html': { schema: { type: 'string' } },
        'text/css': { schema: { type: 'string' } },
        'text/javascript': { schema: { type: 'string' } },
        'image/svg+xml': { schema: { type: 'string' } },
      },
    },
    303: {
      description:
        'To sign-in when there is no session, to the OpenID provider from sign-in, to the organization picker, or after a change.',
      headers: { Location: { required: true, schema: { type: 'string' } } },
    },
    400: html('A sign-in that cannot complete, or a form value the API would refuse too.'),
    401: html('A form posted without a session: nothing was changed.'),
    403: html('A form with a missing or forged CSRF token, or from a viewer: nothing was changed.'),
    404: html('No such page, or an item that is not the organization’s.'),
    409: html('A change the current state refuses.'),
    413: html('A form over 64 KiB.'),
    422: html('A change the organization’s settings refuse.'),
    503: html('The deployment configures no OpenID provider for the dashboard.'),
  };
  const description =
    'Server-rendered and signed in with OpenID Connect (authorization code with PKCE: Cognito on AWS, the local OpenID provider on `npm start`). The session is an HttpOnly, SameSite=Lax cookie (12 hours at most, one hour idle). Responses are `Cache-Control: no-store` with a strict Content-Security-Policy.';
  return {
    tag: 'Dashboard',
    method: 'get',
    summary,
    description,
    security: [],
    parameters,
    responses: pages,
    post: {
      tag: 'Dashboard',
      summary: `${summary}: forms`,
      description: `${description} Every form carries the session’s CSRF token (\`csrf\`); an admin’s form changes something, a viewer’s is 403.`,
      security: [],
      parameters,
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              properties: { csrf: formField('The session’s CSRF token.') },
              required: ['csrf'],
            },
          },
        },
      },
      responses: pages,
    },
  };
}
