import { addDomainExclusion } from '#domain/exclusions.ts';
import type { excludeAccountEndpoint } from '#schemas/accounts.ts';
import type { OperationInput, OperationOutput } from './operation.ts';

type Endpoint = typeof excludeAccountEndpoint;

/**
 * 1. Put the company's (normalized) domain on the organization's exclusion list with the company's
 *    name and LinkedIn URL; excluding it again only updates those.
 * 2. Exclude the organization's account with that domain, if it has one: it leaves every campaign's
 *    ranking at once (an account imported later is excluded as it arrives).
 * 3. Return success.
 *
 * POST /public/v1/accounts/exclude.
 */
export async function excludeAccount({
  orgId,
  body,
}: OperationInput<Endpoint>): Promise<OperationOutput<Endpoint>> {
  await addDomainExclusion(orgId, body.company_url, {
    companyName: body.company_name,
    companyLinkedinUrl: body.company_linkedin_url,
  });
  return { success: true };
}
