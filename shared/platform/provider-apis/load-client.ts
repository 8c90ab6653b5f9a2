import { loadEach } from '#platform/load-each.ts';
import type { Provider } from '#schemas/import.ts';
import type { ProviderClient } from './types.ts';

/**
 * Each provider's client, loaded when a connection of that provider is first
 * used: a queued unit of work is for one connection, so a consumer loads the
 * clients of the providers it works for and not the four at start
 * (docs/architecture.md, Bundles). The one list of the clients: nothing on a
 * function's static path imports their modules, or they would be in its first
 * chunk after all.
 */
const LOADERS: Record<Provider, () => Promise<ProviderClient>> = {
  smartlead: async () => (await import('./smartlead.ts')).smartleadClient,
  instantly: async () => (await import('./instantly.ts')).instantlyClient,
  lemlist: async () => (await import('./lemlist.ts')).lemlistClient,
  heyreach: async () => (await import('./heyreach.ts')).heyreachClient,
};

/** The client of `provider` (its module is loaded once per process). */
export const loadProviderClient = (provider: Provider): Promise<ProviderClient> => LOADERS[provider]();

/** Every provider's client at once: for the tests, which exercise each. */
export const providerClients = (): Promise<Record<Provider, ProviderClient>> => loadEach(LOADERS);
