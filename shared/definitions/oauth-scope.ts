/**
 * The one OAuth scope of the MCP server: read access to the organization's
 * data through its tools. Kept apart from the grants so documents that name it
 * (OAuth metadata, the OpenAPI document) do not load the table client.
 */
export const MCP_SCOPE = 'mcp:read';
