import fc from 'fast-check';
import { MAX_CONTACTS_PER_REQUEST } from '#definitions/raw-operations.ts';
import { MAX_JOBS_PAGE } from '#schemas/jobs.ts';
import { MAX_PAGE_SIZE } from '#schemas/params.ts';
import { validRequest, validToolArguments } from '../../../infra/local/route-requests.ts';
import { requestFlaws } from './api-cases.ts';
import {
  badDateTimeText,
  badDomainText,
  badIdJson,
  badIntegerJson,
  badStatusText,
  json,
  longerThan,
  manyItems,
  notABoolean,
  notAJsonObject,
  notAnEmail,
  notAString,
  objectText,
  unicode,
  unknownId,
} from './arbitraries.ts';
import type { BadRequest, Case, Route } from './cases.ts';
import { target, world } from './world.ts';

/**
 * /mcp: HTTP errors are `{message}`; what reaches the MCP transport is
 * JSON-RPC, and a tool's own refusals are tool errors.
 */

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const JSONRPC_PARSE_ERROR = -32700;
/** A batch (any JSON array) is refused as a whole: protocol 2025-06-18 has none. */
const JSONRPC_INVALID_REQUEST = -32600;
const JSONRPC_METHOD_NOT_FOUND = -32601;
/**
 * The SDK (1.32) answers a request whose params fail its own schema with
 * -32603 (internal error) and the zod issues, where JSON-RPC says -32602; both
 * are accepted here, and the report says so.
 */
const JSONRPC_INVALID_PARAMS = [-32602, -32603];

/**
 * The tools that take arguments, with their bad values (the two without ignore unknown ones: their input
 * schemas are open objects). The valid arguments are the catalogue's (infra/local/route-requests.ts).
 */
const BAD_ARGUMENTS: Record<string, { bad: Record<string, fc.Arbitrary<string>> }> = {
  lookup_account: {
    bad: {
      domain: fc.oneof(notAString, badDomainText.map(json), longerThan(2048).map(json)),
      id: fc.oneof(badIdJson, unknownId.map(json)),
      campaign_id: fc.oneof(badIdJson, unknownId.map(json)),
    },
  },
  get_campaign: {
    bad: { campaign_id: fc.oneof(badIdJson, unknownId.map(json)) },
  },
  list_campaign_accounts: {
    bad: {
      campaign_id: fc.oneof(badIdJson, unknownId.map(json)),
      from: badIntegerJson(0),
      take: badIntegerJson(1, MAX_PAGE_SIZE),
    },
  },
  list_campaign_contacts: {
    bad: {
      campaign_id: fc.oneof(badIdJson, unknownId.map(json)),
      skip: badIntegerJson(0),
      take: badIntegerJson(1, MAX_PAGE_SIZE),
      status: fc.oneof(notAString, badStatusText.map(json)),
    },
  },
  search_jobs: {
    bad: {
      domain: fc.oneof(notAString, badDomainText.map(json), longerThan(2048).map(json)),
      since: fc.oneof(notAString, badDateTimeText.map(json)),
      cursor: fc.oneof(badIdJson, unknownId.map(json)),
      take: badIntegerJson(1, MAX_JOBS_PAGE),
    },
  },
  check_eligibility: {
    bad: {
      campaign_id: fc.oneof(badIdJson, unknownId.map(json)),
      emails: fc.oneof(
        fc.constantFrom('"ann@acme.com"', '{}', 'null', '[1]'),
        notAnEmail.map((email) => json(['ann@acme.com', email])),
        fc.constant(manyItems('"bulk@fresh-example.com"', MAX_CONTACTS_PER_REQUEST + 1)),
      ),
      bypassCooldownOtherSequences: notABoolean,
      bypassGlobalExcluded: notABoolean,
      takeoverUnapproved: notABoolean,
      sequenceId: fc.oneof(badIdJson, fc.constantFrom('203', '999999')),
    },
  },
};

function isJsonArray(text: string): boolean {
  try {
    return Array.isArray(JSON.parse(text));
  } catch {
    return false;
  }
}

const rpcId = fc.oneof(fc.integer({ min: 1, max: 1e9 }), fc.stringMatching(/^[a-z0-9-]{1,16}$/));

interface ToolArguments {
  /** The required arguments, raw JSON. */
  good: Record<string, string>;
  bad: Record<string, fc.Arbitrary<string>>;
}

export function mcpCases(route: Route): fc.Arbitrary<Case> {
  const validArguments = validToolArguments(target());
  const TOOLS: Record<string, ToolArguments> = Object.fromEntries(
    Object.entries(BAD_ARGUMENTS).map(([name, { bad }]) => [
      name,
      {
        good: Object.fromEntries(
          Object.entries(validArguments[name] ?? {}).map(([argument, value]) => [argument, json(value)]),
        ),
        bad,
      },
    ]),
  );
  const catalogued = validRequest('mcp', target());
  const valid: BadRequest = {
    method: catalogued.method,
    url: catalogued.url,
    headers: catalogued.headers,
    body: catalogued.body,
  };
  const rpc = (body: string, headers: Record<string, string> = {}): BadRequest => ({
    method: 'POST',
    url: '/mcp',
    headers: { ...MCP_HEADERS, authorization: `Bearer ${world.accessToken}`, ...headers },
    body,
  });
  const call = (id: number | string, name: string, args: string) =>
    `{"jsonrpc":"2.0","id":${json(id)},"method":"tools/call","params":{"name":${json(name)},"arguments":${args}}}`;
  const toolNames = Object.keys(TOOLS);
  return fc.oneof(
    ...requestFlaws(route, valid),
    // HTTP-level refusals, before JSON-RPC: `{message}` with the OAuth challenge or the allowed method.
    fc
      .oneof(
        fc.constant<Record<string, string>>({}),
        fc
          .constantFrom('Bearer', 'Bearer ', 'Basic abc', 'bearer', `Token ${'x'.repeat(10)}`)
          .map((value) => ({ authorization: value })),
        fc.stringMatching(/^[A-Za-z0-9_-]{43}$/).map((secret) => ({ authorization: `Bearer mat_${secret}` })),
        fc
          .string({
            unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
            minLength: 1,
            maxLength: 80,
          })
          .map((token) => ({ authorization: `Bearer ${token}` })),
      )
      .map(
        (headers): Case => ({
          flaw: `authorization ${JSON.stringify(headers)}`,
          request: {
            method: 'POST',
            url: '/mcp',
            headers: { ...MCP_HEADERS, ...headers },
            body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
          },
          status: 401,
          protocol: 'message',
          header: {
            name: 'www-authenticate',
            value: /^Bearer resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp"/,
          },
        }),
      ),
    fc.constantFrom('GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS').map(
      (method): Case => ({
        flaw: `method ${method}`,
        request: { ...rpc(''), method, body: method === 'GET' ? undefined : '{}' },
        status: 405,
        protocol: 'message',
        header: { name: 'allow', value: /^POST$/ },
      }),
    ),
    // What the transport refuses: not JSON, not a JSON-RPC message, a batch, the wrong media types or
    // protocol version.
    fc
      .oneof(
        notAJsonObject,
        fc.constant(''),
        fc.constantFrom(
          '{}',
          '{"jsonrpc":"2.0"}',
          '{"jsonrpc":"2.0","id":1}',
          '{"jsonrpc":"1.0","id":1,"method":"ping"}',
          '{"id":1,"method":"ping"}',
          '{"jsonrpc":"2.0","id":null,"method":"ping"}',
          '{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
          '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}',
          '{"jsonrpc":"2.0","method":5,"id":1}',
          '{"jsonrpc":"2.0","id":1,"method":"ping","params":[]}',
          '{"jsonrpc":"2.0","id":1,"method":"initialize","params":5}',
          '[{"jsonrpc":"2.0","id":1,"method":"ping"},5]',
        ),
        fc
          .dictionary(
            unicode(10, 1).filter((name) => name !== 'jsonrpc'),
            fc.jsonValue({ maxDepth: 1 }),
            { maxKeys: 4 },
          )
          .map(json),
      )
      .map(
        (body): Case => ({
          flaw: `not a JSON-RPC message: ${body.slice(0, 100)}`,
          request: rpc(body),
          status: 400,
          protocol: 'jsonrpc',
          codes: [isJsonArray(body) ? JSONRPC_INVALID_REQUEST : JSONRPC_PARSE_ERROR],
        }),
      ),
    fc
      .constantFrom<{ flaw: string; headers: Record<string, string>; status: number }>(
        { flaw: 'accept without text/event-stream', headers: { accept: 'application/json' }, status: 406 },
        { flaw: 'accept text/html', headers: { accept: 'text/html' }, status: 406 },
        { flaw: 'content-type text/plain', headers: { 'content-type': 'text/plain' }, status: 415 },
        {
          flaw: 'content-type form',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          status: 415,
        },
        {
          flaw: 'an unknown protocol version',
          headers: { 'mcp-protocol-version': '1999-01-01' },
          status: 400,
        },
      )
      .map(
        ({ flaw, headers, status }): Case => ({
          flaw,
          request: rpc('{"jsonrpc":"2.0","id":1,"method":"tools/list"}', headers),
          status,
          protocol: 'jsonrpc',
        }),
      ),
    // Well-formed JSON-RPC the server has no answer for.
    fc
      .tuple(
        rpcId,
        fc.oneof(
          fc.constantFrom(
            'tools/delete',
            'Tools/List',
            'resources/list',
            'prompts/list',
            'completion/complete',
            'admin',
          ),
          fc.stringMatching(/^x-[a-z/]{1,20}$/),
        ),
      )
      .map(
        ([id, method]): Case => ({
          flaw: `method ${method}`,
          request: rpc(json({ jsonrpc: '2.0', id, method })),
          status: 200,
          protocol: 'jsonrpc',
          codes: [JSONRPC_METHOD_NOT_FOUND],
          rpcId: id,
        }),
      ),
    fc
      .tuple(
        rpcId,
        fc.constantFrom(
          '',
          ',"params":5',
          ',"params":{}',
          ',"params":{"name":5}',
          ',"params":{"name":"get_campaign","arguments":5}',
          ',"params":{"name":"get_campaign","arguments":"x"}',
        ),
      )
      .map(
        ([id, params]): Case => ({
          flaw: `tools/call with params ${params}`,
          request: rpc(`{"jsonrpc":"2.0","id":${json(id)},"method":"tools/call"${params}}`),
          // A params value that is no object at all is not a valid JSON-RPC request (the transport refuses it).
          status: params === ',"params":5' ? 400 : 200,
          protocol: 'jsonrpc',
          codes: params === ',"params":5' ? [JSONRPC_PARSE_ERROR] : JSONRPC_INVALID_PARAMS,
          rpcId: params === ',"params":5' ? undefined : id,
        }),
      ),
    // Tool errors: an unknown tool, a missing or bad argument, something that does not exist.
    fc
      .tuple(
        rpcId,
        fc
          .oneof(fc.constantFrom('drop_tables', 'LIST_CAMPAIGNS', ''), fc.stringMatching(/^[a-z_]{1,30}$/))
          .filter(
            (name) =>
              !toolNames.includes(name) && name !== 'list_campaigns' && name !== 'get_analytics_overview',
          ),
      )
      .map(
        ([id, name]): Case => ({
          flaw: `unknown tool ${name}`,
          request: rpc(call(id, name, '{}')),
          status: 200,
          protocol: 'toolError',
          rpcId: id,
        }),
      ),
    fc
      .tuple(rpcId, fc.constantFrom(...toolNames))
      .chain(([id, name]) => {
        const tool = TOOLS[name]!;
        const required = Object.keys(tool.good);
        return fc.oneof(
          fc.constantFrom(...required).map((missing) => {
            const { [missing]: _gone, ...rest } = tool.good;
            return { flaw: `${name} without ${missing}`, request: rpc(call(id, name, objectText(rest))), id };
          }),
          fc.constantFrom(...Object.keys(tool.bad)).chain((argument) =>
            tool.bad[argument]!.map((value) => ({
              flaw: `${name} with ${argument}=${value.slice(0, 100)}`,
              request: rpc(call(id, name, objectText({ ...tool.good, [argument]: value }))),
              id,
            })),
          ),
        );
      })
      .map(
        ({ flaw, request, id }): Case => ({ flaw, request, status: 200, protocol: 'toolError', rpcId: id }),
      ),
  );
}
