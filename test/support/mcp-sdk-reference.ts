import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { McpHttpAnswer, McpServerDefinition } from '#api/mcp/protocol.ts';

/**
 * How /mcp answered a message before the server spoke the protocol itself:
 * `@modelcontextprotocol/sdk`'s McpServer and its stateless streamable-HTTP
 * transport with JSON responses, a fresh pair per request, built from the
 * same tools and handed the message the endpoint parsed, as
 * functions/mcp/handler.ts did. The reference the in-house protocol
 * (shared/api/mcp/protocol.ts) is held to.
 */
export async function sdkAnswer<C>(
  headers: Record<string, string | undefined>,
  message: unknown,
  definition: McpServerDefinition<C>,
  context: C,
): Promise<McpHttpAnswer> {
  const server = new McpServer(definition.serverInfo);
  for (const tool of await definition.tools()) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        // The SDK's typings want its own zod flavours; it handles any zod 4 object schema.
        inputSchema: tool.inputSchema as never,
        outputSchema: tool.outputSchema as never,
        annotations: tool.annotations,
      },
      ((input: unknown) => tool.run(input as never, context)) as never,
    );
  }
  server.server.registerCapabilities({ tools: { listChanged: false } });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    const requestHeaders = new Headers();
    for (const [name, value] of Object.entries(headers))
      if (value !== undefined) requestHeaders.set(name, value);
    const response = await transport.handleRequest(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: requestHeaders,
        body: JSON.stringify(message),
      }),
      { parsedBody: message },
    );
    return {
      statusCode: response.status,
      headers: Object.fromEntries(response.headers.entries()),
      body: await response.text(),
    };
  } finally {
    await server.close();
  }
}
