import * as z from 'zod/mini';
import { type LeadOutcome, type LeadToEnroll, ProviderApiError, type ProviderResponse } from './contract.ts';

/**
 * How every client reads a provider's answer: the status first (one table
 * for all four providers, so a 429 or a bad key means the same thing
 * whoever answered), then the body through a loose zod schema naming only
 * the fields the client reads. Messages name the cause in a few words and
 * never carry the API key, a lead's email or a message body.
 */

export const REFUSED_KEY = 'the provider refused the API key';
export const UNKNOWN_CAMPAIGN = 'the provider campaign does not exist';
export const EMAIL_REQUIRED = 'an email address is required';

/**
 * The leads a provider can take (those with the field it identifies a lead by) and, for the others,
 * their refusal: every client splits a batch this way before sending it.
 */
export function leadsWith<Field extends 'email' | 'linkedinUrl'>(
  leads: readonly LeadToEnroll[],
  field: Field,
  reason: string,
): { sendable: (LeadToEnroll & Record<Field, string>)[]; refused: LeadOutcome[] } {
  const sendable: (LeadToEnroll & Record<Field, string>)[] = [];
  const refused: LeadOutcome[] = [];
  for (const lead of leads) {
    const value = lead[field];
    if (value) sendable.push({ ...lead, [field]: value } as LeadToEnroll & Record<Field, string>);
    else refused.push({ ref: lead.ref, status: 'refused', reason });
  }
  return { sendable, refused };
}

export const isSuccess = (response: ProviderResponse): boolean =>
  response.status >= 200 && response.status < 300;

/**
 * The error a non-2xx status stands for, or null for a 2xx. `notFound` says
 * what a 404 means on this call: most calls name a campaign in their path, so
 * a 404 is that campaign missing.
 */
export function statusError(
  response: ProviderResponse,
  notFound: string = UNKNOWN_CAMPAIGN,
): ProviderApiError | null {
  const { status } = response;
  if (status >= 200 && status < 300) return null;
  if (status === 429) {
    return new ProviderApiError(
      'rate-limited',
      'the provider rate-limited the request',
      429,
      response.retryAfterSeconds,
    );
  }
  if (status >= 500)
    return new ProviderApiError('unavailable', `the provider failed (HTTP ${status})`, status);
  if (status === 401 || status === 403) return new ProviderApiError('refused', REFUSED_KEY, status);
  if (status === 404) return new ProviderApiError('refused', notFound, status);
  return new ProviderApiError('refused', `the provider refused the request (HTTP ${status})`, status);
}

/**
 * Throws when the provider refused the API key itself (401 or 403, or a status of `statuses`), named
 * for the person who typed it: `Smartlead refused this API key (401)`. The credential check and the
 * campaign listing use it, so a connection's key is refused in the same words whichever asked.
 */
export function expectKeyAccepted(
  providerName: string,
  response: ProviderResponse,
  statuses: readonly number[] = [401, 403],
): void {
  if (statuses.includes(response.status)) {
    throw new ProviderApiError(
      'refused',
      `${providerName} refused this API key (${response.status})`,
      response.status,
    );
  }
}

/** The offset a campaign cursor stands for: a `next` the listing answered (digits), 0 for the first page. */
export function offsetCursor(cursor: string | null): number {
  if (cursor === null) return 0;
  if (!/^\d{1,9}$/.test(cursor)) throw new ProviderApiError('refused', 'the campaign cursor is not valid');
  return Number(cursor);
}

/** Throws the status's error unless the answer is a 2xx. */
export function expectSuccess(response: ProviderResponse, notFound?: string): void {
  const error = statusError(response, notFound);
  if (error) throw error;
}

/**
 * The body parsed with `schema`. A 2xx whose body is not what the
 * documentation shows is the provider misbehaving, not a refusal of this
 * request: `unavailable`, so it is tried again later.
 */
export function readBody<Schema extends z.core.$ZodType>(
  response: ProviderResponse,
  schema: Schema,
  what: string,
): z.infer<Schema> {
  const parsed = z.safeParse(schema, response.body);
  if (!parsed.success) {
    throw new ProviderApiError(
      'unavailable',
      `unexpected answer from the provider to ${what}`,
      response.status,
    );
  }
  return parsed.data;
}

/** A provider id (numbers included) as the service keeps it: a string. */
export const idText = (id: string | number): string => String(id);

/** The request's non-empty text fields only: providers store "" and null as values, not as absent. */
export function presentFields(fields: Record<string, string | null | undefined>): Record<string, string> {
  const present: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string' && value.length > 0) present[name] = value;
  }
  return present;
}

export const sameEmail = (left: string | null | undefined, right: string | null | undefined): boolean =>
  typeof left === 'string' &&
  typeof right === 'string' &&
  left.trim().toLowerCase() === right.trim().toLowerCase();
