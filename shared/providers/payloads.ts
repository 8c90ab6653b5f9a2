import { createHash } from 'node:crypto';
import '#definitions/zod-english.ts';
import * as z from 'zod/mini';
import { canonicalJson } from '#platform/canonical-json.ts';
import type {
  MappedPayload,
  ProviderActivity,
  ProviderActivityKind,
  ProviderActivityMessage,
} from '#providers/activity.ts';
import { lenient } from '#schemas/lenient.ts';

/**
 * What the provider adapters of this folder share: event ids (the provider's
 * own ids where it has them, else a hash of the canonical payload), time,
 * email and step-number normalization, the service's field limits, and
 * lenient zod field schemas. Every payload is untrusted input, so nothing
 * here throws on any JSON value: a field of the wrong type reads as absent.
 */

/** What a native event type becomes: a provider event kind, or nothing the service records. */
export type EventOutcome = ProviderActivityKind | 'ignored';
export type StepType = ProviderActivityMessage['stepType'];
export type ResponseType = NonNullable<ProviderActivity['responseType']>;

/** The service's limits on a message (shared/schemas/import.ts): longer text is cut, not refused. */
export const MAX_SUBJECT_LENGTH = 1000;
export const MAX_BODY_LENGTH = 100_000;
/** The provider event id's limit (shared/schemas/import.ts); a longer composed id is hashed. */
export const MAX_EVENT_ID_LENGTH = 200;
/** How much of a native event type an `ignored` reason quotes. */
const MAX_QUOTED_TYPE_LENGTH = 100;

// Lenient field schemas: a field of another type than documented reads as absent rather than
// failing the whole payload, so one odd field never hides the rest of an event.
export const zText = lenient(z.optional(z.string()));
/** An id the provider sends as a number or a string (Smartlead's campaign ids are numbers). */
export const zId = lenient(z.optional(z.union([z.string(), z.number()])));
/** A time: ISO 8601 text, or epoch seconds or milliseconds. */
export const zTime = lenient(z.optional(z.union([z.string(), z.number()])));
export const zBoolean = lenient(z.optional(z.boolean()));
export const zObject = <Shape extends z.core.$ZodLooseShape>(shape: Shape) =>
  lenient(z.optional(z.object(shape)));

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * `<provider>:sha256:<hex>` of the canonical payload without the top-level
 * fields in `omit`: those that differ between two deliveries of one event
 * (a subscription's secret, a webhook id, a delivery id).
 */
export function hashEventId(provider: string, payload: unknown, omit: readonly string[] = []): string {
  let hashed = payload;
  if (payload !== null && typeof payload === 'object' && !Array.isArray(payload) && omit.length > 0) {
    const record = payload as Record<string, unknown>;
    // Built with defineProperty: a payload's own "__proto__" key stays a plain key.
    const kept: Record<string, unknown> = {};
    for (const key of Object.keys(record)) {
      if (!omit.includes(key)) {
        Object.defineProperty(kept, key, { value: record[key], enumerable: true, writable: true });
      }
    }
    hashed = kept;
  }
  return `${provider}:sha256:${sha256Hex(canonicalJson(hashed))}`;
}

/**
 * `<provider>:<part>:<part>…` from the provider's own ids, or null when one
 * of them is missing (the caller then hashes the payload). An id over the
 * service's limit is replaced by the hash of its parts.
 */
export function composeEventId(
  provider: string,
  parts: readonly (string | null | undefined)[],
): string | null {
  if (parts.length === 0 || parts.some((part) => part === null || part === undefined || part === '')) {
    return null;
  }
  const id = `${provider}:${parts.join(':')}`;
  return id.length <= MAX_EVENT_ID_LENGTH ? id : `${provider}:sha256:${sha256Hex(id)}`;
}

/** The composed id when every part is known, else the payload's hash. */
export function eventIdOf(
  provider: string,
  parts: readonly (string | null | undefined)[],
  payload: unknown,
  omit: readonly string[] = [],
): string {
  return composeEventId(provider, parts) ?? hashEventId(provider, payload, omit);
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
/** Epoch numbers below this are seconds (it is 1973 in milliseconds, 5138 in seconds). */
const EPOCH_MILLISECONDS_FROM = 1e11;

function fromDate(date: Date): string | null {
  const time = date.getTime();
  if (!Number.isFinite(time)) return null;
  const iso = date.toISOString();
  // Years outside 0000–9999 come out as ±YYYYYY, which the service's timestamps refuse.
  return /^\d{4}-/.test(iso) ? iso : null;
}

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * An ISO 8601 instant (UTC, milliseconds) from a provider's time: ISO text,
 * with or without `T`, fractions, an offset (none means UTC, whatever this
 * machine's zone), or epoch seconds or milliseconds. Anything else is null:
 * `Date.parse` alone would read "2" as a date in 2001.
 */
export function isoTime(value: unknown): string | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0) return null;
    return fromDate(new Date(value < EPOCH_MILLISECONDS_FROM ? value * 1000 : value));
  }
  if (typeof value !== 'string') return null;
  const match = DATE_TIME.exec(value.trim());
  if (!match) return null;
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone = 'Z'] = match;
  // Date rolls impossible values over (Feb 30 becomes Mar 1): refuse them instead.
  if (Number(month) < 1 || Number(month) > 12 || Number(day) < 1) return null;
  if (Number(day) > daysIn(Number(year), Number(month))) return null;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return null;
  const millis = fraction.slice(0, 3).padEnd(3, '0');
  const offset =
    zone.toUpperCase() === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.length > 3 ? zone.slice(-2) : '00'}`;
  return fromDate(new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}.${millis}${offset}`));
}

/** The first of the candidates that is a time. */
export function firstIsoTime(...values: unknown[]): string | null {
  for (const value of values) {
    const iso = isoTime(value);
    if (iso) return iso;
  }
  return null;
}

/** A lead's email as contacts are found by it: trimmed, lower-cased; null when it cannot be one. */
export function normalizeEmail(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const email = value.trim().toLowerCase();
  return email.length > 0 && email.length <= 320 && email.includes('@') ? email : null;
}

/** The first candidate that is an email, normalized. */
export function firstEmail(...values: unknown[]): string | null {
  for (const value of values) {
    const email = normalizeEmail(value);
    if (email) return email;
  }
  return null;
}

const email = z.email();
/** A sender address the message schema accepts (`z.email()`), else null: the event is still recorded. */
export function senderEmail(...values: unknown[]): string | null {
  for (const value of values) {
    const normalized = normalizeEmail(value);
    if (normalized && email.safeParse(normalized).success) return normalized;
  }
  return null;
}

/** A LinkedIn profile URL as sent (the matching normalizes it), or null. */
export function linkedinUrl(...values: unknown[]): string | null {
  for (const value of values) {
    if (typeof value === 'string' && value.trim().length > 0) return value.trim().slice(0, 2000);
  }
  return null;
}

/** At most `max` UTF-16 units, without splitting a surrogate pair. */
export function truncate(value: string | null, max: number): string | null {
  if (value === null || value.length <= max) return value;
  const code = value.charCodeAt(max - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
  return value.slice(0, end);
}

/** The first candidate that is text with something in it (providers send "" for absent). */
export function firstText(...values: unknown[]): string | null {
  for (const value of values) {
    if (typeof value === 'string' && value.trim().length > 0) return value;
  }
  return null;
}

/** A provider's id as a string (numbers included), or null. */
export function idString(value: unknown): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'string') {
    const id = value.trim();
    return id.length > 0 && id.length <= 1000 ? id : null;
  }
  return null;
}

export function firstId(...values: unknown[]): string | null {
  for (const value of values) {
    const id = idString(value);
    if (id) return id;
  }
  return null;
}

function integerOf(value: unknown): number | null {
  const number = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : null;
}

/** A 0-based index from a provider's 1-based step or variant number (`2` → 1); null when unknown. */
export function fromOneBased(value: unknown): number | null {
  const number = integerOf(value);
  return number !== null && number >= 1 ? number - 1 : null;
}

/** A 0-based index the provider already sends 0-based; null when unknown. */
export function fromZeroBased(value: unknown): number | null {
  const number = integerOf(value);
  return number !== null && number >= 0 ? number : null;
}

/** An A/B variant letter as a 0-based index (A → 0, B → 1, … Z → 25); null when unknown. */
export function variantFromLetter(value: unknown): number | null {
  if (typeof value !== 'string' || !/^\s*[a-z]\s*$/i.test(value)) return null;
  return value.trim().toUpperCase().charCodeAt(0) - 'A'.charCodeAt(0);
}

/** A message within the service's limits. */
export function message(fields: {
  providerMessageId: string | null;
  stepType: StepType;
  stepIndex?: number | null;
  variantIndex?: number | null;
  subject?: string | null;
  body?: string | null;
  senderEmail?: string | null;
}): ProviderActivityMessage {
  return {
    providerMessageId: fields.providerMessageId,
    stepType: fields.stepType,
    stepIndex: fields.stepIndex ?? null,
    variantIndex: fields.variantIndex ?? null,
    subject: truncate(fields.subject ?? null, MAX_SUBJECT_LENGTH),
    body: truncate(fields.body ?? null, MAX_BODY_LENGTH),
    senderEmail: fields.senderEmail ?? null,
  };
}

export const ignored = (reason: string): MappedPayload => ({ ignored: reason });
export const recorded = (activity: ProviderActivity): MappedPayload => ({ activities: [activity] });

/** A native event type as an `ignored` reason may quote it. */
export const quoted = (type: string): string =>
  type.length > MAX_QUOTED_TYPE_LENGTH ? `${type.slice(0, MAX_QUOTED_TYPE_LENGTH)}…` : type;

export const unsupported = (type: string): MappedPayload => ignored(`unsupported event type ${quoted(type)}`);

/**
 * Why a known native type is not recorded. A connection accepted reads as
 * such, whatever the provider calls it (lemlist's linkedinInviteAccepted,
 * HeyReach's CONNECTION_REQUEST_ACCEPTED), so the unmatched list says it plainly.
 */
export function notRecorded(name: string, why = 'not a provider event the service records'): string {
  return /accepted$/i.test(name)
    ? `connection accepted is not recorded (${name}): ${why}`
    : `${name} is not recorded: ${why}`;
}

/**
 * The name a provider's table gives a native event type, matched without
 * regard to case (HeyReach documents `MESSAGE_SENT` and sends `message_sent`).
 */
export function eventNameIn<Name extends string>(
  table: Readonly<Record<Name, EventOutcome>>,
  type: string,
): Name | undefined {
  const wanted = type.trim().toLowerCase();
  return (Object.keys(table) as Name[]).find((name) => name.toLowerCase() === wanted);
}
