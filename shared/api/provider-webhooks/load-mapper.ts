import type { MappedPayload } from '#domain/provider-activity.ts';
import { loadEach } from '#platform/load-each.ts';
import type { Provider } from '#schemas/import.ts';

/** A provider's adapter: its native webhook payload to the activities it reports (index.ts). */
export type PayloadMapper = (payload: unknown) => MappedPayload;

/**
 * Each provider's adapter, loaded when a payload of that provider first
 * arrives: a consumer's batch names its providers, and an organization uses
 * one or two, so a cold start need not read all four adapters and their
 * payload schemas (docs/architecture.md, Bundles).
 */
const LOADERS: Record<Provider, () => Promise<PayloadMapper>> = {
  smartlead: async () => (await import('./smartlead.ts')).mapSmartleadPayload,
  instantly: async () => (await import('./instantly.ts')).mapInstantlyPayload,
  lemlist: async () => (await import('./lemlist.ts')).mapLemlistPayload,
  heyreach: async () => (await import('./heyreach.ts')).mapHeyreachPayload,
};

/** Every provider's adapter at once: for the tests, which map payloads of each. */
export const payloadMappers = (): Promise<Record<Provider, PayloadMapper>> => loadEach(LOADERS);

/** The adapter of `provider` (its module is loaded once per process). */
export const payloadMapper = (provider: Provider): Promise<PayloadMapper> => LOADERS[provider]();
