import { READ_ONLY_KEY_MESSAGE } from '#api/http/endpoint.ts';
import { gatewayResponses } from '#definitions/gateway-responses.ts';
import { problemTitle, problemTypePath } from '#definitions/http-conventions.ts';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MALFORMED,
  IDEMPOTENT_METHODS,
  IDEMPOTENT_REPLAYED_HEADER,
  MAX_IDEMPOTENCY_KEY,
} from '#definitions/idempotency.ts';
import { API_KEY_HEADER, type RouteDefinition } from '#definitions/routes.ts';
import { type EndpointOperation, type Json, ref } from './operations.ts';

/**
 * What an operation answers besides its success, and the headers around it:
 * the error bodies, the gateway's own answers every operation can get, the
 * conditional GET, the rate-limit and Idempotency-Key headers.
 */

export const errorContent = (example?: string, status = 500): Json => ({
  'application/json': {
    schema: ref('schemas', 'Error'),
    ...(example !== undefined && {
      example: {
        message: example,
        type: problemTypePath(status) ?? 'about:blank',
        title: problemTitle(status),
        status,
        detail: example,
      },
    }),
  },
  // The same body, as RFC 9457 names its media type, when the request's Accept asks for it.
  'application/problem+json': { schema: ref('schemas', 'Error') },
});

/** The headers of a GET's 200 (#api/http/conventions.ts): its validator, and its neighbour pages for a list. */
export const GET_HEADERS: Json = {
  ETag: {
    description:
      'A weak validator of this answer (a hash of its body); send it as `If-None-Match` to be answered 304 while it is unchanged.',
    schema: { type: 'string' },
  },
  Link: {
    description:
      'On a page of a list (RFC 8288): the absolute URLs of the next and previous pages, `<…>; rel="next", <…>; rel="prev"`, as the body’s own paging fields name them. Absent when there is neither.',
    schema: { type: 'string' },
  },
};

/** A conditional GET's answer while its `If-None-Match` names the current ETag (RFC 9110 §15.4.5). */
export const NOT_MODIFIED: Json = {
  description: 'Not modified: the `If-None-Match` of the request names the current `ETag`. No body.',
  headers: { ETag: { description: 'The current validator.', required: true, schema: { type: 'string' } } },
};

/** The responses the gateway (API Gateway, or the local one) answers with itself, shared by operations. */
export function gatewayResponseComponents(): Record<string, Json> {
  const {
    UNAUTHORIZED,
    REQUEST_TOO_LARGE,
    THROTTLED,
    QUOTA_EXCEEDED,
    AUTHORIZER_FAILURE,
    RESOURCE_NOT_FOUND,
  } = gatewayResponses;
  return {
    NoRoute: {
      description:
        'The path matches no route, the gateway’s own answer: a path parameter with a `/` in it (a URL’s slashes go as `%2F`) or that is not valid percent-encoding.',
      content: errorContent(RESOURCE_NOT_FOUND.message),
    },
    Unauthorized: {
      description: `The \`${API_KEY_HEADER}\` header is missing, or the key is malformed, unknown, revoked or expired.`,
      content: errorContent(UNAUTHORIZED.message, 401),
    },
    PayloadTooLarge: {
      description: 'The request body is over 6 MiB (Lambda’s payload limit).',
      content: errorContent(REQUEST_TOO_LARGE.message, 413),
    },
    TooManyRequests: {
      description:
        'Over the request rate of the stage or of the organization’s plan; higher limits are arranged with the operator.',
      headers: {
        'Retry-After': {
          description: `Seconds to wait before retrying: ${THROTTLED.headers['Retry-After']} when throttled, ${QUOTA_EXCEEDED.headers['Retry-After']} when over a quota.`,
          required: true,
          schema: { type: 'integer', minimum: 1 },
        },
      },
      content: errorContent(THROTTLED.message, 429),
    },
    InternalServerError: {
      description: 'An internal error; the message says nothing more.',
      content: errorContent(AUTHORIZER_FAILURE.message),
    },
    BadGateway: {
      description: 'The function failed to answer (a crash or a timeout).',
      content: errorContent(AUTHORIZER_FAILURE.message, 502),
    },
  };
}

/** The endpoint wrapper's answer to a `read` key on an operation that needs `read-write`. */
export const FORBIDDEN_RESPONSE: Json = {
  description:
    'The API key is read-only (scope `read`) and this operation needs a `read-write` key. It is checked before the request is validated, and nothing is written.',
  content: errorContent(READ_ONLY_KEY_MESSAGE, 403),
};

/** The gateway's responses every operation can get: 413 when it takes a body, 429, 500 and 502. */
export function gatewayResponsesOf(takesBody: boolean): Record<string, Json> {
  return {
    ...(takesBody && { 413: ref('responses', 'PayloadTooLarge') }),
    429: ref('responses', 'TooManyRequests'),
    500: ref('responses', 'InternalServerError'),
    502: ref('responses', 'BadGateway'),
  };
}

/** What a 400 of a validated endpoint says: which inputs it checks, and how its message names the culprit. */
export function invalidInput(operation: EndpointOperation): string | undefined {
  const { path, query, body } = operation.endpoint;
  const kinds = [path && 'path parameter', query && 'query parameter', body && 'body field'].filter(
    (kind): kind is string => typeof kind === 'string',
  );
  if (kinds.length === 0) return undefined;
  return [
    `An invalid ${kinds.join(' or ')}, named in the message (\`Invalid ${kinds[0]} '<name>': …\`)${body ? ', or a body that is not a JSON object' : ''}.`,
    operation.errors?.[400],
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * The organization's rate limit as the IETF RateLimit headers say it (docs/deploy.md#rate-limits):
 * sent by the local gateway, never by API Gateway, whose usage plans expose nothing: optional.
 */
export const RATE_LIMIT_HEADERS: Json = {
  'RateLimit-Policy': {
    description:
      'The organization’s plan: its burst as the quota over the seconds its bucket takes to fill, e.g. `"organization";q=1000;w=2`. Not sent on AWS.',
    schema: { type: 'string' },
  },
  RateLimit: {
    description:
      'What is left of it: requests now, and seconds until the bucket is full, e.g. `"organization";r=997;t=1`. Not sent on AWS.',
    schema: { type: 'string' },
  },
};

/** Whether an operation takes an `Idempotency-Key`: an API-key route whose method may change something. */
export const takesIdempotencyKey = (route: RouteDefinition) =>
  route.auth === 'apiKey' && IDEMPOTENT_METHODS.includes(route.method);

/** The request header of every operation that takes a key (docs/decisions.md, Idempotency-Key). */
export const IDEMPOTENCY_KEY_PARAMETER: Json = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: 'header',
  required: false,
  description: `Makes a retry safe: the same key with the same request (method, path and body) within 24 hours answers the first request’s success again, with \`${IDEMPOTENT_REPLAYED_HEADER}: true\`, and does nothing more. Keys are the organization’s; an answer that is not a success is not kept, so the key may be used again. 1–${MAX_IDEMPOTENCY_KEY} printable ASCII characters (a UUID, say).`,
  schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY, pattern: '^[\\x20-\\x7E]+$' },
};

/** The response header of an answer replayed for an `Idempotency-Key`. */
export const IDEMPOTENT_REPLAYED: Json = {
  [IDEMPOTENT_REPLAYED_HEADER]: {
    description: `\`true\` when this is the answer to an earlier request with the same \`${IDEMPOTENCY_KEY_HEADER}\`, replayed; absent otherwise.`,
    schema: { type: 'string', enum: ['true'] },
  },
};

/** What the statuses of a key's refusals say, after the operation's own. */
const IDEMPOTENCY_ERRORS = {
  400: `An \`${IDEMPOTENCY_KEY_HEADER}\` that is not one (\`${IDEMPOTENCY_KEY_MALFORMED}\`, at \`header.${IDEMPOTENCY_KEY_HEADER}\` in \`errors\`).`,
  409: `A request with this \`${IDEMPOTENCY_KEY_HEADER}\` is still in progress.`,
  422: `This \`${IDEMPOTENCY_KEY_HEADER}\` was used with a different request.`,
} as const;

/** The operation's description of a status, and the key's where the operation takes one. */
export function statusDescription(
  operation: EndpointOperation,
  status: 400 | 409 | 422,
  idempotent: boolean,
  own = operation.errors?.[status],
): string | undefined {
  const key = idempotent ? IDEMPOTENCY_ERRORS[status] : undefined;
  if (own && key) return `${own} Or: ${key}`;
  return own ?? key;
}
