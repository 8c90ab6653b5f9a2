import type { Throttle } from '#definitions/rate-limits.ts';
import { getOrganization, type Organization, setCooldownDays } from '#domain/organizations.ts';
import type { ForOrganization } from './operation.ts';

/** The settings the operator changes; what is absent stays as it is. */
export interface OrganizationSettings extends ForOrganization {
  readonly cooldownDays?: number;
  /** An arranged rate limit, or null to take the organization back to the default. */
  readonly rateLimit?: Throttle | null;
}

/**
 * Arranges an organization's rate limit where requests are throttled and records it (on AWS it also
 * moves the organization's key between usage plans); the operator CLI passes its own.
 */
export type ArrangeRateLimit = (orgId: number, throttle: Throttle | null) => Promise<Organization>;

/**
 * 1. Set the cooldown window of raw-push eligibility, when given (SettingOutOfRange outside 1 to
 *    3,650 whole days; OrganizationNotFound).
 * 2. Arrange the rate limit, when given (SettingOutOfRange beyond the maximum).
 * 3. Return the organization as it now is.
 *
 * `outreach-admin org set`.
 */
export async function setOrganization(
  settings: OrganizationSettings,
  arrangeRateLimit: ArrangeRateLimit,
): Promise<Organization> {
  let organization: Organization | undefined;
  if (settings.cooldownDays !== undefined)
    organization = await setCooldownDays(settings.orgId, settings.cooldownDays);
  if (settings.rateLimit !== undefined)
    organization = await arrangeRateLimit(settings.orgId, settings.rateLimit);
  return organization ?? getOrganization(settings.orgId);
}
