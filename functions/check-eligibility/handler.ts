import { normalizeEmail } from '#shared/domain/contacts.ts';
import { checkEligibility } from '#shared/domain/raw-push.ts';
import { defineEndpoint } from '#shared/http/endpoint.ts';
import { count } from '#shared/observability.ts';
import { checkEligibilityEndpoint } from '#shared/schemas/raw.ts';

/** POST /public/v1/campaigns/{id}/raw/contacts/check-eligibility — the dry run; writes nothing. */
export const handler = defineEndpoint(checkEligibilityEndpoint, async ({ orgId, path, body }) => {
  const emails = [...new Set(body.emails.map(normalizeEmail))];
  const result = await checkEligibility(orgId, path.id, emails, body);
  count('EligibilityChecked', emails.length);
  return result;
});
