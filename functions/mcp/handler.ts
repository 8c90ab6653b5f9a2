import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { publicBaseUrl } from '#shared/http/base-url.ts';
import { defineHttpHandler, jsonResponse } from '#shared/http/endpoint.ts';
import { logger } from '#shared/logger.ts';
import { createMcpServer } from '#shared/mcp/server.ts';
import { verifyAccessToken } from '#shared/oauth/grants.ts';
import { bearerChallenge, mcpResource } from '#shared/oauth/metadata.ts';

/**
 * The MCP endpoint: stateless streamable HTTP with JSON responses, a fresh
 * server and transport per request, so any Lambda instance can answer any
 * request. Only POST carries JSON-RPC; GET (an endless event stream, pointless
 * without sessions) and DELETE (no session to end) are 405. Every request
 * needs a bearer token issued for this resource.
 */
export const handler = defineHttpHandler(async (event) => {
  const base = publicBaseUrl(event);
  if (event.httpMethod !== 'POST') {
    return jsonResponse(
      405,
      { message: 'Method not allowed: the MCP endpoint takes POST only (stateless)' },
      { allow: 'POST' },
    );
  }
  const authorization = Object.entries(event.headers ?? {}).find(
    ([name]) => name.toLowerCase() === 'authorization',
  )?.[1];
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (!token) {
    return jsonResponse(
      401,
      { message: 'A bearer token is required' },
      { 'www-authenticate': bearerChallenge(base) },
    );
  }
  const grant = await verifyAccessToken(token, mcpResource(base));
  if (!grant) {
    return jsonResponse(
      401,
      { message: 'The bearer token is invalid, expired or revoked' },
      { 'www-authenticate': bearerChallenge(base, 'invalid_token') },
    );
  }
  logger.appendKeys({ orgId: grant.orgId, clientId: grant.clientId });

  const server = createMcpServer(grant.orgId);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    const headers = new Headers();
    for (const [name, value] of Object.entries(event.headers ?? {}))
      if (value !== undefined) headers.set(name, value);
    const body =
      event.body && event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
    const response = await transport.handleRequest(
      new Request(`${base}/mcp`, { method: 'POST', headers, body: body ?? '' }),
    );
    return {
      statusCode: response.status,
      headers: Object.fromEntries(response.headers.entries()),
      body: await response.text(),
    };
  } finally {
    await server.close();
  }
});
