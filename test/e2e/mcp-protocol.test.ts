import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LATEST_PROTOCOL_VERSION,
  MAX_REQUEST_BODY_BYTES,
  REQUEST_BODY_TOO_LARGE,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '#api/mcp/protocol.ts';
import { createOAuthClient } from '#domain/oauth-clients.ts';
import { createOrganization } from '#domain/organizations.ts';
import { clientCredentialsToken } from '../../infra/local/route-requests.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { smallDocument } from '../support/fixtures.ts';
import { importFor } from '../support/import.ts';
import { startTestStack } from '../support/local-stack.ts';
import { contractMembers } from '../support/problem.ts';

/**
 * The protocol of /mcp over HTTP, as the server implements it itself
 * (shared/api/mcp/protocol.ts): every exchange captured from the endpoint
 * when it ran on @modelcontextprotocol/sdk (test/fixtures/mcp/exchanges.json,
 * its tools/list in tools-list.json) is answered alike, byte for byte, and
 * each way a request can be refused is spelled out. The SDK's client talking
 * to the server is mcp.test.ts; the server against the SDK's, message by
 * message, test/integration/mcp-protocol.property.test.ts.
 */

let stack: LocalStack;
let token: string;

beforeAll(async () => {
  stack = await startTestStack();
  const { orgId } = await createOrganization('MCP Protocol Inc');
  await importFor(orgId, smallDocument());
  token = await clientCredentialsToken(
    stack.apiUrl,
    await createOAuthClient(orgId, 'Protocol', [], { rateLimit: 1000 }),
  );
});
afterAll(() => stack.stop());

const BASE_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
/** Response headers of the connection or the request rather than of the answer. */
const INCIDENTAL_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'x-amzn-requestid',
  'x-amzn-trace-id',
  'x-request-id',
  // The local gateway's compression (API Gateway's minimumCompressionSize), after the function answered.
  'content-encoding',
  'vary',
]);

/** Sends a request to /mcp with the base headers and a valid token, `overrides` applied (null removes). */
async function send(
  body: string | null,
  overrides: Record<string, string | null> = {},
  method = 'POST',
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  for (const [name, value] of Object.entries({ ...BASE_HEADERS, ...overrides }))
    if (value !== null) headers[name] = value;
  const response = await fetch(`${stack.apiUrl}/mcp`, { method, headers, body: body ?? undefined });
  const answerHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!INCIDENTAL_HEADERS.has(name)) answerHeaders[name] = value;
  });
  return { status: response.status, headers: answerHeaders, body: await response.text() };
}

const post = (message: unknown, overrides: Record<string, string | null> = {}) =>
  send(typeof message === 'string' ? message : JSON.stringify(message), overrides);

const json = (answer: { body: string }) => JSON.parse(answer.body) as Record<string, unknown>;

/** How the transport refuses a request it cannot take as a whole: the SDK's JSON, `id: null`. */
const transportRefusal = (status: number, code: number, message: string) => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }),
});
/** How the handler refuses a body before the protocol reads it. */
const bodyRefusal = (status: number, code: number, message: string) => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }),
});

const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
const initialize = (protocolVersion: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

describe('every exchange captured before the server implemented the protocol itself', () => {
  const captured = JSON.parse(readFileSync('test/fixtures/mcp/exchanges.json', 'utf8')) as Record<
    string,
    {
      request: { method: string; headers: Record<string, string | null>; body: string | null };
      response: { status: number; headers: Record<string, string>; body: string };
    }
  >;

  it.each(Object.entries(captured))('is answered alike: %s', async (_name, { request, response }) => {
    const answer = await send(request.body, request.headers, request.method);
    // The service's own `{message}` refusals (not JSON-RPC's) carry the RFC 9457 members since issue 37.
    if (answer.status >= 400 && !answer.body.includes('"jsonrpc"')) {
      answer.body = JSON.stringify(contractMembers(answer.status, answer.body));
    }
    expect(answer).toEqual(response);
  });
});

describe('tools/list', () => {
  it('lists the tools byte for byte as the SDK did (test/fixtures/mcp/tools-list.json)', async () => {
    const answer = await post({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
    const captured = JSON.parse(readFileSync('test/fixtures/mcp/tools-list.json', 'utf8')) as unknown;
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(JSON.stringify(captured));
  });
});

describe('the transport', () => {
  it('answers GET, DELETE and other methods 405 with Allow: POST', async () => {
    for (const method of ['GET', 'DELETE', 'PUT', 'PATCH']) {
      const answer = await send(method === 'GET' || method === 'DELETE' ? null : '{}', {}, method);
      expect({ method, status: answer.status, allow: answer.headers.allow }).toEqual({
        method,
        status: 405,
        allow: 'POST',
      });
      expect(json(answer)).toMatchObject({
        message: 'Method not allowed: the MCP endpoint takes POST only (stateless)',
      });
    }
  });

  it('answers 406 unless Accept names both application/json and text/event-stream', async () => {
    const refused = transportRefusal(
      406,
      -32000,
      'Not Acceptable: Client must accept both application/json and text/event-stream',
    );
    for (const accept of ['application/json', 'text/event-stream', '*/*', 'application/*, text/*', null])
      expect(await post(ping, { accept })).toEqual(refused);
    // Named is enough, in any order or with any weight (the SDK's substring test).
    for (const accept of ['text/event-stream,application/json', 'application/json, text/event-stream;q=0'])
      expect((await post(ping, { accept })).status).toBe(200);
  });

  it('answers 415 unless the Content-Type is application/json, parameters aside', async () => {
    const refused = transportRefusal(
      415,
      -32000,
      'Unsupported Media Type: Content-Type must be application/json',
    );
    for (const contentType of [
      'text/plain',
      'application/json-patch+json',
      'text/plain; a=application/json',
      null,
    ])
      expect(await post(ping, { 'content-type': contentType })).toEqual(refused);
    for (const contentType of [
      'application/json; charset=utf-8',
      'Application/JSON',
      'application/json; charset',
    ])
      expect((await post(ping, { 'content-type': contentType })).status).toBe(200);
  });

  it('answers 413 to a body over 4 MiB', async () => {
    const body = JSON.stringify({ ...ping, params: { _meta: { pad: 'x'.repeat(MAX_REQUEST_BODY_BYTES) } } });
    expect(await post(body)).toEqual(bodyRefusal(413, -32000, REQUEST_BODY_TOO_LARGE));
  });

  it('answers 400 to an unsupported MCP-Protocol-Version, and takes any supported one or none', async () => {
    expect(await post(ping, { 'mcp-protocol-version': '1999-01-01' })).toEqual(
      transportRefusal(
        400,
        -32000,
        `Bad Request: Unsupported protocol version: 1999-01-01 (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
      ),
    );
    for (const version of SUPPORTED_PROTOCOL_VERSIONS)
      expect((await post(ping, { 'mcp-protocol-version': version })).status).toBe(200);
    expect((await post(ping)).status).toBe(200);
    // initialize negotiates the version in its params, whatever the header says.
    expect((await post(initialize('2025-06-18'), { 'mcp-protocol-version': '1999-01-01' })).status).toBe(200);
  });

  it('answers -32700 to a body that is not JSON, or not a JSON-RPC message', async () => {
    expect(await post('{"jsonrpc": "2.0", "method": ')).toEqual(
      bodyRefusal(400, -32700, 'Parse error: Invalid JSON'),
    );
    expect(await post('')).toEqual(bodyRefusal(400, -32700, 'Parse error: Invalid JSON'));
    const notJsonRpc = transportRefusal(400, -32700, 'Parse error: Invalid JSON-RPC message');
    for (const message of [
      { hello: 'world' },
      { jsonrpc: '1.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: null, method: 'ping' },
      { jsonrpc: '2.0', id: 1.5, method: 'ping' },
      { jsonrpc: '2.0', id: 1, method: 'ping', extra: true },
      { jsonrpc: '2.0', id: 1, method: 'ping', params: [1] },
      'hello',
      null,
    ])
      expect(await post(JSON.stringify(message))).toEqual(notJsonRpc);
  });

  it('answers -32600 to a batch', async () => {
    expect(await post([ping])).toEqual(
      bodyRefusal(
        400,
        -32600,
        'Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18 removed them); send one message per request',
      ),
    );
  });

  it('answers a notification, or a response, 202 without a body', async () => {
    for (const message of [
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      { jsonrpc: '2.0', method: 'notifications/anything' },
      { jsonrpc: '2.0', id: 5, result: {} },
      { jsonrpc: '2.0', id: 5, error: { code: 1, message: 'x' } },
    ])
      expect(await post(message)).toEqual({ status: 202, headers: {}, body: '' });
  });
});

describe('JSON-RPC', () => {
  it('answers ping with an empty result, echoing the id', async () => {
    for (const id of [1, 'p', -3, 0])
      expect(await post({ ...ping, id })).toEqual({
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ result: {}, jsonrpc: '2.0', id }),
      });
  });

  it('negotiates the protocol version: the client’s if supported, else the latest', async () => {
    for (const [asked, agreed] of [
      ...SUPPORTED_PROTOCOL_VERSIONS.map((version) => [version, version]),
      ['1999-01-01', LATEST_PROTOCOL_VERSION],
    ]) {
      expect(json(await post(initialize(asked!)))).toEqual({
        result: {
          protocolVersion: agreed,
          capabilities: { tools: { listChanged: false } },
          serverInfo: { name: 'outreach-campaign-public-api', version: '1.0.0' },
        },
        jsonrpc: '2.0',
        id: 1,
      });
    }
  });

  it('answers an unknown method -32601', async () => {
    for (const method of ['resources/list', 'prompts/list', 'logging/setLevel', 'constructor'])
      expect(json(await post({ jsonrpc: '2.0', id: 9, method }))).toEqual({
        jsonrpc: '2.0',
        id: 9,
        error: { code: -32601, message: 'Method not found' },
      });
  });

  it('answers params its schema refuses -32603 with the issues, as the SDK did', async () => {
    expect(
      json(await post({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { arguments: {} } })),
    ).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: {
        code: -32603,
        message: JSON.stringify(
          [
            {
              expected: 'string',
              code: 'invalid_type',
              path: ['params', 'name'],
              message: 'Invalid input: expected string, received undefined',
            },
          ],
          null,
          2,
        ),
      },
    });
    const task = json(await post({ ...ping, params: { task: {} } }));
    expect(task.error).toEqual({
      code: -32603,
      message: 'Server does not support task creation (required for ping)',
    });
  });

  it('answers an unknown tool and refused arguments with -32602 tool errors', async () => {
    const call = (name: string, args: Record<string, unknown>) =>
      post({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name, arguments: args } }).then(json);
    expect(await call('drop_tables', {})).toEqual({
      result: {
        content: [{ type: 'text', text: 'MCP error -32602: Tool drop_tables not found' }],
        isError: true,
      },
      jsonrpc: '2.0',
      id: 4,
    });
    expect(await call('list_campaign_contacts', { campaign_id: -1, skip: 1.5 })).toEqual({
      result: {
        content: [
          {
            type: 'text',
            text: 'MCP error -32602: Input validation error: Invalid arguments for tool list_campaign_contacts: Too small: expected number to be >0 at campaign_id\nInvalid input: expected int, received number at skip',
          },
        ],
        isError: true,
      },
      jsonrpc: '2.0',
      id: 4,
    });
  });

  it('answers a tool call with structured content and its summary', async () => {
    const answer = json(
      await post({
        jsonrpc: '2.0',
        id: 'c',
        method: 'tools/call',
        params: { name: 'get_campaign', arguments: { campaign_id: 101 } },
      }),
    );
    expect(answer).toMatchObject({
      result: {
        content: [{ type: 'text', text: 'Campaign 101 Fintech CFOs: 1 sent, 1 opened, 1 replied' }],
        structuredContent: { id: 101, icp_name: 'Fintech CFOs' },
      },
      jsonrpc: '2.0',
      id: 'c',
    });
    expect(Object.keys(answer.result as object)).toEqual(['content', 'structuredContent']);
  });
});
