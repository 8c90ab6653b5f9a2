import { STAGE_THROTTLE } from './rate-limits.ts';

/**
 * What one client may ask of the MCP server (docs/mcp.md, "Limits"). `/mcp`
 * authenticates with OAuth, not with an organization's API key, so the usage
 * plans that limit each organization's REST calls never see it; the MCP
 * function counts each client's requests itself, identically on AWS and in the
 * local stack.
 *
 * One request is one JSON-RPC message (batches are refused), and its work is
 * bounded by the tools' own limits (`check_eligibility` takes as many emails as
 * the REST dry run), so a request rate bounds a client's work.
 */

/**
 * Requests per second one OAuth client may send unless the operator arranged
 * another rate for it. An assistant calls a tool or two per user turn; twenty
 * a second leaves room for an agent working in a loop while keeping one
 * client to a fiftieth of the stage.
 */
export const DEFAULT_MCP_CLIENT_RATE = 20;

/** The most an operator may arrange for one client: the whole stage's rate. */
export const MAX_MCP_CLIENT_RATE = STAGE_THROTTLE.rateLimit;

/** How long a window's counter stays in the table after the window (DynamoDB's TTL deletes it later still). */
export const MCP_RATE_WINDOW_RETENTION_SECONDS = 60;
