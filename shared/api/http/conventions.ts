import { createHash } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import {
  acceptsProblemDetails,
  corsResponseHeaders,
  PROBLEM_MEDIA_TYPE,
  problemTitle,
  problemTypePath,
} from '#definitions/http-conventions.ts';
import { configuration } from '#platform/config.ts';
import type { HandlerMiddleware } from '#platform/observability.ts';
import { publicBaseUrl } from './base-url.ts';
import { headerOf } from './request.ts';

/**
 * What every HTTP answer of the service follows, whatever handler made it (docs/architecture.md, HTTP
 * conventions): HEAD is GET without the body (RFC 9110 §9.3.2), error bodies are RFC 9457 problem
 * details next to the contract's own members, and CORS headers where the path is open to the caller's
 * origin. The endpoints' GETs add ETags and Link headers (`conditionalAnswer`, `pageLinks`).
 */

type Answer = APIGatewayProxyResult;
type Headers = NonNullable<Answer['headers']>;

/** The answer's headers with `name` set (any header of that name, in whatever case, replaced). */
function withHeader(headers: Headers | undefined, name: string, value: string): Headers {
  const kept = Object.entries(headers ?? {}).filter(([key]) => key.toLowerCase() !== name);
  return { ...Object.fromEntries(kept), [name]: value };
}

/** The problem type of a status: the reference page's section on it, absolute where the base URL is known. */
function problemType(event: APIGatewayProxyEvent, status: number): string {
  const path = problemTypePath(status);
  if (!path) return 'about:blank';
  try {
    return `${publicBaseUrl(event)}${path}`;
  } catch {
    // An event that names no usable domain (a test's) still gets a reference, relative to the service.
    return path;
  }
}

/** What a body says went wrong: the contract's `message`, OAuth's `error_description` or `error`. */
function detailOf(body: Record<string, unknown>): string | undefined {
  const { message, error_description: description, error } = body;
  if (typeof message === 'string') return message;
  if (typeof description === 'string') return description;
  return typeof error === 'string' ? error : undefined;
}

/**
 * An error answer with the RFC 9457 members added after the body's own (`type`, `title`, `status`,
 * `detail`), as `application/problem+json` when the request's Accept asks for it. Any other answer (a
 * success, an HTML page, a body already a problem) is left as it is.
 */
export function withProblemDetails(event: APIGatewayProxyEvent, answer: Answer): Answer {
  const status = answer.statusCode;
  const contentType = headerOf(answer.headers, 'content-type') ?? '';
  if (status < 400 || !answer.body || answer.isBase64Encoded || !contentType.startsWith('application/json'))
    return answer;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return answer;
  }
  // JSON-RPC's errors (the MCP transport's) keep the shape its clients parse.
  if (!body || typeof body !== 'object' || Array.isArray(body) || 'type' in body || 'jsonrpc' in body)
    return answer;
  const own = body as Record<string, unknown>;
  const detail = detailOf(own);
  const problem = {
    ...own,
    type: problemType(event, status),
    title: problemTitle(status),
    status,
    ...(detail !== undefined && { detail }),
  };
  const headers = acceptsProblemDetails(headerOf(event.headers, 'accept'))
    ? withHeader(answer.headers, 'content-type', PROBLEM_MEDIA_TYPE)
    : answer.headers;
  return { ...answer, headers, body: JSON.stringify(problem) };
}

/** The answer with the CORS headers of its path for the request's origin (definitions/http-conventions.ts). */
function withCors(event: APIGatewayProxyEvent, answer: Answer): Answer {
  const path = event.resource ?? event.path ?? '';
  const cors = corsResponseHeaders(
    path,
    headerOf(event.headers, 'origin'),
    configuration().corsAllowedOrigins ?? [],
  );
  if (Object.keys(cors).length === 0) return answer;
  return { ...answer, headers: { ...answer.headers, ...cors } };
}

/** The requests that came as HEAD, answered as their GET without its body. */
const headRequests = new WeakSet<object>();

/**
 * The conventions as a middy middleware, the first of every HTTP handler's own: its `before` runs
 * first (a HEAD becomes its GET before the scope, validation and the handler see it), its `after`
 * and `onError` last (on the answer as the handler or the error mapping made it).
 */
export const httpConventions = (): HandlerMiddleware<APIGatewayProxyEvent, Answer> => {
  const finish = (request: { event: APIGatewayProxyEvent; response: Answer | null }) => {
    if (!request.response) return;
    const answer = withCors(request.event, withProblemDetails(request.event, request.response));
    // API Gateway sends a HEAD's answer as the function gave it: the body goes here.
    request.response = headRequests.has(request) ? { ...answer, body: '' } : answer;
  };
  return {
    before: (request) => {
      if (request.event.httpMethod !== 'HEAD') return;
      headRequests.add(request);
      request.event = { ...request.event, httpMethod: 'GET' };
    },
    after: finish,
    onError: finish,
  };
};

/**
 * A weak validator of a body: its SHA-256, cut to 128 bits. Weak (RFC 9110 §8.8.1) because API Gateway
 * compresses the answer after the function made it, and a strong one must change with the content coding
 * (docs/decisions.md, ETags).
 */
const etagOf = (body: string): string =>
  `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;

/** Whether `If-None-Match` names the tag (weak comparison, RFC 9110 §13.1.2), or is `*`. */
function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = etag.slice(2);
  return header
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === '*' || tag.replace(/^W\//, '') === opaque);
}

/**
 * A GET's answer with its ETag, or 304 with no body when the request's `If-None-Match` names it
 * (RFC 9110 §13.1.2, §15.4.5: a 304 carries the ETag and the other headers the 200 would).
 */
export function conditionalAnswer(event: APIGatewayProxyEvent, answer: Answer): Answer {
  if (event.httpMethod !== 'GET' || answer.statusCode !== 200) return answer;
  const etag = etagOf(answer.body);
  const headers = { ...answer.headers, etag };
  if (!noneMatch(headerOf(event.headers, 'if-none-match'), etag)) return { ...answer, headers };
  // No body, so nothing for a content type to describe.
  const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'content-type'));
  return { statusCode: 304, headers: kept, body: '' };
}

/** The paging query parameters of a page's neighbour, or null when it has none that way. */
type Neighbour = Record<string, string> | null;

/**
 * The next and previous pages of a list, in each of the contract's four styles, read from the
 * validated query and the answer's body: `skip`/`take` with a `total`; `from`/`take` over a list that
 * is full when there may be more; a numeric `next` cursor that is 0 on the last page; an opaque or
 * numeric `next` that is null on the last page. Cursors go forward only, so they have no `prev`.
 */
function neighbours(query: Record<string, unknown>, body: Record<string, unknown>): [Neighbour, Neighbour] {
  const { skip, take, total, next } = body;
  if (typeof skip === 'number' && typeof take === 'number' && typeof total === 'number') {
    return [
      skip + take < total ? { skip: String(skip + take), take: String(take) } : null,
      skip > 0 ? { skip: String(Math.max(0, skip - take)), take: String(take) } : null,
    ];
  }
  if (typeof query.from === 'number' && typeof query.take === 'number') {
    const { from, take: size } = query;
    const items = Object.values(body).find(Array.isArray);
    return [
      items && items.length >= size ? { from: String(from + size), take: String(size) } : null,
      from > 0 ? { from: String(Math.max(0, from - size)), take: String(size) } : null,
    ];
  }
  if ('next' in body) {
    const more = (typeof next === 'number' && next !== 0) || (typeof next === 'string' && next !== '');
    return [more ? { cursor: String(next) } : null, null];
  }
  return [null, null];
}

/**
 * The `Link` header (RFC 8288) of a page of a list: `rel="next"` and `rel="prev"`, absolute URLs of the
 * same path with the request's other query parameters, next to the body's own paging fields. Undefined
 * for an answer that is no page, or a page with neither neighbour.
 */
export function pageLinks(event: APIGatewayProxyEvent, query: unknown, body: unknown): string | undefined {
  if (!body || typeof body !== 'object' || !query || typeof query !== 'object') return undefined;
  const [next, prev] = neighbours(query as Record<string, unknown>, body as Record<string, unknown>);
  if (!next && !prev) return undefined;
  const path = (event.resource ?? '').replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(event.pathParameters?.[name] ?? ''),
  );
  const link = (parameters: Record<string, string>, rel: string) => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(event.queryStringParameters ?? {}))
      if (value !== undefined && !(name in parameters)) search.set(name, value);
    for (const [name, value] of Object.entries(parameters)) search.set(name, value);
    return `<${publicBaseUrl(event)}${path}?${search}>; rel="${rel}"`;
  };
  return [next && link(next, 'next'), prev && link(prev, 'prev')].filter(Boolean).join(', ');
}
