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

/** RFC 8414 authorization-server metadata. */
export const authorizationServerMetadata = (base: string) => ({
  issuer: base,
  authorization_endpoint: `${base}/oauth/authorize`,
  token_endpoint: `${base}/oauth/token`,
  response_types_supported: ['code'],
  grant_types_supported: ['authorization_code', 'client_credentials'],
  code_challenge_methods_supported: ['S256'],
  token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
  scopes_supported: [MCP_SCOPE],
});

/** The `WWW-Authenticate` challenge of a 401 from `/mcp`. */
export const bearerChallenge = (base: string, error?: 'invalid_token'): string =>
  `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"${error ? `, error="${error}"` : ''}`;
