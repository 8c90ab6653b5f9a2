/**
 * The tests' one HTTP client for the local stack.
 *
 * - `send(baseUrl, request)`: any request as a client writes it (method, path
 *   and query, headers, body text), redirects not followed; the answer's
 *   status, headers and text.
 * - `apiClient(base, key)`: the public API (`/public/v1`) with an `x-api-key`:
 *   JSON in, `{status, body}` out, so a test can state a whole answer with
 *   `toEqual({status: 404, body: {message: …}})`. The answer's raw `text` and
 *   `headers` are there too, non-enumerable, so they take no part in that
 *   comparison.
 */

export const API_PREFIX = '/public/v1';

/** A request as sent: `url` is the path and query (encoded), relative to the base URL. */
export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
}

export async function send(baseUrl: string, request: HttpRequest): Promise<HttpAnswer> {
  const response = await fetch(`${baseUrl}${request.url}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    redirect: 'manual',
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field; the tests state their shape.
type Json = any;

export interface ApiAnswer<T = Json> {
  status: number;
  /** The parsed JSON body (undefined for an empty one). */
  body: T;
  /** Non-enumerable: the body as received. */
  readonly text: string;
  /** Non-enumerable: the response headers. */
  readonly headers: Headers;
}

export interface ApiCallOptions {
  /** Another key than the client's (or none: `null`). */
  key?: string | null;
  headers?: Record<string, string>;
}

export interface ApiClient {
  /** The base URL, ending in `/public/v1`. */
  readonly baseUrl: string;
  /** A JSON request to `/public/v1{path}`; a string `body` is sent as it is. */
  call<T = Json>(
    method: string,
    path: string,
    body?: unknown,
    options?: ApiCallOptions,
  ): Promise<ApiAnswer<T>>;
  get<T = Json>(path: string, options?: ApiCallOptions): Promise<ApiAnswer<T>>;
  post<T = Json>(path: string, body?: unknown, options?: ApiCallOptions): Promise<ApiAnswer<T>>;
  put<T = Json>(path: string, body?: unknown, options?: ApiCallOptions): Promise<ApiAnswer<T>>;
  patch<T = Json>(path: string, body?: unknown, options?: ApiCallOptions): Promise<ApiAnswer<T>>;
  delete<T = Json>(path: string, options?: ApiCallOptions): Promise<ApiAnswer<T>>;
  /** The same client with another key. */
  as(key: string): ApiClient;
}

/** `base`: a stack (`{apiUrl}`) or a base URL that ends in `/public/v1`. */
export function apiClient(base: string | { apiUrl: string }, key?: string): ApiClient {
  const baseUrl = typeof base === 'string' ? base : `${base.apiUrl}${API_PREFIX}`;
  const call = async <T>(method: string, path: string, body?: unknown, options: ApiCallOptions = {}) => {
    const apiKey = options.key === undefined ? key : options.key;
    const answer = await send(baseUrl, {
      method,
      url: path,
      headers: {
        ...(apiKey !== undefined && apiKey !== null && { 'x-api-key': apiKey }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...options.headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const result = {
      status: answer.status,
      body: (answer.text === '' ? undefined : JSON.parse(answer.text)) as T,
    };
    Object.defineProperties(result, {
      text: { value: answer.text, enumerable: false },
      headers: { value: answer.headers, enumerable: false },
    });
    return result as ApiAnswer<T>;
  };
  return {
    baseUrl,
    call,
    get: (path, options) => call('GET', path, undefined, options),
    post: (path, body, options) => call('POST', path, body, options),
    put: (path, body, options) => call('PUT', path, body, options),
    patch: (path, body, options) => call('PATCH', path, body, options),
    delete: (path, options) => call('DELETE', path, undefined, options),
    as: (other) => apiClient(baseUrl, other),
  };
}
