/**
 * Each provider's adapter (smartlead.ts, instantly.ts, lemlist.ts, heyreach.ts)
 * maps a native webhook payload (any JSON value, untrusted) to the activities it
 * reports, or says why it reports none the service records: pure functions that
 * never throw. The provider events consumer loads the one a payload needs
 * (load-mapper.ts); what each adapter knows of its provider's events:
 */
export { HEYREACH_EVENTS } from './heyreach.ts';
export { INSTANTLY_EVENTS } from './instantly.ts';
export { LEMLIST_EVENTS } from './lemlist.ts';
export { SMARTLEAD_CATEGORY_RESPONSE_TYPES, SMARTLEAD_EVENTS } from './smartlead.ts';
