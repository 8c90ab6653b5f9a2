import { PROVIDER_APIS } from '#definitions/provider-apis.ts';
import { loadProviderClient } from '#platform/provider-apis/load-client.ts';
import { type AcceptedCredentials, ProviderApiError } from '#platform/provider-apis/types.ts';
import { providerHttp } from '#platform/provider-http.ts';
import { macMatches, macOf, openSecret, type SecretContext, sealSecret } from '#platform/secrets.ts';
import {
  checkWebhookUrl,
  configuredUrlPolicy,
  type Resolver,
  systemResolver,
  type UrlPolicy,
  UrlRefusedError,
} from '#platform/ssrf.ts';
import type { PROVIDERS } from '#schemas/import.ts';
import { retryOnConflict } from '#store/conflicts.ts';
import { allocateId } from '#store/ids.ts';
import { type ProviderConnectionRecord, providerConnections } from '#store/provider-connections.ts';
import { TransactionConflictError, transact } from '#store/transactions.ts';
import {
  ProviderBaseUrlRefused,
  ProviderConnectionLimitReached,
  ProviderConnectionNotFound,
  ProviderKeyRefused,
  ProviderUnreachable,
} from './errors.ts';

/**
 * Provider connections (docs/providers.md): an organization's account at
 * Smartlead, Instantly, lemlist or HeyReach. Its API key is sealed
 * (shared/platform/secrets.ts) with a context naming the organization and
 * connection, so a sealed key copied to another item does not open. Its
 * webhook URL carries a token that is a tag of (organization, connection,
 * URL generation): nothing to store or leak, checked in constant time, and a
 * rotation (the next generation) ends the old URL at once.
 */

/** At most this many connections per organization (agencies connect several workspaces). */
export const MAX_PROVIDER_CONNECTIONS_PER_ORGANIZATION = 20;

/** The path a provider posts its webhooks to, below the API's base URL. */
export const PROVIDER_WEBHOOK_PATH = '/provider-webhooks';

type Provider = (typeof PROVIDERS)[number];

const COUNT_ATTEMPTS = 5;
const COUNT_RETRY_BASE_DELAY_MS = 20;

const apiKeyContext = (orgId: number, connectionId: number): SecretContext => ({
  purpose: 'provider-api-key',
  orgId: String(orgId),
  connectionId: String(connectionId),
});

const tokenMessage = (record: Pick<ProviderConnectionRecord, 'orgId' | 'connectionId' | 'urlGeneration'>) =>
  `provider-webhook:${record.orgId}:${record.connectionId}:${record.urlGeneration}`;

/** The connection's webhook URL below `baseUrl` (the API's, without a trailing slash). */
export async function webhookUrlOf(record: ProviderConnectionRecord, baseUrl: string): Promise<string> {
  const token = await macOf(tokenMessage(record));
  return `${baseUrl}${PROVIDER_WEBHOOK_PATH}/${record.orgId}/${record.connectionId}/${token}`;
}

/**
 * The connection a webhook URL's parts name, when its token is the current
 * one; null for an unknown connection or a wrong or outdated token alike.
 */
export async function connectionOfWebhook(
  orgId: number,
  connectionId: number,
  token: string,
): Promise<ProviderConnectionRecord | null> {
  const record = await providerConnections.get(orgId, connectionId);
  if (!record) return null;
  return (await macMatches(tokenMessage(record), token)) ? record : null;
}

/** How base URL checks resolve and what they allow; the configuration's by default. */
export interface BaseUrlCheckOptions {
  policy?: UrlPolicy;
  resolve?: Resolver;
}

/** The providers as their messages name them. */
const PROVIDER_NAMES: Record<Provider, string> = {
  smartlead: 'Smartlead',
  instantly: 'Instantly',
  lemlist: 'lemlist',
  heyreach: 'HeyReach',
};

/**
 * Asks the provider whether it accepts `apiKey` with its cheapest documented
 * authenticated read (the client's `checkCredentials`), through the same
 * SSRF-safe transport the connection's later calls use, at the connection's
 * base URL (else the provider's public API). A key the provider refuses is
 * ProviderKeyRefused (its message names the provider and its status); a
 * provider that cannot be reached, fails (5xx) or is busy (429) is
 * ProviderUnreachable: the key was not judged, so nothing is stored either way.
 */
export async function verifyProviderKey(
  provider: Provider,
  baseUrl: string | null,
  apiKey: string,
  options: BaseUrlCheckOptions = {},
): Promise<AcceptedCredentials> {
  const client = await loadProviderClient(provider);
  const http = providerHttp(baseUrl ?? PROVIDER_APIS[provider].defaultBaseUrl, {
    policy: options.policy ?? configuredUrlPolicy(),
    resolve: options.resolve,
  });
  try {
    return await client.checkCredentials(http, { apiKey });
  } catch (error) {
    if (!(error instanceof ProviderApiError)) throw error;
    // A refusal with a status is the provider's answer about the key; without one it is the transport's (an address refused).
    if (error.kind === 'refused' && error.status !== null && error.status < 500) {
      throw new ProviderKeyRefused(error.message);
    }
    throw new ProviderUnreachable(PROVIDER_NAMES[provider]);
  }
}

/**
 * Connects a provider account: checks the base URL against the SSRF rules,
 * verifies the API key at the provider (nothing is stored when it refuses it
 * or cannot be reached), seals the key, and stores the connection within the
 * organization's limit.
 */
export async function connectProvider(
  orgId: number,
  input: { provider: Provider; apiKey: string; baseUrl: string | null },
  options: BaseUrlCheckOptions = {},
): Promise<ProviderConnectionRecord> {
  let baseUrl: string | null = null;
  if (input.baseUrl !== null) {
    try {
      baseUrl = await checkWebhookUrl(
        input.baseUrl,
        options.policy ?? configuredUrlPolicy(),
        options.resolve ?? systemResolver,
      );
    } catch (error) {
      if (error instanceof UrlRefusedError) throw new ProviderBaseUrlRefused(error.message);
      throw error;
    }
  }
  if ((await providerConnections.count(orgId)) >= MAX_PROVIDER_CONNECTIONS_PER_ORGANIZATION) {
    throw new ProviderConnectionLimitReached(MAX_PROVIDER_CONNECTIONS_PER_ORGANIZATION);
  }
  const accepted = await verifyProviderKey(input.provider, baseUrl, input.apiKey, options);
  const connectionId = await allocateId('providerConnection');
  const record: ProviderConnectionRecord = {
    orgId,
    connectionId,
    provider: input.provider,
    baseUrl,
    ...(await sealedKey(input.apiKey, orgId, connectionId, accepted)),
    urlGeneration: 1,
    createdAt: new Date().toISOString(),
  };
  try {
    await retryOnConflict(
      () =>
        transact([
          providerConnections.countOneMore(orgId, MAX_PROVIDER_CONNECTIONS_PER_ORGANIZATION),
          providerConnections.putNew(record),
        ]),
      { attempts: COUNT_ATTEMPTS, baseDelayMs: COUNT_RETRY_BASE_DELAY_MS },
    );
  } catch (error) {
    if (error instanceof TransactionConflictError && error.failedConditions.includes(0)) {
      throw new ProviderConnectionLimitReached(MAX_PROVIDER_CONNECTIONS_PER_ORGANIZATION);
    }
    throw error;
  }
  return record;
}

/** The stored form of an accepted key: sealed for its connection, its hint, and the workspace the provider named. */
async function sealedKey(
  apiKey: string,
  orgId: number,
  connectionId: number,
  accepted: AcceptedCredentials,
): Promise<Pick<ProviderConnectionRecord, 'apiKey' | 'apiKeyHint' | 'workspaceId'>> {
  return {
    apiKey: await sealSecret(apiKey, apiKeyContext(orgId, connectionId)),
    apiKeyHint: apiKey.slice(-4),
    ...(accepted.workspaceId === null ? {} : { workspaceId: accepted.workspaceId }),
  };
}

/**
 * Gives a connection a new API key, verified at the provider first (at the
 * connection's base URL) as when it was made: a key the provider refuses, or
 * a provider that cannot be reached, leaves the old key in place. The webhook
 * URL is kept.
 */
export async function replaceProviderApiKey(
  orgId: number,
  connectionId: number,
  apiKey: string,
  options: BaseUrlCheckOptions = {},
): Promise<ProviderConnectionRecord> {
  const current = await getProviderConnection(orgId, connectionId);
  const accepted = await verifyProviderKey(current.provider, current.baseUrl, apiKey, options);
  const record = await providerConnections.replaceApiKey(
    orgId,
    connectionId,
    await sealedKey(apiKey, orgId, connectionId, accepted),
  );
  if (!record) throw new ProviderConnectionNotFound(connectionId);
  return record;
}

/** One of the organization's connections; another organization's is not found. */
export async function getProviderConnection(
  orgId: number,
  connectionId: number,
): Promise<ProviderConnectionRecord> {
  const record = await providerConnections.get(orgId, connectionId);
  if (!record) throw new ProviderConnectionNotFound(connectionId);
  return record;
}

export function listProviderConnections(orgId: number): Promise<ProviderConnectionRecord[]> {
  return providerConnections.list(orgId);
}

/** Deletes a connection: its URL stops working at once; sequences linked to it keep their external ids. */
export async function disconnectProvider(orgId: number, connectionId: number): Promise<void> {
  try {
    await retryOnConflict(
      () =>
        transact([
          providerConnections.deleteExisting(orgId, connectionId),
          providerConnections.countOneLess(orgId),
        ]),
      { attempts: COUNT_ATTEMPTS, baseDelayMs: COUNT_RETRY_BASE_DELAY_MS },
    );
  } catch (error) {
    if (error instanceof TransactionConflictError && error.failedConditions.includes(0)) {
      throw new ProviderConnectionNotFound(connectionId);
    }
    throw error;
  }
}

/** Gives the connection a new webhook URL; the previous one is refused from now on. */
export async function rotateProviderWebhookUrl(
  orgId: number,
  connectionId: number,
): Promise<ProviderConnectionRecord> {
  const record = await providerConnections.nextUrlGeneration(orgId, connectionId);
  if (!record) throw new ProviderConnectionNotFound(connectionId);
  return record;
}

/** The connection's API key in clear: only for the functions that call the provider. */
export function providerApiKeyOf(record: ProviderConnectionRecord): Promise<string> {
  return openSecret(record.apiKey, apiKeyContext(record.orgId, record.connectionId));
}
