import { publicBaseUrl } from '#api/http/base-url.ts';
import { defineHttpHandler, jsonResponse } from '#api/http/endpoint.ts';
import { authorizationServerMetadata, protectedResourceMetadata } from '#api/oauth/metadata.ts';

const CACHE = { 'cache-control': 'public, max-age=3600' };

/**
 * OAuth discovery: protected-resource metadata (RFC 9728) at
 * `/.well-known/oauth-protected-resource` and `…/mcp`, authorization-server
 * metadata (RFC 8414) at `/.well-known/oauth-authorization-server`.
 */
export const handler = defineHttpHandler(async (event) => {
  const base = publicBaseUrl(event);
  if (event.resource.startsWith('/.well-known/oauth-protected-resource')) {
    return jsonResponse(200, protectedResourceMetadata(base), CACHE);
  }
  return jsonResponse(200, authorizationServerMetadata(base), CACHE);
});
