import type { Provider } from '#definitions/providers.ts';
import { loadEach } from '#platform/load-each.ts';
import type { PayloadMapper } from './contract.ts';

/** How much of an exception's message an `ignored` reason quotes. */
const MAX_QUOTED_ERROR_LENGTH = 200;

/**
 * The adapter, with any exception it throws ended as a payload it does not
 * record, with why. The adapters are written never to throw on any JSON value,
 * but a payload is untrusted: one that still makes an adapter throw is kept as
 * unmatched with the reason (and the connection's owner sees it), rather than
 * failing five times and paging the operator from the dead-letter queue.
 */
export function neverThrowing(mapper: PayloadMapper): PayloadMapper {
  return (payload) => {
    try {
      return mapper(payload);
    } catch (error) {
      const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      return { ignored: `the payload could not be mapped: ${why.slice(0, MAX_QUOTED_ERROR_LENGTH)}` };
    }
  };
}

/**
 * Each provider's webhook adapter (its webhooks.ts), loaded when a payload of
 * that provider first arrives: a consumer's batch names its providers, and an
 * organization uses one or two, so a cold start need not read all four
 * adapters and their payload schemas (docs/architecture.md, Bundles). The
 * type names every provider, so a provider without its line does not compile.
 */
const ADAPTERS: { readonly [Name in Provider]: () => Promise<PayloadMapper> } = {
  smartlead: async () => neverThrowing((await import('./smartlead/webhooks.ts')).mapSmartleadPayload),
  instantly: async () => neverThrowing((await import('./instantly/webhooks.ts')).mapInstantlyPayload),
  lemlist: async () => neverThrowing((await import('./lemlist/webhooks.ts')).mapLemlistPayload),
  heyreach: async () => neverThrowing((await import('./heyreach/webhooks.ts')).mapHeyreachPayload),
};

/** The adapter of `provider` (its module is loaded once per process). */
export const payloadMapper = (provider: Provider): Promise<PayloadMapper> => ADAPTERS[provider]();

/** Every provider's adapter at once: for the tests, which map payloads of each. */
export const payloadMappers = (): Promise<Record<Provider, PayloadMapper>> => loadEach(ADAPTERS);
