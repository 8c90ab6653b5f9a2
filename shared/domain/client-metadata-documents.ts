import {
  MAX_METADATA_CLIENT_ID_LENGTH,
  MAX_METADATA_DOCUMENT_BYTES,
  METADATA_DOCUMENT_TIMEOUT_MS,
} from '#definitions/oauth-limits.ts';
import { configuration } from '#platform/config.ts';
import { logger } from '#platform/logger.ts';
import type { UrlPolicy } from '#platform/ssrf.ts';
import { clientMetadataDocument } from '#schemas/oauth-clients.ts';
import { redirectUriProblem } from './oauth-redirect-uris.ts';

/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document,
 * which the MCP authorization specification says servers should support): a
 * client whose id is an https URL describes itself in the JSON document at
 * that URL, so it needs no registration. The document is fetched when a
 * person is asked to approve the client, under the outbound HTTP policy
 * (public addresses only, no redirects, 5 KiB within 5 s; the local stack's
 * policy also reaches loopback over http, as its webhooks do), and not again
 * at the token endpoint: a code and the tokens after it are bound to the
 * client id, and such a client is public (`none`), so there is nothing more
 * to check there.
 *
 * Telling such a client id apart is all that most functions importing this
 * module do: the outbound HTTP client and the address checks that fetching a
 * document needs (shared/platform/outbound-http.ts, ssrf.ts) are loaded only
 * when one is fetched (docs/architecture.md, Bundles).
 */

/** A client as its metadata document describes it. */
export interface DocumentedClient {
  clientId: string;
  /** `client_name`, or the URL's host when the document names none. */
  name: string;
  /** As the document lists them: the authorization request repeats one exactly. */
  redirectUris: string[];
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * The outbound HTTP policy of the process's configuration, as
 * `configuredUrlPolicy` (shared/platform/ssrf.ts) makes it, without loading
 * that module at start: only a fetch needs it.
 */
const configuredPolicy = (): UrlPolicy => ({ allowLoopback: configuration().webhooks.allowHttpLoopback });

/**
 * Whether `clientId` is a metadata-document client id: an https URL (http on
 * a loopback host where the policy allows loopback) with a path, without
 * credentials or a fragment, in its normalized form (so without dot segments
 * or a default port), of at most MAX_METADATA_CLIENT_ID_LENGTH characters.
 */
export function isMetadataDocumentClientId(
  clientId: string,
  policy: UrlPolicy = configuredPolicy(),
): boolean {
  if (clientId.length > MAX_METADATA_CLIENT_ID_LENGTH || clientId.includes('#')) return false;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return false;
  }
  const https = url.protocol === 'https:';
  const loopbackHttp = url.protocol === 'http:' && policy.allowLoopback && LOOPBACK_HOSTS.has(url.hostname);
  if (!https && !loopbackHttp) return false;
  if (url.username || url.password || url.pathname === '/') return false;
  return url.href === clientId;
}

/**
 * Fetches and checks the metadata document of `clientId`: its `client_id`
 * must equal the URL it was fetched from, its redirect URIs follow the rules
 * of a self-registered client (https, or http on a loopback host), and
 * `token_endpoint_auth_method` must be `none`. Null when the id is no such
 * URL or the document cannot be fetched or is refused (the reason is logged).
 */
export async function resolveMetadataDocumentClient(clientId: string): Promise<DocumentedClient | null> {
  const policy = configuredPolicy();
  if (!isMetadataDocumentClientId(clientId, policy)) return null;
  const refuse = (reason: string) => {
    logger.info('Client metadata document refused', { clientId, reason });
    return null;
  };
  const { getDocument } = await import('#platform/outbound-http.ts');
  const fetched = await getDocument({
    url: clientId,
    policy,
    maxBytes: MAX_METADATA_DOCUMENT_BYTES,
    timeoutMs: METADATA_DOCUMENT_TIMEOUT_MS,
  });
  if (!fetched.ok) return refuse(fetched.error);
  let body: unknown;
  try {
    body = JSON.parse(fetched.body);
  } catch {
    return refuse('not JSON');
  }
  const parsed = clientMetadataDocument.safeParse(body);
  if (!parsed.success) return refuse(parsed.error.issues[0]?.message ?? 'invalid metadata');
  const document = parsed.data;
  if (document.client_id !== clientId) return refuse('its client_id is not its URL');
  const unsafe = document.redirect_uris.find((uri) => redirectUriProblem(uri, 'client'));
  if (unsafe !== undefined) return refuse(`redirect URI ${unsafe} ${redirectUriProblem(unsafe, 'client')}`);
  return {
    clientId,
    name: document.client_name ?? new URL(clientId).host,
    redirectUris: document.redirect_uris,
  };
}
