/**
 * The HTTP conventions both gateways (API Gateway as infra/stack.ts builds it, and infra/local/gateway.ts)
 * and the functions' edge (shared/api/http/conventions.ts) apply alike: compression, CORS and the
 * RFC 9457 problem types. One source each, so the deployed stage and the local one cannot drift.
 */

/**
 * Answers at least this large are compressed for a client that accepts it: the REST API's
 * `minimumCompressionSize` (https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-gzip-compression-decompression.html),
 * which the local gateway applies too.
 */
export const MIN_COMPRESSION_BYTES = 1024;

/**
 * The paths any web page may call (CORS with `Access-Control-Allow-Origin: *`, no credentials): OAuth
 * discovery, registration and tokens, and the MCP endpoint, which a browser MCP client must reach. They
 * take a bearer token or nothing, never a cookie, so a page of any origin learns nothing it could not
 * by itself. `/public/v1` is open only to the origins of the deployment's `CORS_ALLOWED_ORIGINS`
 * (docs/deploy.md#cors): a browser holding an API key exposes it.
 */
export const isOpenCorsPath = (path: string): boolean =>
  path.startsWith('/.well-known/') ||
  path === '/oauth/register' ||
  path === '/oauth/token' ||
  path === '/mcp';

/** The prefix of the paths whose CORS is the deployment's list of origins. */
export const PUBLIC_API_PREFIX = '/public/v1/';

/** Request headers a page may send to an open path: those an MCP client sends. */
export const OPEN_CORS_ALLOWED_HEADERS = [
  'authorization',
  'content-type',
  'mcp-protocol-version',
  'mcp-session-id',
  'last-event-id',
] as const;

/** Response headers a page may read on an open path (beyond the CORS-safelisted ones). */
export const OPEN_CORS_EXPOSED_HEADERS = ['WWW-Authenticate', 'Mcp-Session-Id'] as const;

/** Request headers an allowed origin may send to `/public/v1`: the key, a body, a retry's key, a revalidation. */
export const PUBLIC_CORS_ALLOWED_HEADERS = [
  'x-api-key',
  'content-type',
  'idempotency-key',
  'if-none-match',
] as const;

/** Response headers an allowed origin may read on `/public/v1`. */
export const PUBLIC_CORS_EXPOSED_HEADERS = ['ETag', 'Link', 'Retry-After', 'Idempotent-Replayed'] as const;

/**
 * The CORS headers of the gateway's own answers (401, 404, 405, 413, 429, 5xx): any origin may read them,
 * as they hold nothing of any organization's, so a page learns why it was refused rather than a
 * network error.
 */
export const GATEWAY_CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': [...OPEN_CORS_EXPOSED_HEADERS, ...PUBLIC_CORS_EXPOSED_HEADERS].join(', '),
} as const;

/** How long a browser may keep a preflight's answer (seconds). */
export const CORS_MAX_AGE_SECONDS = 600;

/**
 * The CORS headers of an answer (not a preflight's) on `path` to a request from `origin`: `*` on an open
 * path, the origin itself (and `Vary: Origin`) on `/public/v1` when the deployment lists it, else none.
 */
export function corsResponseHeaders(
  path: string,
  origin: string | undefined,
  allowedOrigins: readonly string[],
): Record<string, string> {
  if (isOpenCorsPath(path)) {
    // Only a browser's request names its origin; any other client's answer stays as it was.
    if (!origin) return {};
    return {
      'access-control-allow-origin': '*',
      'access-control-expose-headers': OPEN_CORS_EXPOSED_HEADERS.join(', '),
    };
  }
  if (!path.startsWith(PUBLIC_API_PREFIX) || allowedOrigins.length === 0) return {};
  // The answer depends on the Origin whenever the list is not empty, so a cache must key on it.
  if (!origin || !allowedOrigins.includes(origin)) return { vary: 'Origin' };
  return {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': PUBLIC_CORS_EXPOSED_HEADERS.join(', '),
    vary: 'Origin',
  };
}

/**
 * The answer to a CORS preflight (`OPTIONS` with `Access-Control-Request-Method`) on `path`, whose routes
 * take `methods`: its headers, or null when the path is not open to that origin (the preflight is then
 * answered as any unknown method is, 405, which a browser takes as a refusal).
 */
export function preflightHeaders(
  path: string,
  origin: string | undefined,
  allowedOrigins: readonly string[],
  methods: readonly string[],
): Record<string, string> | null {
  const open = isOpenCorsPath(path);
  const allowed = corsResponseHeaders(path, origin, allowedOrigins)['access-control-allow-origin'];
  if (!allowed) return null;
  return {
    'access-control-allow-origin': allowed,
    'access-control-allow-methods': methods.join(', '),
    'access-control-allow-headers': (open ? OPEN_CORS_ALLOWED_HEADERS : PUBLIC_CORS_ALLOWED_HEADERS).join(
      ', ',
    ),
    'access-control-max-age': String(CORS_MAX_AGE_SECONDS),
    ...(!open && { vary: 'Origin' }),
  };
}

/**
 * The methods a resource takes, as its 405's `Allow` header and its preflight name them: its routes'
 * methods, with HEAD wherever there is a GET (RFC 9110 §9.3.2; the stack gives each GET a HEAD method).
 */
export function allowedMethods(methods: readonly string[]): string[] {
  return [...new Set(methods)].flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method]));
}

/** The gateway's answer to a method the resource does not take (405, with `Allow`). */
export const METHOD_NOT_ALLOWED_MESSAGE = 'Method not allowed';

/**
 * The type of each error status, as RFC 9457 problem details name it: `<base>/docs#errors-<slug>`, the
 * reference page's section on that error (shared/api/openapi/reference-page.ts). A status without a
 * slug is `about:blank` (RFC 9457 §4.2.1). The anchors are a contract of their own: renaming one breaks
 * clients' links.
 */
export const PROBLEM_SLUGS: Readonly<Record<number, string>> = {
  400: 'bad-request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not-found',
  405: 'method-not-allowed',
  409: 'conflict',
  413: 'payload-too-large',
  422: 'unprocessable',
  429: 'too-many-requests',
  500: 'internal-error',
  502: 'bad-gateway',
};

/**
 * The `title` of a problem: its status's reason phrase (RFC 9110 §15). Here rather than node:http's
 * `STATUS_CODES`, whose module every function would load at its cold start.
 */
const TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** A problem's title: the status's reason phrase, or `Error` for a status without one here. */
export const problemTitle = (status: number): string => TITLES[status] ?? 'Error';

/** The path, under the service's base URL, of the reference page's section on errors of a status. */
export const problemTypePath = (status: number): string | undefined => {
  const slug = PROBLEM_SLUGS[status];
  return slug && `/docs#errors-${slug}`;
};

/** The media type of a problem details body (RFC 9457 §3), sent when the request's Accept names it. */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** Whether an `Accept` header asks for problem details (named, with a weight above zero). */
export const acceptsProblemDetails = (accept: string | undefined): boolean =>
  (accept ?? '')
    .toLowerCase()
    .split(',')
    .some((range) => {
      const [type, ...parameters] = range.split(';').map((part) => part.trim());
      return type === PROBLEM_MEDIA_TYPE && !parameters.some((parameter) => /^q=0(?:\.0*)?$/.test(parameter));
    });
