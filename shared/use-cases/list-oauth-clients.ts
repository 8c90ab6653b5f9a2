import { type OAuthClient, listOAuthClients as readOAuthClients } from '#domain/oauth-clients.ts';
import type { ForOrganization } from './operation.ts';

/**
 * 1. Read the organization's MCP OAuth clients.
 * 2. Return them (name, redirect URIs, rate, creation, revocation), never their secrets.
 *
 * `outreach-admin oauth-client list`.
 */
export async function listOAuthClients({ orgId }: ForOrganization): Promise<OAuthClient[]> {
  return readOAuthClients(orgId);
}
