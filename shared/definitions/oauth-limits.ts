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
 * How long a fetched metadata document is kept (docs/mcp.md, "Client ID
 * metadata documents"): its `Cache-Control` max-age, at most an hour, so that
 * a client's change (a new redirect URI) shows within the hour whatever it
 * asked for; and at least a minute, also when it asks for no caching
 * (`no-store`, `no-cache`) or says nothing, so that one consent (the page, then
 * its form) fetches it once, and anonymous requests naming it cannot make the
 * service fetch it more often than once a minute.
 */
export const MAX_METADATA_DOCUMENT_CACHE_SECONDS = 3600;
export const MIN_METADATA_DOCUMENT_CACHE_SECONDS = 60;

/** A document that could not be fetched, or was refused, is not fetched again for 5 minutes. */
export const METADATA_DOCUMENT_ERROR_CACHE_SECONDS = 300;

/**
 * Metadata documents one source address may make the service fetch per minute
 * of the clock (documents in the cache cost no fetch and do not count): far
 * more than a person connecting assistants needs, and a bound on the requests
 * an anonymous caller can make the service send to third parties.
 */
export const MAX_METADATA_DOCUMENT_FETCHES_PER_MINUTE = 10;

/**
 * The longest client id URL taken: it is part of table keys (an organization's
 * grant is sorted by it, and DynamoDB sort keys hold 1 KiB).
 */
export const MAX_METADATA_CLIENT_ID_LENGTH = 512;
