/**
 * The lifetimes and limits of the MCP server's OAuth (docs/mcp.md,
 * "Authorization"). Kept apart from the grants so documents that name them
 * (the OpenAPI document) do not load the table client.
 */

/** An access token lives an hour: short enough that a leaked one is worth little. */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;

/**
 * A refresh token lives 30 days from its issue. Each use rotates it, so an
 * assistant used at least once a month stays connected until the organization
 * revokes it; the family of tokens from one approval has no absolute cap.
 */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

/** Client registrations (RFC 7591) one source address may make per hour of the clock. */
export const MAX_REGISTRATIONS_PER_HOUR = 20;

/** A registered client no organization approved within this time is deleted (TTL). */
export const UNAPPROVED_REGISTRATION_TTL_SECONDS = 30 * 24 * 3600;

/** A client ID metadata document: at most 5 KiB, fetched within 5 seconds. */
export const MAX_METADATA_DOCUMENT_BYTES = 5 * 1024;
export const METADATA_DOCUMENT_TIMEOUT_MS = 5000;

/**
 * The longest client id URL taken: it is part of table keys (an organization's
 * grant is sorted by it, and DynamoDB sort keys hold 1 KiB).
 */
export const MAX_METADATA_CLIENT_ID_LENGTH = 512;
