import { randomBytes } from 'node:crypto';
import { type AssistantGrantItem, assistantGrants, type ClientKind } from '#store/assistant-grants.ts';
import { isMetadataDocumentClientId } from './client-metadata-documents.ts';
import { AssistantGrantNotFound, OAuthClientNotFound } from './errors.ts';
import { getOAuthClient, keepRegisteredClient, type TokenEndpointClient } from './oauth-clients.ts';

/**
 * Which organizations approved which clients: the assistants connected to an
 * organization. A person of an organization approves a client on the consent
 * page (`approveAssistant`, before the authorization code is issued); an
 * operator client's binding to its organization counts as its approval, and
 * is recorded the first time the client gets a token. Every token carries the
 * approval it was issued under, so revoking the grant
 * (`revokeAssistantGrant`) ends every access and refresh token of that client
 * for that organization at once, and approving again starts afresh: the
 * tokens from before the revocation stay dead. A revoked grant also stops an
 * operator client's client-credentials grant until a person approves it again.
 */

/** An organization's approval of a client, as the dashboard shows it. */
export interface AssistantGrant {
  orgId: number;
  clientId: string;
  clientName: string;
  kind: ClientKind;
  /** Who approved it last (an email); null for an operator client's binding, never approved by a person. */
  approvedBy: string | null;
  /** When the current approval was first given (a re-approval after a revocation starts a new one). */
  createdAt: string;
  /** When it was last approved. */
  approvedAt: string;
  /** When the organization revoked it; null while it stands. */
  revokedAt: string | null;
}

/** What the consent page records when a person approves a client for their organization. */
export interface AssistantApproval {
  orgId: number;
  clientId: string;
  /** The name the person was shown. */
  clientName: string;
  kind: ClientKind;
  /** The email of the person who approved. */
  approvedBy: string;
}

const newApprovalId = () => randomBytes(16).toString('base64url');

/** The grant without its approval id, which only tokens need. */
const toGrant = (item: AssistantGrantItem): AssistantGrant => ({
  orgId: item.orgId,
  clientId: item.clientId,
  clientName: item.clientName,
  kind: item.kind,
  approvedBy: item.approvedBy,
  createdAt: item.createdAt,
  approvedAt: item.approvedAt,
  revokedAt: item.revokedAt,
});

/** Whether the client may be approved for the organization (a registration is kept for good on the way). */
async function isApprovable({ orgId, clientId, kind }: AssistantApproval): Promise<boolean> {
  switch (kind) {
    case 'operator': {
      const client = await getOAuthClient(clientId);
      return client !== null && client.revokedAt === null && client.orgId === orgId;
    }
    case 'dynamic':
      return keepRegisteredClient(clientId);
    case 'metadata-document':
      return isMetadataDocumentClientId(clientId);
  }
}

/**
 * Records that a person of `orgId` approved the client (call it on approval,
 * before `issueAuthorizationCode`). Idempotent: a standing grant gets the new
 * name, approver and time and keeps its tokens; a revoked one is replaced by a
 * new approval. Throws OAuthClientNotFound, recording nothing, for a client
 * that does not exist or may not act (revoked, an expired registration), for
 * an id of another kind than `kind` says, and for an operator client of
 * another organization, which only its own may approve.
 */
export async function approveAssistant(approval: AssistantApproval): Promise<AssistantGrant> {
  if (!(await isApprovable(approval))) throw new OAuthClientNotFound(approval.orgId, approval.clientId);
  const approvedAt = new Date().toISOString();
  const fields = { ...approval, approvedAt };
  const approveNew = async () => {
    const grant = { ...fields, createdAt: approvedAt, approvalId: newApprovalId() };
    return (await assistantGrants.putNew(grant, { replaceRevoked: true }))
      ? { ...grant, revokedAt: null }
      : null;
  };
  // A standing grant is refreshed; otherwise a new one is written, unless a concurrent approval
  // wrote one first, which is then refreshed.
  const grant =
    (await assistantGrants.approveAgain(fields)) ??
    (await approveNew()) ??
    (await assistantGrants.approveAgain(fields));
  if (!grant)
    throw new Error(`The grant of ${approval.clientId} to organization ${approval.orgId} kept changing`);
  return toGrant(grant);
}

/** The organization's grants, revoked ones included (`revokedAt`): one Query of its partition. */
export async function listAssistantGrants(orgId: number): Promise<AssistantGrant[]> {
  return (await assistantGrants.list(orgId)).map(toGrant);
}

/**
 * Revokes the organization's grant of a client: every access and refresh
 * token issued to it for the organization stops working at once. Idempotent.
 * Throws AssistantGrantNotFound for a client the organization never approved
 * (another organization's is the same).
 */
export async function revokeAssistantGrant(orgId: number, clientId: string): Promise<AssistantGrant> {
  const grant = await assistantGrants.revoke(orgId, clientId, new Date().toISOString());
  if (!grant) throw new AssistantGrantNotFound(orgId, clientId);
  return toGrant(grant);
}

/**
 * The approval under which `client` may get tokens for `orgId` now, or null
 * when the organization has not approved it or revoked it. An operator
 * client's binding to its own organization is its approval: recorded here the
 * first time, for no other organization.
 */
export async function standingApproval(orgId: number, client: TokenEndpointClient): Promise<string | null> {
  if (client.kind === 'operator' && client.orgId !== orgId) return null;
  let grant = await assistantGrants.get(orgId, client.clientId);
  if (!grant && client.kind === 'operator') {
    const now = new Date().toISOString();
    const binding = {
      orgId,
      clientId: client.clientId,
      clientName: client.name,
      kind: client.kind,
      approvedBy: null,
      createdAt: now,
      approvedAt: now,
      approvalId: newApprovalId(),
    };
    grant = (await assistantGrants.putNew(binding, { replaceRevoked: false }))
      ? { ...binding, revokedAt: null }
      : await assistantGrants.get(orgId, client.clientId);
  }
  return grant && grant.revokedAt === null ? grant.approvalId : null;
}

/** Whether a token issued under `approvalId` still stands on the organization's grant. */
export const approvalStands = (grant: AssistantGrantItem | null, approvalId: string | undefined): boolean =>
  grant !== null && grant.revokedAt === null && approvalId !== undefined && grant.approvalId === approvalId;
