import { MAX_ORGANIZATION_THROTTLE, type Throttle } from '#definitions/rate-limits.ts';
import { allocateId } from '#store/ids.ts';
import { type OrganizationItem, organizations } from '#store/organizations.ts';
import { type TransactItem, TransactionConflictError, transact } from '#store/transactions.ts';
import { OrganizationNotFound, SettingOutOfRange } from './errors.ts';

/** Default cooldown window for raw-push eligibility, in days (docs/decisions.md, Raw operations). */
export const DEFAULT_COOLDOWN_DAYS = 90;
/** Bounds of a configured cooldown window, in days (ten years at most). */
export const MIN_COOLDOWN_DAYS = 1;
export const MAX_COOLDOWN_DAYS = 3650;

/** An organization (tenant). */
export interface Organization {
  orgId: number;
  name: string;
  createdAt: string;
  cooldownDays: number;
  /** A rate limit the operator arranged; null means the default plan (shared/definitions/rate-limits.ts). */
  rateLimit: Throttle | null;
}

/** Creates an organization with a fresh id. */
export async function createOrganization(name: string): Promise<Organization> {
  const orgId = await allocateId('organization');
  const organization: Organization = {
    orgId,
    name,
    createdAt: new Date().toISOString(),
    cooldownDays: DEFAULT_COOLDOWN_DAYS,
    rateLimit: null,
  };
  await organizations.create(organization);
  return organization;
}

/** Reads an organization; throws OrganizationNotFound when it does not exist. */
export async function getOrganization(orgId: number): Promise<Organization> {
  const item = await organizations.get(orgId);
  if (!item) throw new OrganizationNotFound(orgId);
  return toOrganization(item);
}

/**
 * Sets the organization's cooldown window for raw-push eligibility. Throws
 * SettingOutOfRange for a value outside 1..3650 whole days and OrganizationNotFound when
 * the organization does not exist.
 */
export async function setCooldownDays(orgId: number, days: number): Promise<Organization> {
  if (!Number.isInteger(days) || days < MIN_COOLDOWN_DAYS || days > MAX_COOLDOWN_DAYS) {
    throw new SettingOutOfRange(
      `Cooldown must be a whole number of days from ${MIN_COOLDOWN_DAYS} to ${MAX_COOLDOWN_DAYS}, got ${days}`,
    );
  }
  return updateOrganization(orgId, 'SET cooldownDays = :value', days);
}

/**
 * Records the rate limit arranged for the organization (null: back to the
 * default plan). This is the record the local gateway enforces; on AWS the
 * operator CLI also moves the organization's key between usage plans
 * (shared/admin/rate-limits.ts). Throws SettingOutOfRange for limits that are not
 * whole numbers from 1 to the maximum, OrganizationNotFound for an unknown organization.
 */
export async function setRateLimit(orgId: number, throttle: Throttle | null): Promise<Organization> {
  if (throttle === null) return updateOrganization(orgId, 'REMOVE rateLimit');
  for (const name of ['rateLimit', 'burstLimit'] as const) {
    const value = throttle[name];
    if (!Number.isInteger(value) || value < 1 || value > MAX_ORGANIZATION_THROTTLE[name]) {
      throw new SettingOutOfRange(
        `${name} must be a whole number from 1 to ${MAX_ORGANIZATION_THROTTLE[name]}, got ${value}`,
      );
    }
  }
  return updateOrganization(orgId, 'SET rateLimit = :value', {
    rateLimit: throttle.rateLimit,
    burstLimit: throttle.burstLimit,
  });
}

/** One conditional update of the organization item, so it never creates a stray item. */
async function updateOrganization(orgId: number, expression: string, value?: unknown): Promise<Organization> {
  const item = await organizations.update(orgId, expression, value);
  if (!item) throw new OrganizationNotFound(orgId);
  return toOrganization(item);
}

/** The organization with its defaults applied to the settings it never set. */
const toOrganization = (item: OrganizationItem): Organization => ({
  ...item,
  cooldownDays: item.cooldownDays ?? DEFAULT_COOLDOWN_DAYS,
});

/**
 * Creates an item that belongs to an organization (`put`: a store's
 * conditional put of a new item), in one transaction with the check that the
 * organization exists (OrganizationNotFound otherwise).
 */
export async function putForOrganization(orgId: number, put: TransactItem): Promise<void> {
  try {
    await transact([organizations.existsCheck(orgId), put]);
  } catch (error) {
    if (error instanceof TransactionConflictError && error.failed.has('organization-not-found')) {
      throw new OrganizationNotFound(orgId);
    }
    throw error;
  }
}
