import type { Provider } from '#definitions/providers.ts';
import type { ProviderFacts } from './contract.ts';
import { HEYREACH_FACTS } from './heyreach/facts.ts';
import { INSTANTLY_FACTS } from './instantly/facts.ts';
import { LEMLIST_FACTS } from './lemlist/facts.ts';
import { SMARTLEAD_FACTS } from './smartlead/facts.ts';

/**
 * The providers and what the service knows of each (its facts.ts): one line
 * each. The record's type names every provider of PROVIDERS
 * (shared/definitions/providers.ts), so a provider without its line does not
 * compile; clients.ts and webhooks.ts list its client and webhook adapter the
 * same way, and test/unit/provider-registry.test.ts checks every part and
 * emulator of each provider (docs/architecture.md, Adding a provider).
 *
 * Apart from the loaders because a module with an `import()` costs every
 * function that imports it (docs/architecture.md, Bundles): the functions that
 * only read a provider's facts (a reply's route, a key's default base URL)
 * import this module alone.
 */
export const PROVIDER_FACTS: { readonly [Name in Provider]: ProviderFacts } = {
  smartlead: SMARTLEAD_FACTS,
  instantly: INSTANTLY_FACTS,
  lemlist: LEMLIST_FACTS,
  heyreach: HEYREACH_FACTS,
};
