import type { MappedPayload } from '#domain/provider-activity.ts';
import type { Provider } from '#schemas/import.ts';
import { mapHeyreachPayload } from './heyreach.ts';
import { mapInstantlyPayload } from './instantly.ts';
import { mapLemlistPayload } from './lemlist.ts';
import { mapSmartleadPayload } from './smartlead.ts';

/**
 * Each provider's adapter: a native webhook payload (any JSON value, untrusted)
 * to the activities it reports, or why it reports none the service records.
 * Pure functions that never throw; the provider events consumer calls them.
 */
export const PROVIDER_PAYLOAD_MAPPERS: Record<Provider, (payload: unknown) => MappedPayload> = {
  smartlead: mapSmartleadPayload,
  instantly: mapInstantlyPayload,
  lemlist: mapLemlistPayload,
  heyreach: mapHeyreachPayload,
};

export { HEYREACH_EVENTS } from './heyreach.ts';
export { INSTANTLY_EVENTS } from './instantly.ts';
export { LEMLIST_EVENTS } from './lemlist.ts';
export { SMARTLEAD_CATEGORY_RESPONSE_TYPES, SMARTLEAD_EVENTS } from './smartlead.ts';
