import { normalizeEmail } from '#domain/contacts.ts';
import { type ExclusionKind, addExclusion as exclude } from '#domain/exclusions.ts';
import { getOrganization } from '#domain/organizations.ts';
import type { ForOrganization } from './operation.ts';

/** An email address, or a domain already normalized (`domainString`), to exclude. */
export interface Exclusion extends ForOrganization {
  readonly kind: ExclusionKind;
  readonly value: string;
}

/**
 * 1. The organization the operator names must exist (OrganizationNotFound).
 * 2. Normalize an email (trimmed, lower case).
 * 3. Put the email or domain on the organization's exclusion list; a domain also excludes the
 *    organization's account with it.
 * 4. Return what was excluded, as it is stored.
 *
 * `outreach-admin exclusions add`; POST /public/v1/accounts/exclude is `excludeAccount`.
 */
export async function addExclusion({ orgId, kind, value }: Exclusion): Promise<Exclusion> {
  await getOrganization(orgId);
  const stored = kind === 'email' ? normalizeEmail(value) : value;
  await exclude(orgId, kind, stored);
  return { orgId, kind, value: stored };
}
