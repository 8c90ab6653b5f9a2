import { defineEndpoint } from '#api/http/endpoint.ts';
import { addExclusion } from '#domain/exclusions.ts';
import { excludeAccountEndpoint } from '#schemas/accounts.ts';

/** POST /public/v1/accounts/exclude — puts the company's domain on the exclusion list (idempotent). */
export const handler = defineEndpoint(excludeAccountEndpoint, async ({ orgId, body }) => {
  await addExclusion(orgId, 'domain', body.company_url, {
    companyName: body.company_name,
    companyLinkedinUrl: body.company_linkedin_url,
  });
  return { success: true };
});
