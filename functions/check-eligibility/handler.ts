import { normalizeEmail } from '#shared/domain/contacts.ts';
import { checkEligibility } from '#shared/domain/raw-push.ts';
import { defineEndpoint } from '#shared/http/endpoint.ts';
import { checkEligibilityEndpoint } from '#shared/schemas/raw.ts';

/** POST /public/v1/campaigns/{id}/raw/contacts/check-eligibility — the dry run; writes nothing. */
export const handler = defineEndpoint(checkEligibilityEndpoint, async ({ orgId, path, body }) =>
  checkEligibility(orgId, path.id, [...new Set(body.emails.map(normalizeEmail))], body),
);
