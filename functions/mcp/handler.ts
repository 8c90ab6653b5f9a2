import type { APIGatewayProxyResult } from 'aws-lambda';
import { publicBaseUrl } from '#api/http/base-url.ts';
import { defineHttpHandler, jsonResponse } from '#api/http/endpoint.ts';
import { JSON_TOO_DEEP_MESSAGE, nestsDeeperThan } from '#api/http/json-depth.ts';
import { bodyText, headerOf } from '#api/http/request.ts';
import {
  answerMcpMessage,
  INVALID_REQUEST,
  MAX_REQUEST_BODY_BYTES,
  PARSE_ERROR,
  REQUEST_BODY_TOO_LARGE,
  TRANSPORT_ERROR,
} from '#api/mcp/protocol.ts';
import { mcpServer } from '#api/mcp/server.ts';
import { bearerChallenge, mcpResource } from '#api/oauth/metadata.ts';
import { DEFAULT_MCP_CLIENT_RATE } from '#definitions/mcp-limits.ts';
import { countMcpRequest } from '#domain/mcp-rate-limit.ts';
import { verifyAccessToken } from '#domain/oauth-grants.ts';
import { logger } from '#platform/logger.ts';

/**
 * The MCP endpoint: stateless streamable HTTP with JSON responses, no state
 * kept between requests, so any Lambda instance can answer any request. Only
 * POST carries JSON-RPC; GET (an endless event stream, pointless without
 * sessions) and DELETE (no session to end) are 405. Every request needs a
 * bearer token issued for this resource, counts against its client's rate
 * (shared/definitions/mcp-limits.ts), and carries one JSON-RPC message, which
 * the server answers (shared/api/mcp/protocol.ts, with the tools of
 * shared/api/mcp/server.ts and tools.ts).
 */

/** A JSON-RPC error about a request that could not be taken as a whole (`id: null`, JSON-RPC 2.0 §5). */
const jsonRpcError = (status: number, code: number, message: string): APIGatewayProxyResult =>
  jsonResponse(status, { jsonrpc: '2.0', error: { code, message }, id: null });

/**
 * The JSON-RPC message of a body, or the error answering it. Protocol
 * 2025-06-18 removed batches, so a JSON array (`[]` too) is refused whatever
 * version the client names (a stateless server cannot hold a client to the
 * version it negotiated, and a batch would multiply the work one request may
 * do). The depth is checked on the text, before any parser recurses into it.
 */
function singleMessage(body: string): { message: unknown } | { refusal: APIGatewayProxyResult } {
  if (Buffer.byteLength(body) > MAX_REQUEST_BODY_BYTES) {
    return { refusal: jsonRpcError(413, TRANSPORT_ERROR, REQUEST_BODY_TOO_LARGE) };
  }
  if (nestsDeeperThan(body)) return { refusal: jsonRpcError(400, INVALID_REQUEST, JSON_TOO_DEEP_MESSAGE) };
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return { refusal: jsonRpcError(400, PARSE_ERROR, 'Parse error: Invalid JSON') };
  }
  if (Array.isArray(message)) {
    return {
      refusal: jsonRpcError(
        400,
        INVALID_REQUEST,
        'Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18 removed them); send one message per request',
      ),
    };
  }
  return { message };
}

export const handler = defineHttpHandler(async (event) => {
  const base = publicBaseUrl(event);
  if (event.httpMethod !== 'POST') {
    return jsonResponse(
      405,
      { message: 'Method not allowed: the MCP endpoint takes POST only (stateless)' },
      { allow: 'POST' },
    );
  }
  const token = /^Bearer\s+(\S+)$/i.exec(headerOf(event.headers, 'authorization') ?? '')?.[1];
  if (!token) {
    return jsonResponse(
      401,
      { message: 'A bearer token is required' },
      { 'www-authenticate': bearerChallenge(base) },
    );
  }
  // The request is counted in its client's window while the token's standing is read: one round trip fewer.
  let sentThisSecond = 0;
  const grant = await verifyAccessToken(token, mcpResource(base), async (clientId) => {
    sentThisSecond = await countMcpRequest(clientId);
  });
  if (!grant) {
    return jsonResponse(
      401,
      { message: 'The bearer token is invalid, expired or revoked' },
      { 'www-authenticate': bearerChallenge(base, 'invalid_token') },
    );
  }
  logger.appendKeys({ orgId: grant.orgId, clientId: grant.clientId });

  const rate = grant.clientRateLimit ?? DEFAULT_MCP_CLIENT_RATE;
  if (sentThisSecond > rate) {
    return jsonResponse(
      429,
      { message: `Too many requests: this client may send ${rate} per second to /mcp` },
      { 'retry-after': '1' },
    );
  }

  const body = bodyText(event);
  const read = singleMessage(body);
  if ('refusal' in read) return read.refusal;

  return answerMcpMessage(event.headers, read.message, mcpServer, grant.orgId);
});
