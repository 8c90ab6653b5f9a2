import type { AssignmentStatus, ENROLLMENT_STATUSES } from '#definitions/item-fields.ts';
import type { Provider } from '#definitions/providers.ts';
import type { ApiKeyScope } from '#definitions/routes.ts';
import type { MemberRole } from '#domain/members.ts';
import { PROVIDER_FACTS } from '#providers/registry.ts';
import type { MESSAGE_TYPES } from '#schemas/resources.ts';
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

// One locale for every page, en-US: the dashboard is in English, and a figure must read the same for every
// member. Written out rather than through Intl: the first Intl formatter a process makes loads ICU's data,
// 20 to 30 ms of a cold dashboard's first request (1.43x the floor's init plus first request, bench/report.md);
// a unit test holds these equal to Intl's en-US output.
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `value` with en-US digit grouping and at most `fractionDigits` decimals (halves away from zero), as Intl does. */
function decimal(value: number, fractionDigits: number): string {
  const scale = 10 ** fractionDigits;
  const scaled = Math.round(Math.abs(value) * scale);
  const whole = String(Math.floor(scaled / scale)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = String(scaled % scale)
    .padStart(fractionDigits, '0')
    .replace(/0+$/, '');
  return `${value < 0 && scaled > 0 ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** 12,345 */
export const formatCount = (value: number): string => decimal(value, 3);

/** A share of a whole, as "12.5%"; "–" when the whole is zero (no rate yet, rather than a false 0%). */
export const formatRate = (part: number, whole: number): string =>
  whole > 0 ? `${decimal((part / whole) * 100, 1)}%` : '–';

/** "Nov 29, 2026" of a UTC instant. */
const dayOf = (date: Date): string =>
  `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;

// UTC, and said so: members of one organization sit in different time zones, and the audit log must agree.
/** "Nov 29, 2026, 1:05 AM UTC" for an ISO 8601 instant; the text itself when it is not one. */
export function formatDateTime(iso: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  const date = new Date(time);
  const hours = date.getUTCHours();
  const minutes = String(date.getUTCMinutes()).padStart(2, '0');
  return `${dayOf(date)}, ${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'} UTC`;
}

/** "Nov 29, 2026" for an ISO 8601 instant (UTC), where the time of day says nothing. */
export function formatDate(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : dayOf(new Date(time));
}

/** "Nov 29, 2026, 1:05 AM UTC", or "Never" when there is no instant (a key never used, never expiring). */
export const formatWhen = (iso: string | null | undefined, none = 'Never'): string =>
  iso ? formatDateTime(iso) : none;

/**
 * A webhook subscription's name: its URL's host ("hooks.example.com"), which
 * its owner recognises, where its id says nothing. The URL itself when it does not parse.
 */
export function subscriptionName(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** A delivery's event: an event's label, or "Test event" for the one a test sends. */
export const deliveryEventLabel = (type: string): string =>
  type === 'test' ? 'Test event' : (EVENT_LABELS[type as WebhookEventType] ?? type);

/** A delivery's status, capitalised as a label ("Delivered", "Failed", "Pending"). */
export const statusLabel = (status: string): string =>
  status
    ? `${status.charAt(0).toUpperCase()}${status.slice(1).replaceAll('_', ' ').replaceAll('-', ' ')}`
    : status;

const CHANNEL_LABELS: Readonly<Record<string, string>> = { email: 'email', linkedin: 'LinkedIn' };

/**
 * A sequence as a person tells it apart: its provider and channel ("Smartlead
 * email sequence"); sequences have no name of their own, and their id means nothing on a page.
 */
export const sequenceLabel = (sequence: { provider: Provider; channel: string }): string =>
  `${providerLabel(sequence.provider)} ${CHANNEL_LABELS[sequence.channel] ?? sequence.channel} sequence`;

const CLIENT_KIND_LABELS: Readonly<Record<string, string>> = {
  dynamic: 'Registered itself',
  'metadata-document': 'Client metadata document',
  operator: 'Made by the operator',
};

/** How an assistant's OAuth client came to be. */
export const clientKindLabel = (kind: string): string => CLIENT_KIND_LABELS[kind] ?? kind;

const AUDIT_ACTION_LABELS: Readonly<Record<string, string>> = {
  'api-key.create': 'Created an API key',
  'api-key.revoke': 'Revoked an API key',
  'webhook.create': 'Subscribed a webhook',
  'webhook.test': 'Sent a test event',
  'webhook.enable': 'Enabled a webhook',
  'webhook.disable': 'Disabled a webhook',
  'webhook.events': 'Changed a webhook’s events',
  'webhook.redeliver': 'Redelivered a webhook event',
  'webhook.rotate-secret': 'Rotated a webhook’s signing secret',
  'webhook.delete': 'Deleted a webhook',
  'assistant.approve': 'Connected an AI assistant',
  'assistant.revoke': 'Disconnected an AI assistant',
  'oauth-client.create': 'Created an OAuth client',
  'oauth-client.revoke': 'Revoked an OAuth client',
  'assignments.approve': 'Approved contacts',
  'assignments.reject': 'Rejected contacts',
  'settings.cooldown': 'Changed the cooldown',
  'provider.connect': 'Connected a provider',
  'provider.disconnect': 'Disconnected a provider',
  'provider.check': 'Checked a provider connection',
  'provider.rotate-webhook-url': 'Rotated a provider’s webhook URL',
  'provider.link-sequence': 'Linked a sequence',
  'provider.unlink-sequence': 'Unlinked a sequence',
  'member.add': 'Added a member',
  'member.role': 'Changed a member’s role',
  'member.remove': 'Removed a member',
};

/** An audit log entry's action in words ("Created an API key"); an action without words yet, as it is recorded. */
export const auditActionLabel = (action: string): string => AUDIT_ACTION_LABELS[action] ?? action;

// The campaign, contact and member pages' words.
type EnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number];
type MessageType = (typeof MESSAGE_TYPES)[number];

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
