import type * as z from 'zod/mini';
import {
  callToolRequest,
  initializeRequest,
  type JsonRpcMessage,
  jsonRpcMessage,
  listToolsRequest,
  taskAugmentedParams,
} from '#schemas/mcp-messages.ts';

/**
 * The Model Context Protocol as this endpoint speaks it: the server side of
 * stateless Streamable HTTP with JSON responses (no event stream, no session),
 * JSON-RPC 2.0, and the four requests a tools-only server answers
 * (`initialize`, `ping`, `tools/list`, `tools/call`). It answers every message
 * exactly as `@modelcontextprotocol/sdk` 1.32.2 did (its
 * `WebStandardStreamableHTTPServerTransport` with `enableJsonResponse` and no
 * session, its `McpServer`), statuses, headers, bodies and error texts
 * included, without the SDK's weight at run time (docs/mcp.md, "Protocol").
 * test/unit/mcp-protocol.test.ts holds the two side by side. Messages are
 * parsed with the SDK's schemas as rebuilt with zod/mini in
 * shared/schemas/mcp-messages.ts.
 */

/** The protocol versions the SDK supported, newest first: a client naming another gets the latest. */
export const LATEST_PROTOCOL_VERSION = '2025-11-25';
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  LATEST_PROTOCOL_VERSION,
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
  '2024-10-07',
];
/**
 * The version a request without `MCP-Protocol-Version` is taken to speak (the
 * specification's fallback). No answer of this server depends on the version,
 * so it is only checked, never used.
 */
export const DEFAULT_NEGOTIATED_PROTOCOL_VERSION = '2025-03-26';

/** The largest body the transport reads (4 MiB, the SDK's default), and its 413's message. */
export const MAX_REQUEST_BODY_BYTES = 4 * 1024 * 1024;
export const REQUEST_BODY_TOO_LARGE = `Payload Too Large: Request body must not exceed ${MAX_REQUEST_BODY_BYTES} bytes`;

/** JSON-RPC 2.0 error codes, and the SDK's implementation-defined transport error. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
export const TRANSPORT_ERROR = -32000;

/** A tool's result: text content, and the structured content its output schema describes. */
export interface CallToolResult {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A tool of a server whose calls run with a context `C` (the caller's organization, say). */
export interface McpTool<C, I extends z.core.$ZodObject = z.core.$ZodObject> {
  name: string;
  title: string;
  description: string;
  /** An object schema: the arguments are parsed with it, and it is listed as JSON Schema (input side). */
  inputSchema: I;
  /** Listed as JSON Schema (output side); the tool shapes its structured content with it. */
  outputSchema: z.core.$ZodType;
  annotations: ToolAnnotations;
  run: (input: z.output<I>, context: C) => Promise<CallToolResult>;
}

/** Types a tool by its input schema, then erases that type so tools of any input fit one list. */
export const defineTool = <C, I extends z.core.$ZodObject>(tool: McpTool<C, I>): McpTool<C> =>
  tool as unknown as McpTool<C>;

export interface McpServerDefinition<C> {
  serverInfo: { name: string; version: string };
  /** The tools, in the order `tools/list` gives them; the same list on every call. */
  tools: () => Promise<readonly McpTool<C>[]>;
  /**
   * What `tools/list` answers: each tool's listing (tool-listing.ts), in the
   * order of `tools`. A server may keep it converted ahead of time, so that
   * answering needs no JSON Schema conversion at run time.
   */
  toolList: () => Promise<readonly object[]>;
}

/** What the endpoint answers: an API Gateway proxy result. */
export interface McpHttpAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

type EventHeaders = Record<string, string | undefined> | null | undefined;

/** The transport's own answers carry this Content-Type, without a charset, as the SDK's did. */
const JSON_CONTENT = { 'content-type': 'application/json' };

/** An answer about a message that could not be taken as a whole: JSON-RPC 2.0 §5 puts `id: null`. */
export const transportError = (statusCode: number, code: number, message: string): McpHttpAnswer => ({
  statusCode,
  headers: { ...JSON_CONTENT },
  body: JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }),
});

/**
 * A request header as the SDK read it from a `Headers` built from the event's:
 * names compared without case, the last one given winning, the value stripped of
 * leading and trailing HTTP whitespace.
 */
function headerValue(headers: EventHeaders, name: string): string | undefined {
  let value: string | undefined;
  for (const [key, given] of Object.entries(headers ?? {}))
    if (given !== undefined && given !== null && key.toLowerCase() === name) value = given;
  return value?.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
}

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}$`);
// The `content-type` package's grammar (RFC 9110): `; name=value`, the value a token or a quoted string
// (where the package also allows a vertical tab).
const MEDIA_TYPE_PARAMETER = new RegExp(
  `; *(${TOKEN}) *= *("(?:[\\u000b\\u0020\\u0021\\u0023-\\u005b\\u005d-\\u007e\\u0080-\\u00ff]|\\\\[\\u000b\\u0020-\\u00ff])*"|${TOKEN}) *`,
  'y',
);

/** The lower-cased `type/subtype` of a Content-Type the `content-type` package parses, else undefined. */
function parsedMediaType(header: string): string | undefined {
  let index = header.indexOf(';');
  const type = (index === -1 ? header : header.slice(0, index)).trim();
  if (!MEDIA_TYPE.test(type)) return undefined;
  if (index !== -1) {
    for (;;) {
      MEDIA_TYPE_PARAMETER.lastIndex = index;
      const match = MEDIA_TYPE_PARAMETER.exec(header);
      if (!match) break;
      index += match[0].length;
    }
    if (index !== header.length) return undefined;
  }
  return type.toLowerCase();
}

/**
 * Whether a Content-Type is application/json, parameters aside: the SDK's
 * `isJsonContentType`. A parameter section the grammar refuses still counts if
 * the media type before it is unambiguous (no comma after it, which would mean
 * joined duplicate headers).
 */
function isJsonContentType(header: string | undefined): boolean {
  if (header === 'application/json') return true;
  if (!header) return false;
  let essence = parsedMediaType(header);
  if (essence === undefined) {
    essence = (header.split(';', 1)[0] ?? '').trim().toLowerCase();
    if (essence === '' || header.slice(essence.length).includes(',')) return false;
  }
  return essence === 'application/json';
}

/** The message of the SDK's `McpError`, which a tool error's text carries. */
const mcpErrorMessage = (code: number, message: string) => `MCP error ${code}: ${message}`;

/** An error a request handler throws to be answered with its code and message. */
class RequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The SDK's `getParseErrorMessage`: each issue's message and the dotted path
 * it is at, one per line. (The SDK fell back on the error's message for an
 * error of no issues, which a refusal never is.)
 */
function issuesText(issues: readonly z.core.$ZodIssue[]): string {
  const dotted = (path: PropertyKey[]) =>
    path.reduce<string>((text, segment, index) => {
      if (index === 0) return String(segment);
      return typeof segment === 'number' ? `${text}[${segment}]` : `${text}.${String(segment)}`;
    }, '');
  return issues
    .map((issue) => (issue.path.length ? `${issue.message} at ${dotted(issue.path)}` : issue.message))
    .join('\n');
}

/** A request parsed with its method's schema, as the SDK parsed every request before its handler ran. */
function parsed<S extends z.ZodMiniType>(schema: S, request: JsonRpcMessage): z.output<S> {
  const result = schema.safeParse(request);
  if (result.success) return result.data;
  // A zod error has no JSON-RPC code: it is answered -32603 with the issues as JSON (its message), the SDK's answer.
  throw new RequestError(INTERNAL_ERROR, result.error.message);
}

/**
 * `tools/call` once its params parsed: every refusal from here on (an unknown
 * tool, arguments its schema refuses, a failure of the tool) is a tool error
 * the assistant reads, not a JSON-RPC error.
 */
async function callTool<C>(
  server: McpServerDefinition<C>,
  name: string,
  args: Record<string, unknown> | undefined,
  context: C,
): Promise<CallToolResult> {
  try {
    const tool = (await server.tools()).find((candidate) => candidate.name === name);
    if (!tool) {
      // The SDK looked tools up in a plain object, where an inherited member (`constructor`,
      // `toString`) is found but not enabled: "disabled", not "not found".
      const inherited = name in Object.prototype;
      throw new Error(
        mcpErrorMessage(INVALID_PARAMS, `Tool ${name} ${inherited ? 'disabled' : 'not found'}`),
      );
    }
    // The schema's Standard Schema interface: zod's parse, with its issues worded (zod came with the tools).
    const input = await tool.inputSchema['~standard'].validate(args ?? {});
    if (input.issues) {
      throw new Error(
        mcpErrorMessage(
          INVALID_PARAMS,
          `Input validation error: Invalid arguments for tool ${name}: ${issuesText(input.issues as readonly z.core.$ZodIssue[])}`,
        ),
      );
    }
    const { content, structuredContent, isError } = await tool.run(
      input.value as z.output<typeof tool.inputSchema>,
      context,
    );
    // The members in the order the SDK's result schema gave them back.
    return {
      content,
      ...(structuredContent !== undefined && { structuredContent }),
      ...(isError !== undefined && { isError }),
    };
  } catch (error) {
    return {
      content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }],
      isError: true,
    };
  }
}

type RequestHandler = <C>(
  request: JsonRpcMessage,
  server: McpServerDefinition<C>,
  context: C,
) => Promise<unknown> | unknown;

/** The requests this server answers; any other method is -32601. */
const HANDLERS = new Map<string, RequestHandler>([
  [
    'initialize',
    async (request, server) => {
      const { params } = parsed(initializeRequest, request);
      return {
        protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(params.protocolVersion)
          ? params.protocolVersion
          : LATEST_PROTOCOL_VERSION,
        // A fixed tool list, and no stream to announce a change on.
        capabilities: { tools: { listChanged: false } },
        serverInfo: server.serverInfo,
      };
    },
  ],
  // The message schema already checked everything a ping's params may hold.
  ['ping', () => ({})],
  [
    'tools/list',
    async (request, server) => {
      // `cursor` is checked, and ignored: one page holds every tool.
      parsed(listToolsRequest, request);
      return { tools: await server.toolList() };
    },
  ],
  [
    'tools/call',
    async (request, server, context) => {
      const { params } = parsed(callToolRequest, request);
      return callTool(server, params.name, params.arguments, context);
    },
  ],
]);

/** A JSON-RPC request's response: its result, or an error with its code and message, the request's id echoed. */
async function respond<C>(
  request: Extract<JsonRpcMessage, { id: string | number; method: string }>,
  server: McpServerDefinition<C>,
  context: C,
): Promise<object> {
  const handler = HANDLERS.get(request.method);
  if (!handler)
    return { jsonrpc: '2.0', id: request.id, error: { code: METHOD_NOT_FOUND, message: 'Method not found' } };
  try {
    // Params asking for a task (2025-11-25) are refused for any method: the server creates none.
    const task = taskAugmentedParams.safeParse(request.params);
    if (task.success && task.data.task)
      throw new Error(`Server does not support task creation (required for ${request.method})`);
    const result = await handler(request, server, context);
    return { result, jsonrpc: '2.0', id: request.id };
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: string };
    return {
      jsonrpc: '2.0',
      id: request.id,
      error: {
        code: Number.isSafeInteger(code) ? code : INTERNAL_ERROR,
        message: message ?? 'Internal error',
      },
    };
  }
}

/**
 * Answers one JSON-RPC message, already parsed from a body the caller bounded
 * (and found not to be a batch), in the transport's order: Accept (406),
 * Content-Type (415), the message's shape (400, -32700), the
 * `MCP-Protocol-Version` header on anything but an `initialize` request (400),
 * then 202 without a body for a notification or a response, and the JSON-RPC
 * response for a request.
 */
export async function answerMcpMessage<C>(
  headers: EventHeaders,
  body: unknown,
  server: McpServerDefinition<C>,
  context: C,
): Promise<McpHttpAnswer> {
  // A substring test, as the SDK's: Accept is a list, and the check is that both are named.
  const accept = headerValue(headers, 'accept');
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
    return transportError(
      406,
      TRANSPORT_ERROR,
      'Not Acceptable: Client must accept both application/json and text/event-stream',
    );
  }
  if (!isJsonContentType(headerValue(headers, 'content-type'))) {
    return transportError(
      415,
      TRANSPORT_ERROR,
      'Unsupported Media Type: Content-Type must be application/json',
    );
  }
  const read = jsonRpcMessage.safeParse(body);
  if (!read.success) return transportError(400, PARSE_ERROR, 'Parse error: Invalid JSON-RPC message');
  const message = read.data;

  // Version negotiation is initialize's business; everything else must name a version the server speaks, or none.
  const initializing =
    'method' in message && message.method === 'initialize' && initializeRequest.safeParse(message).success;
  if (!initializing) {
    const version = headerValue(headers, 'mcp-protocol-version');
    if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      return transportError(
        400,
        TRANSPORT_ERROR,
        `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
      );
    }
  }

  if (!('method' in message && 'id' in message)) return { statusCode: 202, headers: {}, body: '' };
  const response = await respond(message, server, context);
  return { statusCode: 200, headers: { ...JSON_CONTENT }, body: JSON.stringify(response) };
}
