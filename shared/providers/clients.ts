import type { Provider } from '#definitions/providers.ts';
import { loadEach } from '#platform/load-each.ts';
import type { ProviderClient } from './contract.ts';

/**
 * Each provider's outbound client (its client.ts), loaded when a connection of
 * that provider is first used: a queued unit of work is for one connection,
 * so a consumer loads the clients of the providers it works for and not the
 * four at start (docs/architecture.md, Bundles). Nothing on a function's
 * static path imports a client module, or it would be in its first chunk
 * after all. The type names every provider, so a provider without its line
 * does not compile.
 */
const CLIENTS: { readonly [Name in Provider]: () => Promise<ProviderClient> } = {
  smartlead: async () => (await import('./smartlead/client.ts')).smartleadClient,
  instantly: async () => (await import('./instantly/client.ts')).instantlyClient,
  lemlist: async () => (await import('./lemlist/client.ts')).lemlistClient,
  heyreach: async () => (await import('./heyreach/client.ts')).heyreachClient,
};

/** The client of `provider` (its module is loaded once per process). */
export const loadProviderClient = (provider: Provider): Promise<ProviderClient> => CLIENTS[provider]();

/** Every provider's client at once: for the tests, which exercise each. */
export const providerClients = (): Promise<Record<Provider, ProviderClient>> => loadEach(CLIENTS);
