import { macMatches, macOf, openSecret, type SecretContext } from '#platform/secrets.ts';
import type { Resolver, UrlPolicy } from '#platform/ssrf.ts';
import { retryOnConflict } from '#store/conflicts.ts';
import { type ProviderConnectionRecord, providerConnections } from '#store/provider-connections.ts';
import { TransactionConflictError, transact } from '#store/transactions.ts';
import { ProviderConnectionNotFound } from './errors.ts';

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

/** How a change to the organization's connection count retries a conflicting transaction. */
export const COUNT_RETRIES = { attempts: 5, baseDelayMs: 20 };

export const apiKeyContext = (orgId: number, connectionId: number): SecretContext => ({
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
      COUNT_RETRIES,
    );
  } catch (error) {
    if (error instanceof TransactionConflictError && error.failed.has('connection-not-found')) {
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
