import { randomBytes, timingSafeEqual } from 'node:crypto';
import { MAX_MCP_CLIENT_RATE } from '#definitions/mcp-limits.ts';
import { hashSecret } from '#platform/secret-hash.ts';
import { type OAuthClientItem, oauth } from '#store/oauth.ts';
import { OAuthClientNotFound, SettingOutOfRange } from './errors.ts';
import { registrableRedirectUri } from './oauth-redirect-uris.ts';
import { putForOrganization } from './organizations.ts';

/**
 * OAuth clients of the MCP connector. Each is bound to one organization,
 * created by an operator (`outreach-admin oauth-client create`). The secret
 * (256 random bits) is shown once and stored only as its SHA-256. Redirect
 * URIs are checked when registered (`./oauth-redirect-uris.ts`).
 */

export interface OAuthClient {
  clientId: string;
  orgId: number;
  name: string;
  redirectUris: string[];
  /** Requests per second to /mcp the operator arranged for the client; null: the default (shared/definitions/mcp-limits.ts). */
  rateLimit: number | null;
  createdAt: string;
  revokedAt: string | null;
}

/** The client without its secret's hash. */
const toClient = (item: OAuthClientItem): OAuthClient => ({
  clientId: item.clientId,
  orgId: item.orgId,
  name: item.name,
  redirectUris: item.redirectUris,
  rateLimit: item.rateLimit,
  createdAt: item.createdAt,
  revokedAt: item.revokedAt,
});

/**
 * Creates a client for an existing organization; returns its id and secret
 * (the only time the secret is shown). Throws RedirectUriRefused, writing
 * nothing, when a redirect URI may not be registered; the URIs are stored in
 * the form the authorization request must repeat exactly.
 */
export async function createOAuthClient(
  orgId: number,
  name: string,
  redirectUris: string[],
  options: { rateLimit?: number } = {},
): Promise<{ clientId: string; clientSecret: string }> {
  const registered = redirectUris.map(registrableRedirectUri);
  const { rateLimit } = options;
  if (
    rateLimit !== undefined &&
    !(Number.isInteger(rateLimit) && rateLimit >= 1 && rateLimit <= MAX_MCP_CLIENT_RATE)
  )
    throw new SettingOutOfRange(
      `A client's rate is a whole number of requests per second from 1 to ${MAX_MCP_CLIENT_RATE}`,
    );
  const clientId = `mcp_${randomBytes(12).toString('base64url')}`;
  const clientSecret = `mcs_${randomBytes(32).toString('base64url')}`;
  await putForOrganization(
    orgId,
    oauth.putNewClient({
      clientId,
      orgId,
      name,
      redirectUris: registered,
      rateLimit,
      secretHash: hashSecret(clientSecret),
      createdAt: new Date().toISOString(),
    }),
  );
  return { clientId, clientSecret };
}

/** Reads a client; null when it does not exist. */
export async function getOAuthClient(
  clientId: string,
): Promise<(OAuthClient & { secretHash: string }) | null> {
  if (!/^mcp_[A-Za-z0-9_-]{16}$/.test(clientId)) return null;
  const item = await oauth.getClient(clientId);
  return item ? { ...toClient(item), secretHash: item.secretHash } : null;
}

/** The client if the id and secret match and it is not revoked; null otherwise. */
export async function authenticateClient(
  clientId: string,
  clientSecret: string,
): Promise<OAuthClient | null> {
  const client = await getOAuthClient(clientId);
  if (!client || client.revokedAt) return null;
  const presented = Buffer.from(hashSecret(clientSecret), 'hex');
  const stored = Buffer.from(client.secretHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored) ? client : null;
}

/** An organization's clients, without secrets. */
export async function listOAuthClients(orgId: number): Promise<OAuthClient[]> {
  return (await oauth.listClients(orgId)).map(toClient);
}

/** Revokes a client of the organization: its tokens stop working at once. */
export async function revokeOAuthClient(orgId: number, clientId: string): Promise<OAuthClient> {
  const item = await oauth.revokeClient(orgId, clientId, new Date().toISOString());
  if (!item) throw new OAuthClientNotFound(orgId, clientId);
  return toClient(item);
}
