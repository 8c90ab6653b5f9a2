import type { McpServerDefinition } from './protocol.ts';
import type { OrgId } from './tools.ts';

/**
 * The MCP server: its name, its tools (./tools.ts) and their `tools/list`
 * listing. The tools and everything they use (the endpoints' schemas, the
 * use cases' loaders) are a module loaded on the first `tools/call`, so that a
 * cold start builds none of their schemas: `initialize` and `tools/list` need
 * none, and the listing was converted at build time (tool-listing.ts; a unit
 * test holds it to the tools) and is loaded by the one method that answers
 * with it.
 */
export const mcpServer: McpServerDefinition<OrgId> = {
  serverInfo: { name: 'outreach-campaign-public-api', version: '1.0.0' },
  tools: async () => (await import('./tools.ts')).mcpTools(),
  toolList: async () => (await import('./tool-list.json', { with: { type: 'json' } })).default,
};
