import { EXCLUSION_SHARDS, type ExclusionKind, exclusions, shardOf } from '#store/exclusions.ts';
import { transact } from '#store/transactions.ts';
import { excludeAccountByDomain } from './accounts.ts';
import { getContactsByEmail, normalizeEmail } from './contacts.ts';
import { stopDomainOutboxWrite, stopOutboxWrite } from './enrollment.ts';

/**
 * The organization's exclusion list: emails and domains that raw pushes skip
 * as `globally_excluded`. Each entry has its own record (with what the caller
 * said about it) and is also added to one of a fixed number of shard sets, so
 * a check reads every exclusion it needs in a single BatchGetItem.
 */

/** The kinds, the shards and which shard holds a value are the store's (shared/store/exclusions.ts). */
export type { ExclusionKind };
export { EXCLUSION_SHARDS, shardOf };

export interface ExclusionDetails {
  companyName?: string;
  companyLinkedinUrl?: string;
}

/**
 * Adds an email or a (normalized) domain to the exclusion list; adding it again
 * updates the details and changes nothing else. Excluding a domain also
 * excludes the organization's account with that domain. Either way, the
 * leads already enrolled at a provider under it are stopped there (through
 * the enrollment queue), unless the caller knows there are none:
 * `organizationIsNew`, for an organization created moments ago by the same
 * caller (the demo seed), which no provider holds a lead of yet.
 */
export async function addExclusion(
  orgId: number,
  kind: ExclusionKind,
  rawValue: string,
  details: ExclusionDetails = {},
  options: { organizationIsNew?: boolean } = {},
): Promise<void> {
  if (kind === 'domain') await addDomainExclusion(orgId, rawValue, details, options);
  else await addEmailExclusion(orgId, rawValue, details, options);
}

/**
 * `addExclusion` of a (normalized) domain: what a caller that only ever
 * excludes domains imports, without the contacts an email's exclusion reads.
 */
export async function addDomainExclusion(
  orgId: number,
  value: string,
  details: ExclusionDetails = {},
  options: { organizationIsNew?: boolean } = {},
): Promise<void> {
  await putExclusion(orgId, 'domain', value, details);
  await excludeAccountByDomain(orgId, value);
  if (options.organizationIsNew) return;
  // Leads already enrolled under the domain are stopped at their providers.
  await transact([stopDomainOutboxWrite(orgId, value)]);
}

/** `addExclusion` of an email. */
async function addEmailExclusion(
  orgId: number,
  rawValue: string,
  details: ExclusionDetails,
  options: { organizationIsNew?: boolean },
): Promise<void> {
  const value = normalizeEmail(rawValue);
  await putExclusion(orgId, 'email', value, details);
  if (options.organizationIsNew) return;
  const contact = (await getContactsByEmail(orgId, [value])).get(value);
  const assignmentIds = Object.keys(contact?.assignments ?? {}).map(Number);
  if (assignmentIds.length > 0) await transact([stopOutboxWrite(orgId, assignmentIds, 'email excluded')]);
}

/** The exclusion's own record, and its value in its shard's set. */
async function putExclusion(
  orgId: number,
  kind: ExclusionKind,
  value: string,
  details: ExclusionDetails,
): Promise<void> {
  await exclusions.put(orgId, {
    kind,
    value,
    companyName: details.companyName,
    companyLinkedinUrl: details.companyLinkedinUrl,
    updatedAt: new Date().toISOString(),
  });
  await exclusions.addToShard(orgId, kind, value);
}

/** Which of the given emails and domains are excluded, read in one BatchGetItem (≤ 32 shard items). */
export async function findExclusions(
  orgId: number,
  values: { emails: string[]; domains: string[] },
): Promise<{ emails: Set<string>; domains: Set<string> }> {
  const excluded = await exclusions.shardMembers(orgId, values);
  return {
    emails: new Set(values.emails.filter((email) => excluded.emails.has(email))),
    domains: new Set(values.domains.filter((domain) => excluded.domains.has(domain))),
  };
}
