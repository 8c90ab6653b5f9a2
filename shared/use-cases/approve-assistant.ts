import { approveAssistant as approve } from '#domain/assistant-grants.ts';
import { recordChange } from '#domain/audit-log.ts';
import type { AuthorizationClient } from '#domain/oauth-clients.ts';
import { issueAuthorizationCode } from '#domain/oauth-grants.ts';
import type { ForOrganization } from './operation.ts';

/**
 * 1. Record the organization's approval of the client (OAuthClientNotFound for a client that is
 *    gone, or an operator client of another organization).
 * 2. Issue a single-use authorization code bound to the client, the organization, the redirect
 *    URI and the PKCE challenge.
 * 3. Write the approval in the organization's audit log.
 *
 * The consent page, for a member who is an admin of the organization.
 */
export async function approveAssistant(
  input: ForOrganization & {
    client: AuthorizationClient;
    approvedBy: string;
    redirectUri: string;
    codeChallenge: string;
    resource: string;
    scope: string;
  },
): Promise<string> {
  const { orgId, client } = input;
  await approve({
    orgId,
    clientId: client.clientId,
    clientName: client.name,
    kind: client.kind,
    approvedBy: input.approvedBy,
  });
  const code = await issueAuthorizationCode({
    orgId,
    clientId: client.clientId,
    resource: input.resource,
    scope: input.scope,
    redirectUri: input.redirectUri,
    codeChallenge: input.codeChallenge,
  });
  await recordChange(
    orgId,
    { email: input.approvedBy },
    'assistant.approve',
    `${client.name} (${client.clientId})`,
  );
  return code;
}
