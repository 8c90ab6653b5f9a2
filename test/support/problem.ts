import { expect } from 'vitest';
import { PROBLEM_SLUGS, problemTitle } from '#definitions/http-conventions.ts';

/**
 * The error body an answer of `status` with `message` has: the contract's `{message}` (with `request_id`
 * where the service or the gateway names one, and whatever `extra` an endpoint adds, its `errors`) and
 * the RFC 9457 members, its `type` the reference page's section on the status.
 */
export function problemBody(status: number, message: string, extra: Record<string, unknown> = {}) {
  return {
    message,
    request_id: expect.any(String),
    ...extra,
    type: PROBLEM_SLUGS[status]
      ? expect.stringMatching(new RegExp(`/docs#errors-${PROBLEM_SLUGS[status]}$`))
      : 'about:blank',
    title: problemTitle(status),
    status,
    detail: message,
  };
}

/**
 * A body as the contract had it before RFC 9457 (its `message`, `errors`, `request_id`), once its problem
 * members are checked: `status` the answer's, `title` its reason phrase, `detail` its message, a `type`.
 */
export function contractMembers(statusCode: number, text: string): Record<string, unknown> {
  const body = JSON.parse(text) as Record<string, unknown>;
  if (statusCode < 400) return body;
  const { type, title, status, detail, ...own } = body;
  expect({ type, title, status, detail }).toEqual({
    type: expect.any(String),
    title: problemTitle(statusCode),
    status: statusCode,
    detail: own.message ?? expect.anything(),
  });
  return own;
}
