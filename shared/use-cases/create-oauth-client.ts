import { createOAuthClient as register } from '#domain/oauth-clients.ts';
import type { ForOrganization } from './operation.ts';

/** The client the operator registers. */
export interface NewOAuthClient extends ForOrganization {
  readonly name: string;
  readonly redirectUris: readonly string[];
  /** Its requests per second to /mcp; absent, the default. */
  readonly rateLimit?: number;
}

/**
 * 1. Every redirect URI must be one a client may register (RedirectUriRefused names the URI and
 *    why): https, http on a loopback host, or a private-use scheme; nothing is written otherwise.
 * 2. The rate, when given, is from 1 to the maximum (SettingOutOfRange).
 * 3. Store the client for the organization with a fresh id and secret, of which only the hash is kept.
 * 4. Return the client id and secret, the only time the secret is shown.
 *
 * `outreach-admin oauth-client create`.
 */
export async function createOAuthClient(
  client: NewOAuthClient,
): Promise<{ clientId: string; clientSecret: string }> {
  return register(client.orgId, client.name, [...client.redirectUris], { rateLimit: client.rateLimit });
}
