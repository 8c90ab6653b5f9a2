import { defineEndpoint } from '#api/http/endpoint.ts';
import { checkEligibilityEndpoint } from '#schemas/raw.ts';
import { checkEligibility } from '#use-cases/check-eligibility.ts';

/** POST /public/v1/campaigns/{id}/raw/contacts/check-eligibility — the dry run; writes nothing. */
export const handler = defineEndpoint(checkEligibilityEndpoint, (input) => checkEligibility(input));
