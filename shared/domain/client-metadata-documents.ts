import { createHash } from 'node:crypto';
import {
  MAX_METADATA_CLIENT_ID_LENGTH,
  MAX_METADATA_DOCUMENT_BYTES,
  MAX_METADATA_DOCUMENT_CACHE_SECONDS,
  MAX_METADATA_DOCUMENT_FETCHES_PER_MINUTE,
  METADATA_DOCUMENT_ERROR_CACHE_SECONDS,
  METADATA_DOCUMENT_TIMEOUT_MS,
  MIN_METADATA_DOCUMENT_CACHE_SECONDS,
} from '#definitions/oauth-limits.ts';
import { configuration } from '#platform/config.ts';
import { logger } from '#platform/logger.ts';
import type { UrlPolicy } from '#platform/ssrf.ts';
import { clientMetadataDocument } from '#schemas/oauth-clients.ts';
import {
  admitMetadataDocumentFetch,
  getMetadataDocumentEntry,
  type MetadataDocumentItem,
  putMetadataDocumentEntry,
} from '#store/client-metadata-documents.ts';
import { MetadataDocumentFetchLimitReached } from './errors.ts';
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
 * Anyone may name such a client id in an anonymous authorization request, so
 * fetches are bounded twice, for every Lambda instance at once (docs/mcp.md):
 * what a fetch came to is kept in the table for the document's cache period
 * (its `Cache-Control` max-age within a minute and an hour; a document that
 * could not be fetched or was refused for 5 minutes), and one source address
 * may make the service fetch MAX_METADATA_DOCUMENT_FETCHES_PER_MINUTE
 * documents a minute (a counter item per address and minute; documents in
 * the cache do not count).
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

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * How long a fetched document is kept: its `max-age` within
 * MIN_METADATA_DOCUMENT_CACHE_SECONDS and MAX_METADATA_DOCUMENT_CACHE_SECONDS;
 * `no-store`, `no-cache`, or no max-age at all: the minimum.
 */
export function documentCacheSeconds(cacheControl: string | undefined): number {
  const directives = (cacheControl ?? '').split(',').map((directive) => directive.trim().toLowerCase());
  if (directives.includes('no-store') || directives.includes('no-cache'))
    return MIN_METADATA_DOCUMENT_CACHE_SECONDS;
  const maxAge = directives
    .map((directive) => /^max-age\s*=\s*"?(\d+)"?$/.exec(directive)?.[1])
    .find(Boolean);
  const seconds = maxAge === undefined ? 0 : Number(maxAge);
  return Math.min(
    MAX_METADATA_DOCUMENT_CACHE_SECONDS,
    Math.max(MIN_METADATA_DOCUMENT_CACHE_SECONDS, seconds),
  );
}

/** What one fetch of a document came to: the client it describes, or why there is none. */
type FetchOutcome =
  | { client: Omit<DocumentedClient, 'clientId'>; cacheSeconds: number }
  | { refusal: string };

/**
 * Fetches and checks the metadata document of `clientId`: its `client_id`
 * must equal the URL it was fetched from, its redirect URIs follow the rules
 * of a self-registered client (https, or http on a loopback host), and
 * `token_endpoint_auth_method` must be `none`.
 */
async function fetchDocument(clientId: string, policy: UrlPolicy): Promise<FetchOutcome> {
  const { getDocument } = await import('#platform/outbound-http.ts');
  const fetched = await getDocument({
    url: clientId,
    policy,
    maxBytes: MAX_METADATA_DOCUMENT_BYTES,
    timeoutMs: METADATA_DOCUMENT_TIMEOUT_MS,
  });
  if (!fetched.ok) return { refusal: fetched.error };
  let body: unknown;
  try {
    body = JSON.parse(fetched.body);
  } catch {
    return { refusal: 'not JSON' };
  }
  const parsed = clientMetadataDocument.safeParse(body);
  if (!parsed.success) return { refusal: parsed.error.issues[0]?.message ?? 'invalid metadata' };
  const document = parsed.data;
  if (document.client_id !== clientId) return { refusal: 'its client_id is not its URL' };
  const unsafe = document.redirect_uris.find((uri) => redirectUriProblem(uri, 'client'));
  if (unsafe !== undefined)
    return { refusal: `redirect URI ${unsafe} ${redirectUriProblem(unsafe, 'client')}` };
  return {
    client: { name: document.client_name ?? new URL(clientId).host, redirectUris: document.redirect_uris },
    cacheSeconds: documentCacheSeconds(fetched.cacheControl),
  };
}

const documentedOf = (entry: MetadataDocumentItem): DocumentedClient | null =>
  entry.client && { clientId: entry.clientId, ...entry.client };

/**
 * The client the metadata document at `clientId` describes, for a request
 * from `sourceAddress`: from the cache while it holds the document, else
 * fetched and checked (`fetchDocument`) and cached. Null when the id is no
 * such URL or the document cannot be fetched or is refused (the reason is
 * logged once a fetch). Throws MetadataDocumentFetchLimitReached, fetching
 * nothing, when the document must be fetched and the address used its
 * minute's fetches.
 */
export async function resolveMetadataDocumentClient(
  clientId: string,
  sourceAddress: string,
): Promise<DocumentedClient | null> {
  const policy = configuredPolicy();
  if (!isMetadataDocumentClientId(clientId, policy)) return null;
  const urlHash = createHash('sha256').update(clientId).digest('hex');
  const cached = await getMetadataDocumentEntry(urlHash);
  const now = nowSeconds();
  if (cached && cached.expiresAt > now && cached.clientId === clientId) return documentedOf(cached);

  const minute = Math.floor(now / 60);
  const nextMinute = (minute + 1) * 60;
  const limit = MAX_METADATA_DOCUMENT_FETCHES_PER_MINUTE;
  if (!(await admitMetadataDocumentFetch(sourceAddress, minute, limit, nextMinute + 60)))
    throw new MetadataDocumentFetchLimitReached(limit, nextMinute - now);
  const outcome = await fetchDocument(clientId, policy);
  if ('refusal' in outcome)
    logger.info('Client metadata document refused', { clientId, reason: outcome.refusal });
  const fetchedAt = nowSeconds();
  const entry: MetadataDocumentItem = {
    clientId,
    client: 'client' in outcome ? outcome.client : null,
    refusal: 'refusal' in outcome ? outcome.refusal : null,
    fetchedAt: new Date(fetchedAt * 1000).toISOString(),
    expiresAt:
      fetchedAt + ('client' in outcome ? outcome.cacheSeconds : METADATA_DOCUMENT_ERROR_CACHE_SECONDS),
  };
  try {
    await putMetadataDocumentEntry(urlHash, entry);
  } catch (error) {
    // The document is checked: the request is answered, and the next one fetches it again.
    logger.warn('Client metadata document not cached', {
      clientId,
      errorName: error instanceof Error ? error.name : String(error),
    });
  }
  return documentedOf(entry);
}
