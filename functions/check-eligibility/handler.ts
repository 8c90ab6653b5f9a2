import { defineEndpoint } from '#api/http/endpoint.ts';
import { normalizeEmail } from '#domain/contacts.ts';
import { checkEligibility } from '#domain/raw-push.ts';
import { count } from '#platform/observability.ts';
import { checkEligibilityEndpoint } from '#schemas/raw.ts';

/** POST /public/v1/campaigns/{id}/raw/contacts/check-eligibility — the dry run; writes nothing. */
export const handler = defineEndpoint(checkEligibilityEndpoint, async ({ orgId, path, body }) => {
  const emails = [...new Set(body.emails.map(normalizeEmail))];
  const result = await checkEligibility(orgId, path.id, emails, body);
  count('EligibilityChecked', emails.length);
  return result;
});
