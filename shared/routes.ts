/**
 * The route manifest: the single list of HTTP routes. The CDK stack builds one
 * Lambda function (with exactly the table access named here) and one API
 * Gateway method per entry, and the local gateway serves the same entries
 * in-process. Adding an endpoint is one entry here plus
 * its handler folder `functions/<name>/handler.ts`.
 */

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** How API Gateway authenticates a route. */
export type AuthMode = 'apiKey' | 'none';

/** What the route's function may do to the table; the stack grants exactly this. */
export type TableAccess = 'none' | 'read' | 'readWrite';

export interface RouteDefinition {
  /** The handler folder under `functions/`; also the function's name in the stack. */
  name: string;
  method: HttpMethod;
  /** API Gateway resource path, with `{param}` placeholders. */
  path: string;
  auth: AuthMode;
  table: TableAccess;
}

export const routes = [
  { name: 'auth', method: 'GET', path: '/public/v1/auth', auth: 'apiKey', table: 'none' },
  { name: 'list-campaigns', method: 'GET', path: '/public/v1/campaigns', auth: 'apiKey', table: 'read' },
  { name: 'get-campaign', method: 'GET', path: '/public/v1/campaigns/{id}', auth: 'apiKey', table: 'read' },
  {
    name: 'list-campaign-accounts',
    method: 'GET',
    path: '/public/v1/campaigns/{id}/accounts',
    auth: 'apiKey',
    table: 'read',
  },
  {
    name: 'list-campaign-contacts',
    method: 'GET',
    path: '/public/v1/campaigns/{id}/contacts',
    auth: 'apiKey',
    table: 'read',
  },
  {
    name: 'list-campaign-messages',
    method: 'GET',
    path: '/public/v1/campaigns/{id}/messages',
    auth: 'apiKey',
    table: 'read',
  },
  {
    name: 'push-raw-contacts',
    method: 'POST',
    path: '/public/v1/campaigns/{id}/raw/contacts',
    auth: 'apiKey',
    table: 'readWrite',
  },
  {
    name: 'check-eligibility',
    method: 'POST',
    path: '/public/v1/campaigns/{id}/raw/contacts/check-eligibility',
    auth: 'apiKey',
    table: 'read',
  },
  { name: 'lookup-account', method: 'GET', path: '/public/v1/accounts', auth: 'apiKey', table: 'read' },
  {
    name: 'exclude-account',
    method: 'POST',
    path: '/public/v1/accounts/exclude',
    auth: 'apiKey',
    table: 'readWrite',
  },
  { name: 'search-jobs', method: 'GET', path: '/public/v1/jobs/{domain}', auth: 'apiKey', table: 'read' },
  {
    name: 'get-analytics-overview',
    method: 'GET',
    path: '/public/v1/analytics/overview',
    auth: 'apiKey',
    table: 'read',
  },
] as const satisfies readonly RouteDefinition[];

/** Project-relative entry file of a route's handler. */
export const handlerEntry = (route: Pick<RouteDefinition, 'name'>): string =>
  `functions/${route.name}/handler.ts`;

/** The header API Gateway's authorizer reads the organization key from. */
export const API_KEY_HEADER = 'x-api-key';

/** How long API Gateway (and the local gateway) caches an authorizer decision per key. */
export const AUTHORIZER_CACHE_TTL_SECONDS = 300;
