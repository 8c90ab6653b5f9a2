import { type OAuthClient, revokeOAuthClient as revoke } from '#domain/oauth-clients.ts';
import type { ForOrganization } from './operation.ts';

/**
 * 1. Revoke the organization's client (OAuthClientNotFound when it has no such client): its tokens
 *    stop working at once.
 * 2. Return the client with its revocation time.
 *
 * `outreach-admin oauth-client revoke`.
 */
export async function revokeOAuthClient({
  orgId,
  clientId,
}: ForOrganization & { clientId: string }): Promise<OAuthClient> {
  return revoke(orgId, clientId);
}
