import { normalizeEmail } from '#domain/contacts.ts';
import { checkEligibility as judge } from '#domain/raw-push.ts';
import { count } from '#platform/observability.ts';
import type { checkEligibilityEndpoint } from '#schemas/raw.ts';
import type { OperationInput, OperationOutput } from './operation.ts';

type Endpoint = typeof checkEligibilityEndpoint;

/**
 * 1. Normalize the emails (trimmed, lower case); a repeated one is judged once.
 * 2. Read the campaign, the contacts with those emails and the exclusions that could apply
 *    (CampaignNotFound; SequenceNotInCampaign when `sequenceId` is not one of its sequences, or it has
 *    no email sequence to default to).
 * 3. Judge each email as a push into the target sequence would, minus the reasons the bypass flags lift.
 * 4. Return each email's verdict with its reasons, and the summary; nothing is written.
 *
 * POST /public/v1/campaigns/{id}/raw/contacts/check-eligibility; the MCP tool `check_eligibility`.
 */
export async function checkEligibility({
  orgId,
  path,
  body,
}: OperationInput<Endpoint>): Promise<OperationOutput<Endpoint>> {
  const emails = [...new Set(body.emails.map(normalizeEmail))];
  const result = await judge(orgId, path.id, emails, body);
  count('EligibilityChecked', emails.length);
  return result;
}
