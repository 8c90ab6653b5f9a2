import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mcpServer } from '#api/mcp/server.ts';
import { mcpTools } from '#api/mcp/tools.ts';
import { MCP_TOOL_LIST_FILE, mcpToolList } from '../../infra/build-docs.ts';

describe('shared/api/mcp/tool-list.json', () => {
  it("equals a fresh conversion of the tools' schemas (run `npm run build` after changing a tool)", () => {
    const committed: unknown = JSON.parse(readFileSync(MCP_TOOL_LIST_FILE, 'utf8'));
    expect(committed).toStrictEqual(JSON.parse(JSON.stringify(mcpToolList())));
  });

  it('is what the server lists, a tool for each of its tools, in their order', async () => {
    const listed = (await mcpServer.toolList()) as { name: string }[];
    expect(listed.map((tool) => tool.name)).toEqual(mcpTools().map((tool) => tool.name));
    expect(await mcpServer.tools()).toBe(mcpTools());
  });
});
