import { MCP_SCOPE } from '#definitions/oauth-scope.ts';

/** The MCP resource identifier (RFC 8707): the `/mcp` URL. */
export const mcpResource = (base: string): string => `${base}/mcp`;

/** RFC 9728 protected-resource metadata of `/mcp`. */
export const protectedResourceMetadata = (base: string) => ({
  resource: mcpResource(base),
  authorization_servers: [base],
  scopes_supported: [MCP_SCOPE],
  bearer_methods_supported: ['header'],
  resource_name: 'Outreach Campaign Public API (MCP)',
});

/**
 * RFC 8414 authorization-server metadata: dynamic registration (RFC 7591),
 * client ID metadata documents, and public clients (`none`) beside
 * confidential ones.
 */
export const authorizationServerMetadata = (base: string) => ({
  issuer: base,
  authorization_endpoint: `${base}/oauth/authorize`,
  token_endpoint: `${base}/oauth/token`,
  registration_endpoint: `${base}/oauth/register`,
  response_types_supported: ['code'],
  grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
  code_challenge_methods_supported: ['S256'],
  token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
  scopes_supported: [MCP_SCOPE],
  client_id_metadata_document_supported: true,
});

/** The `WWW-Authenticate` challenge of a 401 from `/mcp`. */
export const bearerChallenge = (base: string, error?: 'invalid_token'): string =>
  `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"${error ? `, error="${error}"` : ''}`;
