import type { Provider } from '#definitions/providers.ts';
import type { ApiKeyScope } from '#definitions/routes.ts';
import { PROVIDER_FACTS } from '#providers/registry.ts';
import type { WebhookEventType } from '#schemas/webhooks.ts';

/**
 * The words the dashboard shows where the API and the table spell identifiers: a
 * person reads "First touch" and "Smartlead", never `first_touch` or `smartlead`.
 * Every page takes its labels and number and date formats from here, so that one
 * thing is named the same way everywhere (docs/dashboard.md, Words).
 */

const EVENT_LABELS: { readonly [Type in WebhookEventType]: string } = {
  new_opportunities: 'New opportunities',
  first_touch: 'First touch',
  positive_reply: 'Positive reply',
};

const SCOPE_LABELS: { readonly [Scope in ApiKeyScope]: string } = {
  read: 'Read only',
  'read-write': 'Read and write',
};

export const eventLabel = (type: WebhookEventType): string => EVENT_LABELS[type];

export const scopeLabel = (scope: ApiKeyScope): string => SCOPE_LABELS[scope];

/** The provider's own spelling of its name ("HeyReach"), from its facts. */
export const providerLabel = (provider: Provider): string => PROVIDER_FACTS[provider].displayName;

// One locale for every page: the dashboard is in English, and a figure must read the same for every member.
const LOCALE = 'en-US';
const integerFormat = new Intl.NumberFormat(LOCALE);
const percentFormat = new Intl.NumberFormat(LOCALE, { style: 'percent', maximumFractionDigits: 1 });
// UTC, and said so: members of one organization sit in different time zones, and the audit log must agree.
const dateTimeFormat = new Intl.DateTimeFormat(LOCALE, {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

/** 12,345 */
export const formatCount = (value: number): string => integerFormat.format(value);

/** A share of a whole, as "12.5%"; "–" when the whole is zero (no rate yet, rather than a false 0%). */
export const formatRate = (part: number, whole: number): string =>
  whole > 0 ? percentFormat.format(part / whole) : '–';

/** "Nov 29, 2026, 1:05 AM UTC" for an ISO 8601 instant; the text itself when it is not one. */
export function formatDateTime(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : `${dateTimeFormat.format(time)} UTC`;
}

// The campaign, contact and member pages' words. Their types are named here, not imported at the top,
// so that this part of the file stands on its own.
type AssignmentStatus = import('#definitions/item-fields.ts').AssignmentStatus;
type EnrollmentStatus = typeof import('#definitions/item-fields.ts').ENROLLMENT_STATUSES[number];
type MemberRole = import('#domain/members.ts').MemberRole;
type MessageType = typeof import('#schemas/resources.ts').MESSAGE_TYPES[number];

const CONTACT_STATUS_LABELS: { readonly [Status in AssignmentStatus]: string } = {
  'pending-approval': 'Pending approval',
  scheduled: 'Scheduled',
  'in-progress': 'In progress',
  completed: 'Completed',
  replied: 'Replied',
  bounced: 'Bounced',
  unsubscribed: 'Unsubscribed',
};

const ENROLLMENT_LABELS: { readonly [Status in EnrollmentStatus]: string } = {
  pending: 'Waiting for the provider',
  enrolled: 'Enrolled',
  failed: 'Refused by the provider',
};

const ROLE_LABELS: { readonly [Role in MemberRole]: string } = { admin: 'Admin', viewer: 'Viewer' };

const MESSAGE_TYPE_LABELS: { readonly [Type in MessageType]: string } = {
  sent: 'Sent',
  received: 'Received',
  forward: 'Forwarded',
};

/** A contact's status in a campaign ("In progress"); the text itself for a status this list lacks. */
export const contactStatusLabel = (status: string): string =>
  (Object.hasOwn(CONTACT_STATUS_LABELS, status) && CONTACT_STATUS_LABELS[status as AssignmentStatus]) ||
  status;

/** A contact's enrollment at the provider ("Enrolled"); "Not enrolled" when it has none. */
export const enrollmentLabel = (status: EnrollmentStatus | null | undefined): string =>
  status ? ENROLLMENT_LABELS[status] : 'Not enrolled';

export const roleLabel = (role: MemberRole): string => ROLE_LABELS[role];

export const messageTypeLabel = (type: MessageType): string => MESSAGE_TYPE_LABELS[type];
