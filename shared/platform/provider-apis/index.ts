import type { Provider } from '#schemas/import.ts';
import { heyreachClient } from './heyreach.ts';
import { instantlyClient } from './instantly.ts';
import { lemlistClient } from './lemlist.ts';
import { smartleadClient } from './smartlead.ts';
import type { ProviderClient } from './types.ts';

/**
 * The outbound client of each provider (see types.ts): pure request builders
 * and response readers over the `ProviderHttp` the caller gives them. What
 * each sends, and the documentation it follows, is in its file's header.
 */
export const PROVIDER_CLIENTS: Record<Provider, ProviderClient> = {
  smartlead: smartleadClient,
  instantly: instantlyClient,
  lemlist: lemlistClient,
  heyreach: heyreachClient,
};

export { statusError } from './responses.ts';
export * from './types.ts';
