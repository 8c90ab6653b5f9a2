import fc from 'fast-check';
import { REFERENCE_ASSETS } from '#api/openapi/reference-page.ts';
import { validRequest } from '../../../infra/local/route-requests.ts';
import { apiCases, requestFlaws, urlOf } from './api-cases.ts';
import { apiEndpoints } from './api-endpoints.ts';
import { asciiLongerThan, queryString, segment, unicode, unknownParameters } from './arbitraries.ts';
import type { BadRequest, Case, Route, RouteName } from './cases.ts';
import { dashboardCases } from './dashboard-cases.ts';
import { mcpCases } from './mcp-cases.ts';
import { authorizeCases, registerCases, tokenCases } from './oauth-cases.ts';
import { providerWebhookCases } from './provider-webhook-cases.ts';
import { target } from './world.ts';

/**
 * One bad-input generator per route of the manifest: the API routes' from
 * their inputs (api-endpoints.ts), /mcp's (mcp-cases.ts), the OAuth
 * endpoints' and client registration's (oauth-cases.ts), the providers' inbound webhooks'
 * (provider-webhook-cases.ts), and the unauthenticated documents' below.
 */

/** The media types of the unauthenticated documents. */
const JSON_TYPE = /^application\/json/;
const HTML_TYPE = /^text\/html/;
const SCRIPT_OR_STYLE_TYPE = /^text\/(javascript|css)/;

/**
 * The unauthenticated documents (OAuth metadata, the OpenAPI document, the
 * reference page and its assets): nothing to get wrong but the method, the
 * size and, for the assets, the name; query parameters are ignored.
 */
function documentCases(contentType: RegExp) {
  return (route: Route): fc.Arbitrary<Case> => {
    const { method, url, headers } = validRequest(route.name as 'openapi', target());
    const valid: BadRequest = { method, url, headers };
    return fc.oneof(
      ...requestFlaws(route, valid),
      unknownParameters([]).map(
        (unknown): Case => ({
          flaw: 'query parameters',
          request: { ...valid, url: `${valid.url}${queryString(unknown)}` },
          status: 200,
          protocol: 'ignored',
          contentType,
        }),
      ),
    );
  };
}

/** `/docs/{asset}`: any name but the reference page's own files is 404, traversal included. */
function assetCases(route: Route): fc.Arbitrary<Case> {
  return fc.oneof(
    documentCases(SCRIPT_OR_STYLE_TYPE)(route),
    fc
      .oneof(
        fc.constantFrom(
          '../package.json',
          '..%2Fpackage.json',
          'swagger-ui-bundle.js.map',
          'SWAGGER-UI.CSS',
          'swagger-ui.css ',
          'index.html',
          'swagger-ui-dist/swagger-ui.css',
          '%00',
          '/etc/passwd',
        ),
        unicode(60, 1),
        asciiLongerThan(1000),
      )
      .filter((name) => !REFERENCE_ASSETS.includes(name) && name !== '.' && name !== '..')
      .map(
        (name): Case => ({
          flaw: `asset ${JSON.stringify(name).slice(0, 100)}`,
          request: { method: 'GET', url: urlOf(route.path, { asset: segment(name) }), headers: {} },
          status: 404,
          protocol: 'message',
        }),
      ),
  );
}

/** One generator per route of the manifest; a route missing here is a type error and fails the first test. */
export function generators(): Record<RouteName, (route: Route) => fc.Arbitrary<Case>> {
  const api = apiEndpoints();
  const forApi = Object.fromEntries(
    Object.entries(api).map(([name, endpoint]) => [name, (route: Route) => apiCases(route, endpoint)]),
  ) as Record<keyof typeof api, (route: Route) => fc.Arbitrary<Case>>;
  return {
    ...forApi,
    mcp: mcpCases,
    'receive-provider-webhook': providerWebhookCases,
    'oauth-register': registerCases,
    'oauth-token': tokenCases,
    'oauth-authorize': authorizeCases,
    'oauth-authorize-submit': authorizeCases,
    'oauth-protected-resource': documentCases(JSON_TYPE),
    'oauth-protected-resource-mcp': documentCases(JSON_TYPE),
    'oauth-authorization-server': documentCases(JSON_TYPE),
    openapi: documentCases(JSON_TYPE),
    docs: documentCases(HTML_TYPE),
    'docs-asset': assetCases,
    dashboard: dashboardCases,
    'dashboard-page': dashboardCases,
    'dashboard-item': dashboardCases,
  };
}
