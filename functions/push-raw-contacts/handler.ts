import { defineEndpoint } from '#api/http/endpoint.ts';
import { pushContactsEndpoint } from '#schemas/raw.ts';
import { pushRawContacts } from '#use-cases/push-raw-contacts.ts';

/**
 * POST /public/v1/campaigns/{id}/raw/contacts — each contact validated on its own (bad ones are
 * reported in `errors`), a repeated email processed once; an `Idempotency-Key` replays the first
 * response (the endpoint wrapper's, as on every write).
 */
export const handler = defineEndpoint(pushContactsEndpoint, (input) => pushRawContacts(input));
