import { type AssistantGrant, listAssistantGrants as list } from '#domain/assistant-grants.ts';
import type { ForOrganization } from './operation.ts';

/** The assistants the organization approved, revoked ones included (one Query). The AI assistant page. */
export function listAssistantGrants({ orgId }: ForOrganization): Promise<AssistantGrant[]> {
  return list(orgId);
}
