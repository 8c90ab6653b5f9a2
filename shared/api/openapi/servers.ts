import { MCP_SCOPE } from '#definitions/oauth-scope.ts';
import type { OpenApiDocument } from './document.ts';
import type { Json } from './operations.ts';

/**
 * The parts of the OpenAPI document that name the server it describes: its
 * `servers`, and the MCP OAuth flows' endpoints below the server's URL. The
 * generator (document.ts) writes them from here, and `GET /openapi.json`
 * puts the deployment's own into the committed document (docs/openapi.json)
 * with `withServer`, so a deployment serves the document the build wrote
 * without carrying the generator and every schema it reads.
 */

/** How `servers` describes the URL of the deployment serving the document. */
export const DEPLOYMENT_SERVER_DESCRIPTION = 'This deployment';

const MCP_SCOPE_TEXT =
  'Read the organization’s campaigns, accounts, contacts and jobs through the MCP tools.';

/** `servers`, and the `mcpOAuth` security scheme, of the server at `serverUrl`. */
export function serverParts(
  serverUrl: string,
  description: string,
): { servers: OpenApiDocument['servers']; mcpOAuth: Json } {
  return {
    servers: [{ url: serverUrl, description }],
    mcpOAuth: {
      type: 'oauth2',
      description:
        'OAuth 2.1 for the MCP server; clients are created by an operator, registered (RFC 7591) or named by their metadata document’s URL.',
      flows: {
        clientCredentials: {
          tokenUrl: `${serverUrl}/oauth/token`,
          scopes: { [MCP_SCOPE]: MCP_SCOPE_TEXT },
        },
        authorizationCode: {
          authorizationUrl: `${serverUrl}/oauth/authorize`,
          tokenUrl: `${serverUrl}/oauth/token`,
          scopes: { [MCP_SCOPE]: MCP_SCOPE_TEXT },
        },
      },
    },
  };
}

/** `document` describing the server at `serverUrl` instead of its own (each key where it was). */
export function withServer(
  document: OpenApiDocument,
  serverUrl: string,
  description: string,
): OpenApiDocument {
  const { servers, mcpOAuth } = serverParts(serverUrl, description);
  const { components } = document;
  return {
    ...document,
    servers,
    components: { ...components, securitySchemes: { ...components.securitySchemes, mcpOAuth } },
  };
}
