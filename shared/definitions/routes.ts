import type { QueueName } from './queues.ts';
import { SWAGGER_UI_FILES } from './swagger-ui.ts';

/**
 * The route manifest: the single list of HTTP routes. The CDK stack builds one
 * Lambda function (with exactly the table actions named here) and one API
 * Gateway method per entry, and the local gateway serves the same entries
 * in-process. Adding an endpoint is one entry here plus
 * its handler folder `functions/<name>/handler.ts`.
 */

/** `ANY` hands every method to the handler (the MCP endpoint answers 405 itself). */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ANY';

/** How API Gateway authenticates a route. */
export type AuthMode = 'apiKey' | 'none';

/**
 * What an organization API key may call, fixed when the key is created: a
 * `read` key the routes that change nothing, a `read-write` key every route.
 * Keys stored before scopes existed are `read-write`.
 */
export const API_KEY_SCOPES = ['read', 'read-write'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/**
 * A DynamoDB action on the table (its IAM name without `dynamodb:`). A
 * transaction needs the action of each of its items, so it is not one itself.
 */
export type TableAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'ConditionCheckItem'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'BatchWriteItem';

export interface RouteDefinition {
  /** The function's name in the stack; also its handler folder under `functions/` unless `handler` names another. */
  name: string;
  /** A handler folder shared with other routes (the OAuth metadata documents, the consent page's GET and POST). */
  handler?: string;
  method: HttpMethod;
  /** API Gateway resource path, with `{param}` placeholders. */
  path: string;
  auth: AuthMode;
  /**
   * The scope of API key an `apiKey` route needs (the manifest requires it there): `read-write` when
   * the route writes anything, `read` when it changes nothing (the eligibility dry run is a POST that
   * writes nothing: `read`). The endpoint wrapper answers a `read` key on a `read-write` route with 403.
   */
  scope?: ApiKeyScope;
  /**
   * The table actions the route's function uses, and all the stack grants it
   * (none: no table at all). The e2e tests check every action a function
   * issues against this list (test/support/table-actions.ts). An API-key route
   * whose method may change something (POST, PATCH, DELETE) keeps `Idempotency-Key`s
   * and lists their actions too (IDEMPOTENCY_TABLE_ACTIONS, #definitions/idempotency.ts).
   */
  table: readonly TableAction[];
  /**
   * Files of installed packages the handler reads at run time (`swagger-ui-dist/swagger-ui.css`).
   * The stack ships them in the function's bundle under `node_modules/`, where Node resolves them
   * as it does in the project.
   */
  packageFiles?: readonly string[];
  /** The queues the function sends to itself (the stack grants sending and passes their URLs). */
  sends?: readonly QueueName[];
  /**
   * What the function does with secrets (shared/platform/secrets.ts): `seal` new ones, `open` sealed
   * ones, `mac` tag or check webhook URL tokens. The stack grants exactly these KMS uses.
   */
  secrets?: readonly SecretUse[];
  /**
   * Its answer holds a credential (a signing secret, a webhook URL's token): an `Idempotency-Key`'s
   * stored copy of it is sealed (shared/api/http/endpoint.ts), under a key derived from the MAC key,
   * so such a route's `secrets` name `mac` too (test/unit/idempotency.test.ts).
   */
  answersCredential?: true;
  /** Reads the dashboard's session cookie: the stack passes it the OpenID sign-in settings. */
  session?: boolean;
  /**
   * Invites people at the identity provider (the dashboard's Members page): the stack passes it
   * the user pool's id and lets it create and read users there (AdminCreateUser, AdminGetUser).
   */
  invites?: true;
}

/** A function's use of the secrets keys (see RouteDefinition.secrets). */
export type SecretUse = 'seal' | 'open' | 'mac';

/** An entry of the manifest: an `apiKey` route names the scope it needs, a route without the key none. */
type ManifestRoute = RouteDefinition &
  ({ auth: 'apiKey'; scope: ApiKeyScope } | { auth: 'none'; scope?: never });

/**
 * A route of the dashboard, whose three routes share all but their name and
 * path: one function serves every page. A function, called pure-annotated,
 * where a spread would do: esbuild keeps an array with an object spread in it
 * (a spread may run getters), and with it the whole manifest, in every bundle
 * that imports anything of this module (docs/architecture.md, Bundles).
 */
const dashboardRoute = <const Name extends string, const Path extends string>(name: Name, path: Path) =>
  ({
    name,
    handler: 'dashboard',
    method: 'ANY',
    auth: 'none',
    table: ['BatchGetItem', 'ConditionCheckItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
    // open: a connection's API key, for its page's picker of the provider's campaigns.
    secrets: ['seal', 'mac', 'open'],
    session: true,
    invites: true,
    path,
  }) as const;

export const routes = [
  { name: 'auth', method: 'GET', path: '/public/v1/auth', auth: 'apiKey', scope: 'read', table: [] },
  {
    name: 'list-campaigns',
    method: 'GET',
    path: '/public/v1/campaigns',
    auth: 'apiKey',
    scope: 'read',
    table: ['Query'],
  },
  {
    name: 'get-campaign',
    method: 'GET',
    path: '/public/v1/campaigns/{id}',
    auth: 'apiKey',
    scope: 'read',
    // One Query: the campaign's item and its counter shards (docs/scaling.md).
    table: ['Query'],
  },
  {
    name: 'list-campaign-accounts',
    method: 'GET',
    path: '/public/v1/campaigns/{id}/accounts',
    auth: 'apiKey',
    scope: 'read',
    table: ['BatchGetItem', 'GetItem', 'Query'],
  },
  {
    name: 'list-campaign-contacts',
    method: 'GET',
    path: '/public/v1/campaigns/{id}/contacts',
    auth: 'apiKey',
    scope: 'read',
    table: ['GetItem', 'Query'],
  },
  {
    name: 'list-campaign-messages',
    method: 'GET',
    path: '/public/v1/campaigns/{id}/messages',
    auth: 'apiKey',
    scope: 'read',
    table: ['GetItem', 'Query'],
  },
  {
    name: 'push-raw-contacts',
    method: 'POST',
    path: '/public/v1/campaigns/{id}/raw/contacts',
    auth: 'apiKey',
    scope: 'read-write',
    table: ['BatchGetItem', 'ConditionCheckItem', 'DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'],
  },
  {
    name: 'check-eligibility',
    method: 'POST',
    path: '/public/v1/campaigns/{id}/raw/contacts/check-eligibility',
    auth: 'apiKey',
    scope: 'read',
    table: ['BatchGetItem', 'DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'],
  },
  {
    name: 'reply-to-assignment',
    method: 'POST',
    path: '/public/v1/assignments/{id}/reply',
    auth: 'apiKey',
    scope: 'read-write',
    table: ['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'],
  },
  {
    name: 'lookup-account',
    method: 'GET',
    path: '/public/v1/accounts',
    auth: 'apiKey',
    scope: 'read',
    // Query: with icpId, the campaign is read with its counter shards.
    table: ['GetItem', 'Query'],
  },
  {
    name: 'exclude-account',
    method: 'POST',
    path: '/public/v1/accounts/exclude',
    auth: 'apiKey',
    scope: 'read-write',
    table: ['ConditionCheckItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
  },
  {
    name: 'search-jobs',
    method: 'GET',
    path: '/public/v1/jobs/{domain}',
    auth: 'apiKey',
    scope: 'read',
    table: ['Query'],
  },
  {
    name: 'get-analytics-overview',
    method: 'GET',
    path: '/public/v1/analytics/overview',
    auth: 'apiKey',
    scope: 'read',
    // One BatchGetItem: the analytics item and its shards (docs/scaling.md).
    table: ['BatchGetItem'],
  },
  // Outgoing webhooks: subscriptions, their deliveries log and redelivery (docs/webhooks.md).
  {
    name: 'list-webhooks',
    method: 'GET',
    path: '/public/v1/webhooks',
    auth: 'apiKey',
    scope: 'read',
    table: ['Query'],
  },
  {
    name: 'create-webhook',
    method: 'POST',
    path: '/public/v1/webhooks',
    auth: 'apiKey',
    scope: 'read-write',
    table: ['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'],
    secrets: ['mac'],
    answersCredential: true,
  },
  {
    name: 'get-webhook',
    method: 'GET',
    path: '/public/v1/webhooks/{id}',
    auth: 'apiKey',
    scope: 'read',
    table: ['GetItem'],
  },
  {
    name: 'update-webhook',
    method: 'PATCH',
    path: '/public/v1/webhooks/{id}',
    auth: 'apiKey',
    scope: 'read-write',
    table: ['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'],
  },
  {
    name: 'delete-webhook',
    method: 'DELETE',
    path: '/public/v1/webhooks/{id}',
    auth: 'apiKey',
    scope: 'read-write',
    table: ['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'],
  },
  {
    name: 'test-webhook',
    method: 'POST',
    path: '/public/v1/webhooks/{id}/test',
    auth: 'apiKey',
    scope: 'read-write',
    table: ['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'],
  },
  {
    name: 'rotate-webhook-secret',
    method: 'POST',
    path: '/public/v1/webhooks/{id}/rotate-secret',
    auth: 'apiKey',
    scope: 'read-write',
    table: ['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'],
    secrets: ['mac'],
    answersCredential: true,
  },
  {
    name: 'list-webhook-deliveries',
    method: 'GET',
    path: '/public/v1/webhooks/{id}/deliveries',
    auth: 'apiKey',
    scope: 'read',
    table: ['GetItem', 'Query'],
  },
  {
    name: 'redeliver-webhook-delivery',
    method: 'POST',
    path: '/public/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    auth: 'apiKey',
    scope: 'read-write',
    table: ['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'],
  },
  // Provider connections and the providers' own webhooks (docs/providers.md).
  {
    name: 'list-provider-connections',
    method: 'GET',
    path: '/public/v1/provider-connections',
    auth: 'apiKey',
    scope: 'read',
    table: ['Query'],
    secrets: ['mac'],
  },
  {
    name: 'create-provider-connection',
    method: 'POST',
    path: '/public/v1/provider-connections',
    auth: 'apiKey',
    scope: 'read-write',
    // GetItem: the organization's count of connections, read before the transaction that holds the limit.
    table: ['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'],
    secrets: ['seal', 'mac'],
    answersCredential: true,
  },
  {
    name: 'get-provider-connection',
    method: 'GET',
    path: '/public/v1/provider-connections/{id}',
    auth: 'apiKey',
    scope: 'read',
    table: ['GetItem'],
    secrets: ['mac'],
  },
  {
    name: 'update-provider-connection',
    method: 'PATCH',
    path: '/public/v1/provider-connections/{id}',
    auth: 'apiKey',
    scope: 'read-write',
    // Seal: the new key (no open: the old one is replaced unread); mac: the webhook URL it answers.
    table: ['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'],
    secrets: ['seal', 'mac'],
    answersCredential: true,
  },
  {
    name: 'delete-provider-connection',
    method: 'DELETE',
    path: '/public/v1/provider-connections/{id}',
    auth: 'apiKey',
    scope: 'read-write',
    table: ['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'],
  },
  {
    name: 'rotate-provider-webhook-url',
    method: 'POST',
    path: '/public/v1/provider-connections/{id}/rotate-webhook-url',
    auth: 'apiKey',
    scope: 'read-write',
    table: ['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'],
    secrets: ['mac'],
    answersCredential: true,
  },
  {
    name: 'check-provider-connection',
    method: 'POST',
    path: '/public/v1/provider-connections/{id}/check',
    auth: 'apiKey',
    // It spends the provider's request quota and writes the connection's health.
    scope: 'read-write',
    // open: the connection's API key, to ask the provider; mac: the webhook URL it answers.
    table: ['DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'],
    secrets: ['open', 'mac'],
    answersCredential: true,
  },
  {
    name: 'list-provider-unmatched',
    method: 'GET',
    path: '/public/v1/provider-connections/{id}/unmatched',
    auth: 'apiKey',
    scope: 'read',
    table: ['GetItem', 'Query'],
  },
  {
    name: 'list-provider-campaigns',
    method: 'GET',
    path: '/public/v1/provider-connections/{id}/campaigns',
    auth: 'apiKey',
    scope: 'read',
    // The connection, and its health, which the provider's answer moves (UpdateItem); open: its API
    // key, to ask the provider for its campaigns.
    table: ['GetItem', 'UpdateItem'],
    secrets: ['open'],
  },
  // A sequence's link to its provider campaign (docs/providers.md, Linking sequences).
  {
    name: 'get-sequence-provider-link',
    method: 'GET',
    path: '/public/v1/sequences/{sequenceId}/provider-link',
    auth: 'apiKey',
    scope: 'read',
    // The sequence's home (GetItem), then its campaign (Query), whose sequences carry their links; every
    // campaign (Query) for a sequence without a home.
    table: ['GetItem', 'Query'],
  },
  {
    name: 'put-sequence-provider-link',
    method: 'PUT',
    path: '/public/v1/sequences/{sequenceId}/provider-link',
    auth: 'apiKey',
    scope: 'read-write',
    // The connection, the sequence's home and the provider campaign's link (GetItem), the sequence's
    // campaign and the holder's (Query); the link: the campaigns' sequences (UpdateItem) and the link
    // item (PutItem), in one transaction; the connection's health, which the provider's
    // answer moves (UpdateItem); open: the key the provider's list is read with.
    table: ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
    secrets: ['open'],
  },
  {
    name: 'delete-sequence-provider-link',
    method: 'DELETE',
    path: '/public/v1/sequences/{sequenceId}/provider-link',
    auth: 'apiKey',
    scope: 'read-write',
    // The sequence's home (GetItem) and campaign (Query); the sequence (UpdateItem) and its link item
    // (DeleteItem), in one transaction.
    table: ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
  },
  {
    // The URL a provider posts to: its token is the credential (lemlist and HeyReach cannot sign).
    name: 'receive-provider-webhook',
    method: 'POST',
    path: '/provider-webhooks/{organization}/{connection}/{token}',
    auth: 'none',
    table: ['GetItem'],
    sends: ['providerEvents'],
    secrets: ['mac'],
  },
  // The MCP server and its OAuth endpoints, outside /public/v1 and without the API key.
  {
    name: 'mcp',
    method: 'ANY',
    path: '/mcp',
    auth: 'none',
    // UpdateItem: the per-client request counter (shared/domain/mcp-rate-limit.ts).
    table: ['BatchGetItem', 'GetItem', 'Query', 'UpdateItem'],
  },
  {
    name: 'oauth-protected-resource',
    handler: 'oauth-metadata',
    method: 'GET',
    path: '/.well-known/oauth-protected-resource',
    auth: 'none',
    table: [],
  },
  {
    name: 'oauth-protected-resource-mcp',
    handler: 'oauth-metadata',
    method: 'GET',
    path: '/.well-known/oauth-protected-resource/mcp',
    auth: 'none',
    table: [],
  },
  {
    name: 'oauth-authorization-server',
    handler: 'oauth-metadata',
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    auth: 'none',
    table: [],
  },
  {
    name: 'oauth-authorize',
    method: 'GET',
    path: '/oauth/authorize',
    auth: 'none',
    // The client (a metadata document's cache entry: GetItem, and after a fetch the address's fetch
    // window, UpdateItem, and the new entry, PutItem); the dashboard session (its idle expiry moved
    // on), the person's organizations (Query).
    table: ['BatchGetItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
    session: true,
  },
  {
    name: 'oauth-authorize-submit',
    handler: 'oauth-authorize',
    method: 'POST',
    path: '/oauth/authorize',
    auth: 'none',
    // As the GET; approving writes the organization's grant, the code and an audit entry.
    table: ['BatchGetItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
    session: true,
  },
  {
    // Dynamic client registration (RFC 7591).
    name: 'oauth-register',
    method: 'POST',
    path: '/oauth/register',
    auth: 'none',
    // UpdateItem: the per-address registration counter; PutItem: the client.
    table: ['PutItem', 'UpdateItem'],
  },
  {
    name: 'oauth-token',
    method: 'POST',
    path: '/oauth/token',
    auth: 'none',
    // A code is redeemed, and a refresh token rotated, in a transaction (UpdateItem on the code or the old
    // refresh token and the family, PutItem of the tokens); a replay revokes the family (UpdateItem); an
    // operator client's grant is recorded on its first token (PutItem); a refresh reads the grant and the
    // family together (BatchGetItem).
    table: ['BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem'],
  },
  // The organization dashboard (docs/dashboard.md): signed in with OpenID Connect, its session a cookie.
  // The pages act through the same use cases as the API (keys, webhooks, connections, approvals).
  /* @__PURE__ */ dashboardRoute('dashboard', '/dashboard'),
  /* @__PURE__ */ dashboardRoute('dashboard-page', '/dashboard/{page}'),
  /* @__PURE__ */ dashboardRoute('dashboard-item', '/dashboard/{page}/{item}'),
  // The OpenAPI document and the reference page rendering it (Swagger UI from our own dependency).
  { name: 'openapi', method: 'GET', path: '/openapi.json', auth: 'none', table: [] },
  { name: 'docs', method: 'GET', path: '/docs', auth: 'none', table: [] },
  {
    name: 'docs-asset',
    handler: 'docs',
    method: 'GET',
    path: '/docs/{asset}',
    auth: 'none',
    table: [],
    packageFiles: SWAGGER_UI_FILES,
  },
] as const satisfies readonly ManifestRoute[];

/** Project-relative entry file of a route's handler. */
export const handlerEntry = (route: Pick<RouteDefinition, 'name' | 'handler'>): string =>
  `functions/${route.handler ?? route.name}/handler.ts`;

/** The header API Gateway's authorizer reads the organization key from. */
export const API_KEY_HEADER = 'x-api-key';

/** How long API Gateway (and the local gateway) caches an authorizer decision per key. */
export const AUTHORIZER_CACHE_TTL_SECONDS = 300;
