import { randomBytes, timingSafeEqual } from 'node:crypto';
import { MAX_MCP_CLIENT_RATE } from '#definitions/mcp-limits.ts';
import { hashSecret } from '#platform/secret-hash.ts';
import type { ClientKind } from '#store/assistant-grants.ts';
import { type OAuthClientItem, oauth, type StoredClientItem } from '#store/oauth.ts';
import { isMetadataDocumentClientId, resolveMetadataDocumentClient } from './client-metadata-documents.ts';
import { OAuthClientNotFound, SettingOutOfRange } from './errors.ts';
import { registrableRedirectUri } from './oauth-redirect-uris.ts';
import { putForOrganization } from './organizations.ts';

/**
 * OAuth clients of the MCP connector, of three kinds:
 * - `operator`: created by an operator (`outreach-admin oauth-client create`)
 *   for one organization, confidential, and the only kind that may use the
 *   client-credentials grant;
 * - `dynamic`: registered by the client itself (RFC 7591,
 *   `./oauth-registration.ts`), public (`none`) or confidential, and of no
 *   organization until a person of one approves it;
 * - `metadata-document`: a client whose id is the URL of its metadata
 *   document (`./client-metadata-documents.ts`), always public, stored nowhere.
 * A secret (256 random bits) is shown once and stored only as its SHA-256.
 * Redirect URIs are checked when registered (`./oauth-redirect-uris.ts`).
 */

export type { ClientKind };

/** An operator's client. */
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

/** The grants of the token endpoint. */
export type GrantType = 'authorization_code' | 'refresh_token' | 'client_credentials';

/** A client at the token endpoint: authenticated by its secret, or identified by its id when it is public. */
export interface TokenEndpointClient {
  clientId: string;
  kind: ClientKind;
  /** The organization an operator client is bound to; null for the others, which organizations approve. */
  orgId: number | null;
  name: string;
  grantTypes: readonly GrantType[];
}

/** A client a person may be asked to approve on the consent page. */
export interface AuthorizationClient {
  clientId: string;
  name: string;
  /** The authorization request's `redirect_uri` must equal one of these. */
  redirectUris: string[];
  /** The organization an operator client is bound to (the only one that may approve it); null for the others. */
  orgId: number | null;
  kind: ClientKind;
}

const OPERATOR_GRANT_TYPES: readonly GrantType[] = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
];
const METADATA_DOCUMENT_GRANT_TYPES: readonly GrantType[] = ['authorization_code', 'refresh_token'];

/** The ids this service issues (operator and registered clients alike). */
const STORED_CLIENT_ID = /^mcp_[A-Za-z0-9_-]{16}$/;

/** Whether `clientId` is of the form this service issues (a client with an item), not a metadata document's URL. */
export const isStoredClientId = (clientId: string): boolean => STORED_CLIENT_ID.test(clientId);

/** A new client id. */
export const newClientId = (): string => `mcp_${randomBytes(12).toString('base64url')}`;
/** A new client secret. */
export const newClientSecret = (): string => `mcs_${randomBytes(32).toString('base64url')}`;

const nowSeconds = () => Math.floor(Date.now() / 1000);

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

/** What a stored client is called: its name, or for a registration without one its first redirect URI's host. */
const nameOf = (item: StoredClientItem): string =>
  // A registration has at least one redirect URI.
  item.name ?? new URL(item.redirectUris[0]!).host;

/**
 * A stored client that may act: not revoked and, for a registration no
 * organization approved yet, not expired (DynamoDB deletes lazily). Null
 * otherwise, and for ids this service never issues.
 */
async function activeStoredClient(clientId: string): Promise<StoredClientItem | null> {
  if (!isStoredClientId(clientId)) return null;
  const item = await oauth.getClient(clientId);
  if (!item || item.revokedAt) return null;
  if (item.kind === 'dynamic' && item.expiresAt !== undefined && item.expiresAt <= nowSeconds()) return null;
  return item;
}

const tokenEndpointClientOf = (item: StoredClientItem): TokenEndpointClient =>
  item.kind === 'operator'
    ? {
        clientId: item.clientId,
        kind: 'operator',
        orgId: item.orgId,
        name: item.name,
        grantTypes: OPERATOR_GRANT_TYPES,
      }
    : {
        clientId: item.clientId,
        kind: 'dynamic',
        orgId: null,
        name: nameOf(item),
        grantTypes: item.grantTypes,
      };

/**
 * Creates an operator client for an existing organization; returns its id and
 * secret (the only time the secret is shown). Throws RedirectUriRefused,
 * writing nothing, when a redirect URI may not be registered; the URIs are
 * stored in the form the authorization request must repeat exactly.
 */
export async function createOAuthClient(
  orgId: number,
  name: string,
  redirectUris: string[],
  options: { rateLimit?: number } = {},
): Promise<{ clientId: string; clientSecret: string }> {
  const registered = redirectUris.map((uri) => registrableRedirectUri(uri));
  const { rateLimit } = options;
  if (
    rateLimit !== undefined &&
    !(Number.isInteger(rateLimit) && rateLimit >= 1 && rateLimit <= MAX_MCP_CLIENT_RATE)
  )
    throw new SettingOutOfRange(
      `A client's rate is a whole number of requests per second from 1 to ${MAX_MCP_CLIENT_RATE}`,
    );
  const clientId = newClientId();
  const clientSecret = newClientSecret();
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

/** Reads an operator client, revoked or not; null when there is no operator client of this id. */
export async function getOAuthClient(
  clientId: string,
): Promise<(OAuthClient & { secretHash: string }) | null> {
  if (!isStoredClientId(clientId)) return null;
  const item = await oauth.getClient(clientId);
  return item?.kind === 'operator' ? { ...toClient(item), secretHash: item.secretHash } : null;
}

/**
 * A confidential client (an operator's, or a registration with a secret) if
 * the id and secret match and it may act; null otherwise. Either secret
 * method (HTTP Basic or the body) is taken, whichever a registration named.
 */
export async function authenticateClient(
  clientId: string,
  clientSecret: string,
): Promise<TokenEndpointClient | null> {
  const client = await activeStoredClient(clientId);
  if (!client?.secretHash) return null;
  const presented = Buffer.from(hashSecret(clientSecret), 'hex');
  const stored = Buffer.from(client.secretHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored)
    ? tokenEndpointClientOf(client)
    : null;
}

/**
 * A public client (`none`) named by its id alone: a registration without a
 * secret that may act, or a metadata-document client id (its document is not
 * fetched again here: what it gets is bound to its id). Null for any other
 * id, confidential clients' included: they must authenticate.
 */
export async function identifyPublicClient(clientId: string): Promise<TokenEndpointClient | null> {
  if (isMetadataDocumentClientId(clientId)) {
    return {
      clientId,
      kind: 'metadata-document',
      orgId: null,
      name: new URL(clientId).host,
      grantTypes: METADATA_DOCUMENT_GRANT_TYPES,
    };
  }
  const client = await activeStoredClient(clientId);
  return client?.kind === 'dynamic' && client.secretHash === null ? tokenEndpointClientOf(client) : null;
}

/**
 * The client an authorization request from `sourceAddress` names, for the
 * consent page: an operator's or a registered client that may act, or the
 * client a metadata document at the id's URL describes (cached, or fetched
 * now: MetadataDocumentFetchLimitReached when the address may fetch no more
 * this minute). Null for an unknown, revoked or expired client, or a document
 * that cannot be fetched or is refused. An operator client names its
 * organization: only that one may approve it (`approveAssistant` refuses the
 * others).
 */
export async function resolveAuthorizationClient(
  clientId: string,
  sourceAddress: string,
): Promise<AuthorizationClient | null> {
  if (isMetadataDocumentClientId(clientId)) {
    const documented = await resolveMetadataDocumentClient(clientId, sourceAddress);
    return documented && { ...documented, orgId: null, kind: 'metadata-document' };
  }
  const client = await activeStoredClient(clientId);
  if (!client) return null;
  return {
    clientId: client.clientId,
    name: nameOf(client),
    redirectUris: client.redirectUris,
    orgId: client.kind === 'operator' ? client.orgId : null,
    kind: client.kind,
  };
}

/**
 * Keeps a registered client for good once an organization approves it (a
 * registration nobody approves expires). False when it is no registered
 * client that may act.
 */
export async function keepRegisteredClient(clientId: string): Promise<boolean> {
  return isStoredClientId(clientId) && oauth.keepDynamicClient(clientId, nowSeconds());
}

/** An organization's operator clients, without secrets. */
export async function listOAuthClients(orgId: number): Promise<OAuthClient[]> {
  return (await oauth.listClients(orgId)).map(toClient);
}

/** Revokes an operator client of the organization: its tokens stop working at once. */
export async function revokeOAuthClient(orgId: number, clientId: string): Promise<OAuthClient> {
  const item = await oauth.revokeClient(orgId, clientId, new Date().toISOString());
  if (!item) throw new OAuthClientNotFound(orgId, clientId);
  return toClient(item);
}
