import { toJSONSchema } from 'zod/mini';
import type { McpTool } from './protocol.ts';

/** What `tools/list` says of a tool: all of it but how it runs. */
type ToolListing = Omit<McpTool<never>, 'run'>;

const listed = new WeakMap<readonly ToolListing[], object[]>();

/**
 * The `tools/list` entries of `tools`, converted once per list and kept: the
 * members and their order are the SDK's (`execution` says no tool runs as a
 * task), the schemas its JSON Schema conversion (draft 7, the input schema's
 * input side, the output schema's output side). `npm run build` writes the
 * service's own into tool-list.json (infra/build-docs.ts), so the function
 * carries the conversion's result and not zod's converter.
 */
export function toolList(tools: readonly ToolListing[]): object[] {
  let entries = listed.get(tools);
  if (!entries) {
    entries = tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: toJSONSchema(tool.inputSchema, { target: 'draft-7', io: 'input' }),
      annotations: tool.annotations,
      execution: { taskSupport: 'forbidden' },
      outputSchema: toJSONSchema(tool.outputSchema, { target: 'draft-7', io: 'output' }),
    }));
    listed.set(tools, entries);
  }
  return entries;
}
