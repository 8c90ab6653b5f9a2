import { configuredUrlPolicy } from '#platform/ssrf.ts';
import { loadProviderClient } from '#providers/clients.ts';
import { type AcceptedCredentials, ProviderApiError } from '#providers/contract.ts';
import { PROVIDER_FACTS } from '#providers/registry.ts';
import { providerHttp } from '#providers/transport.ts';
import type { Provider } from '#schemas/import.ts';
import { failureMessage } from './connection-health.ts';
import { ProviderKeyRefused, ProviderUnreachable } from './errors.ts';
import type { BaseUrlCheckOptions } from './provider-connections.ts';

/*
 * The one call of connections to a provider, in a module of its own that
 * provider-keys.ts imports when it verifies a key: the client, its transport
 * and the SSRF rules are then read by the functions that connect, and only
 * when they do (docs/architecture.md, Bundles).
 */

/** What the provider said of a key: accepted, refused (why, in the provider's name and status), or nothing. */
export type KeyVerdict =
  | { kind: 'accepted'; accepted: AcceptedCredentials }
  | { kind: 'refused'; message: string }
  /** Not reached, or failing (5xx): `message` says which, for the connection's health. */
  | { kind: 'unreachable'; message: string }
  /** Busy (429): the provider answered but did not judge the key. */
  | { kind: 'busy' };

/** The provider as messages name it. */
export const providerNameOf = (provider: Provider): string => PROVIDER_FACTS[provider].displayName;

/**
 * Asks the provider whether it accepts `apiKey` with its cheapest documented
 * authenticated read (the client's `checkCredentials`), through the same
 * SSRF-safe transport the connection's later calls use, at the connection's
 * base URL (else the provider's public API).
 */
export async function askProviderAboutKey(
  provider: Provider,
  baseUrl: string | null,
  apiKey: string,
  options: BaseUrlCheckOptions = {},
): Promise<KeyVerdict> {
  const client = await loadProviderClient(provider);
  const http = providerHttp(baseUrl ?? PROVIDER_FACTS[provider].defaultBaseUrl, {
    policy: options.policy ?? configuredUrlPolicy(),
    resolve: options.resolve,
  });
  try {
    return { kind: 'accepted', accepted: await client.checkCredentials(http, { apiKey }) };
  } catch (error) {
    if (!(error instanceof ProviderApiError)) throw error;
    // A refusal with a status is the provider's answer about the key; without one it is the transport's (an address refused).
    if (error.kind === 'refused' && error.status !== null && error.status < 500) {
      return { kind: 'refused', message: error.message };
    }
    if (error.kind === 'rate-limited') return { kind: 'busy' };
    return {
      kind: 'unreachable',
      message: failureMessage(PROVIDER_FACTS[provider].displayName, error.status),
    };
  }
}

/**
 * Verifies a key before it is stored. A key the provider refuses is
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
  const verdict = await askProviderAboutKey(provider, baseUrl, apiKey, options);
  if (verdict.kind === 'accepted') return verdict.accepted;
  if (verdict.kind === 'refused') throw new ProviderKeyRefused(verdict.message);
  throw new ProviderUnreachable(PROVIDER_FACTS[provider].displayName);
}
