import type { IncomingMessage, ServerResponse } from 'node:http';

/** JSON values as the emulators answer them. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** What a handler answers: JSON, plain text (lemlist answers its errors as text), or nothing. */
export interface Reply {
  status: number;
  /** Answered as JSON. */
  body?: JsonValue;
  /** Answered as text/plain (when there is no `body`). */
  text?: string;
  headers?: Record<string, string>;
}

export const json = (status: number, body: JsonValue, headers?: Record<string, string>): Reply => ({
  status,
  body,
  ...(headers ? { headers } : {}),
});
export const text = (status: number, message: string): Reply => ({ status, text: message });
export const empty = (status = 200): Reply => ({ status });

const MAX_BODY_BYTES = 10 * 1024 * 1024;

export class BodyError extends Error {
  override readonly name = 'BodyError';
}

/** The request body as text; a body over 10 MB is refused rather than buffered. */
export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new BodyError('request body too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The body parsed as JSON; an empty body is undefined. Throws BodyError on invalid JSON. */
export function parseJson(raw: string): unknown {
  if (raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new BodyError('request body is not valid JSON');
  }
}

export function send(response: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { ...reply.headers };
  let payload = '';
  if (reply.body !== undefined) {
    payload = JSON.stringify(reply.body);
    headers['content-type'] = 'application/json; charset=utf-8';
  } else if (reply.text !== undefined) {
    payload = reply.text;
    headers['content-type'] = 'text/plain; charset=utf-8';
  }
  headers['content-length'] = String(Buffer.byteLength(payload));
  response.writeHead(reply.status, headers);
  response.end(payload);
}

/**
 * The path parameters when `path` matches `template` (`/campaigns/:campaignId/leads`), else null.
 * Parameters are URL-decoded (lemlist puts the lead's email in the path).
 */
export function matchPath(template: string, path: string): Record<string, string> | null {
  const wanted = template.split('/');
  const actual = path.split('/');
  if (wanted.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (let index = 0; index < wanted.length; index++) {
    const part = wanted[index]!;
    const value = actual[index]!;
    if (part.startsWith(':')) {
      if (value === '') return null;
      try {
        params[part.slice(1)] = decodeURIComponent(value);
      } catch {
        return null;
      }
    } else if (part !== value) {
      return null;
    }
  }
  return params;
}

// Readers of untrusted request bodies: a field of another type reads as absent.

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const stringField = (record: Record<string, unknown>, key: string): string | null => {
  const value = record[key];
  return typeof value === 'string' ? value : null;
};

/** A string or a number as a string (ids that clients send as either). */
export const idField = (record: Record<string, unknown>, key: string): string | null => {
  const value = record[key];
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
};

export const booleanField = (record: Record<string, unknown>, key: string): boolean | null => {
  const value = record[key];
  return typeof value === 'boolean' ? value : null;
};

export const integerParam = (query: URLSearchParams, key: string, fallback: number): number => {
  const raw = query.get(key);
  const value = raw === null ? Number.NaN : Number(raw);
  return Number.isSafeInteger(value) ? value : fallback;
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The address check the providers apply at import (a syntactic one). */
export const isValidEmail = (value: string | null): value is string =>
  value !== null && EMAIL.test(value.trim());

/** A copy of a JSON value as received, detached from the request's object. */
export const copyJson = (value: unknown): unknown => (value === undefined ? null : structuredClone(value));
