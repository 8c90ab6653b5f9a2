import { type AssistantGrant, revokeAssistantGrant as revoke } from '#domain/assistant-grants.ts';
import type { ForOrganization } from './operation.ts';

/**
 * 1. Find the organization's grant of the client (AssistantGrantNotFound: also for another
 *    organization's).
 * 2. Revoke it: every access and refresh token of the client for the organization stops at once.
 *
 * The AI assistant page.
 */
export function revokeAssistantGrant(input: ForOrganization & { clientId: string }): Promise<AssistantGrant> {
  return revoke(input.orgId, input.clientId);
}
