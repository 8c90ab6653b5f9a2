import '#definitions/zod-english.ts';
import * as z from 'zod/mini';
import { isObjectLike } from './refinements.ts';
import { formElicitationByDefault } from './transforms.ts';

/**
 * The JSON-RPC and MCP message schemas the /mcp endpoint checks requests with: those
 * of `@modelcontextprotocol/sdk` 1.32.2 (`dist/esm/types.js`), which served
 * /mcp before this server spoke the protocol itself, rebuilt with zod/mini
 * shape for shape, wrapper for wrapper. So a message is taken or refused
 * exactly as before, the same fields reach the handlers (the SDK parsed and
 * re-parsed every message; parsing is not only checking), and a refused
 * request's error lists the same zod issues in the same order with the same
 * messages (test/unit/mcp-protocol.test.ts compares both on generated
 * messages). Only what this server reads is rebuilt: the messages a client
 * sends, and the params of the four requests it answers.
 * The SDK's preprocessing and object test are named functions (transforms.ts,
 * refinements.ts).
 */

/** The SDK's `AssertObjectSchema`: anything but null that `typeof` calls an object or a function. */
const assertObject = () => z.custom<object>(isObjectLike);
/** Classic zod's `z.number().int()`: a number checked by the safe-integer format (mini's `z.int()` is a different wrapper). */
const integer = () => z.number().check(z.int());

const requestId = z.union([z.string(), integer()]);

/** The `_meta` every params object may carry. */
const meta = {
  _meta: z.optional(
    z.looseObject({
      progressToken: z.optional(z.union([z.string(), integer()])),
      'io.modelcontextprotocol/related-task': z.optional(z.object({ taskId: z.string() })),
    }),
  ),
};

const taskMetadata = z.object({ ttl: z.optional(z.number()) });

/** `JSONRPCMessageSchema`: a request, a notification, a result or an error, none with a member of another. */
export const jsonRpcMessage = z.union([
  z.strictObject({
    jsonrpc: z.literal('2.0'),
    id: requestId,
    method: z.string(),
    params: z.optional(z.looseObject(meta)),
  }),
  z.strictObject({
    jsonrpc: z.literal('2.0'),
    method: z.string(),
    params: z.optional(z.looseObject(meta)),
  }),
  z.strictObject({ jsonrpc: z.literal('2.0'), id: requestId, result: z.looseObject(meta) }),
  z.strictObject({
    jsonrpc: z.literal('2.0'),
    id: z.optional(requestId),
    error: z.object({ code: integer(), message: z.string(), data: z.optional(z.unknown()) }),
  }),
]);

/** A JSON-RPC message as the message schema gives it back. */
export type JsonRpcMessage = z.output<typeof jsonRpcMessage>;

/** `InitializeRequestSchema`, with `ClientCapabilitiesSchema` and `ImplementationSchema`. */
const formElicitation = z.intersection(
  z.object({ applyDefaults: z.optional(z.boolean()) }),
  z.record(z.string(), z.unknown()),
);
const elicitation = z.pipe(
  // Classic `z.preprocess(fn, schema)` is this pipe: `{}` means form elicitation.
  z.transform(formElicitationByDefault),
  z.intersection(
    z.object({ form: z.optional(formElicitation), url: z.optional(assertObject()) }),
    z.optional(z.record(z.string(), z.unknown())),
  ),
);
const clientCapabilities = z.object({
  experimental: z.optional(z.record(z.string(), assertObject())),
  sampling: z.optional(z.object({ context: z.optional(assertObject()), tools: z.optional(assertObject()) })),
  elicitation: z.optional(elicitation),
  roots: z.optional(z.object({ listChanged: z.optional(z.boolean()) })),
  tasks: z.optional(
    z.looseObject({
      list: z.optional(assertObject()),
      cancel: z.optional(assertObject()),
      requests: z.optional(
        z.looseObject({
          sampling: z.optional(z.looseObject({ createMessage: z.optional(assertObject()) })),
          elicitation: z.optional(z.looseObject({ create: z.optional(assertObject()) })),
        }),
      ),
    }),
  ),
  extensions: z.optional(z.record(z.string(), assertObject())),
});
const icon = z.object({
  src: z.string(),
  mimeType: z.optional(z.string()),
  sizes: z.optional(z.array(z.string())),
  theme: z.optional(z.enum(['light', 'dark'])),
});
const implementation = z.object({
  name: z.string(),
  title: z.optional(z.string()),
  icons: z.optional(z.array(icon)),
  version: z.string(),
  websiteUrl: z.optional(z.string()),
  description: z.optional(z.string()),
});
export const initializeRequest = z.object({
  method: z.literal('initialize'),
  params: z.object({
    ...meta,
    protocolVersion: z.string(),
    capabilities: clientCapabilities,
    clientInfo: implementation,
  }),
});

/** `ListToolsRequestSchema`. */
export const listToolsRequest = z.object({
  method: z.literal('tools/list'),
  params: z.optional(z.object({ ...meta, cursor: z.optional(z.string()) })),
});

/** `CallToolRequestSchema`. */
export const callToolRequest = z.object({
  method: z.literal('tools/call'),
  params: z.object({
    ...meta,
    task: z.optional(taskMetadata),
    name: z.string(),
    arguments: z.optional(z.record(z.string(), z.unknown())),
  }),
});

/** `TaskAugmentedRequestParamsSchema`: params asking for a task (which this server cannot create). */
export const taskAugmentedParams = z.object({ ...meta, task: z.optional(taskMetadata) });
