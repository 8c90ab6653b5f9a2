import { sealSecret } from '#platform/secrets.ts';
import type { AcceptedCredentials } from '#providers/contract.ts';
import type { Provider } from '#schemas/import.ts';
import { retryOnConflict } from '#store/conflicts.ts';
import { allocateId } from '#store/ids.ts';
import { type ProviderConnectionRecord, providerConnections } from '#store/provider-connections.ts';
import { TransactionConflictError, transact } from '#store/transactions.ts';
import {
  ProviderBaseUrlRefused,
  ProviderConnectionLimitReached,
  ProviderConnectionNotFound,
} from './errors.ts';
import {
  apiKeyContext,
  type BaseUrlCheckOptions,
  COUNT_RETRIES,
  getProviderConnection,
  MAX_PROVIDER_CONNECTIONS_PER_ORGANIZATION,
} from './provider-connections.ts';

/**
 * A provider connection's API key, verified at the provider before it is
 * stored (docs/providers.md, Connecting). Apart from provider-connections.ts
 * because it is the one part of connections that talks to a provider: the
 * provider's client, its transport and the SSRF checks are imported when a
 * key is verified, so the functions that read, rotate or delete connections
 * (and the webhook receiver, which reads them) do not load them at start
 * (docs/architecture.md, Bundles).
 */

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
    const { checkWebhookUrl, configuredUrlPolicy, systemResolver, UrlRefusedError } = await import(
      '#platform/ssrf.ts'
    );
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
  const accepted = await (await import('./provider-key-check.ts')).verifyProviderKey(
    input.provider,
    baseUrl,
    input.apiKey,
    options,
  );
  const verifiedAt = new Date().toISOString();
  const connectionId = await allocateId('providerConnection');
  const record: ProviderConnectionRecord = {
    orgId,
    connectionId,
    provider: input.provider,
    baseUrl,
    ...(await sealedKey(input.apiKey, orgId, connectionId, accepted)),
    urlGeneration: 1,
    createdAt: new Date().toISOString(),
    // The key was just verified: the connection starts ok, its last success that answer.
    status: 'ok',
    lastSuccessAt: verifiedAt,
    lastError: null,
    healthWrittenAt: verifiedAt,
  };
  try {
    await retryOnConflict(
      () =>
        transact([
          providerConnections.countOneMore(orgId, MAX_PROVIDER_CONNECTIONS_PER_ORGANIZATION),
          providerConnections.putNew(record),
        ]),
      COUNT_RETRIES,
    );
  } catch (error) {
    if (error instanceof TransactionConflictError && error.failed.has('connection-limit')) {
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
 * URL is kept, and the connection is ok from then (the new key was just accepted).
 */
export async function replaceProviderApiKey(
  orgId: number,
  connectionId: number,
  apiKey: string,
  options: BaseUrlCheckOptions = {},
): Promise<ProviderConnectionRecord> {
  const current = await getProviderConnection(orgId, connectionId);
  const accepted = await (await import('./provider-key-check.ts')).verifyProviderKey(
    current.provider,
    current.baseUrl,
    apiKey,
    options,
  );
  const record = await providerConnections.replaceApiKey(
    orgId,
    connectionId,
    await sealedKey(apiKey, orgId, connectionId, accepted),
    new Date().toISOString(),
  );
  if (!record) throw new ProviderConnectionNotFound(connectionId);
  return record;
}
