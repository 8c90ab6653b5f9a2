import { httpClientFor } from '#platform/http-client.ts';
import { connectLookup, type Resolver, requestUrlRefusal, type UrlPolicy } from '#platform/ssrf.ts';
import type { ProviderHttp, ProviderRequest, ProviderResponse } from './contract.ts';
import { ProviderApiError } from './contract.ts';

/**
 * The transport of the provider clients: HTTP requests to one connection's
 * API base URL only (the provider's public API, or the `base_url` checked
 * when the connection was made), with the SSRF checks of webhook deliveries
 * at connect time (a name that resolves to a private address is refused),
 * https only (http to loopback in the local stack, for the emulators: every
 * address the name resolves to when the socket connects must be loopback,
 * or the request fails before a byte of it, API key included, is sent), no
 * redirects followed, a deadline, and a bounded response body. It never logs a
 * request: the API key travels in it.
 */

/** How long one provider request may take, connection included. */
export const PROVIDER_REQUEST_TIMEOUT_MS = 20_000;
/** The most of a response body read (the providers' answers to these calls are small). */
const MAX_RESPONSE_BYTES = 1024 * 1024;
const USER_AGENT = 'Outreach-Public-API/1.0';

export interface ProviderHttpOptions {
  policy: UrlPolicy;
  timeoutMs?: number;
  resolve?: Resolver;
  /** Called before each request is sent (the connection's pacing waits here). */
  beforeRequest?: () => Promise<void>;
  /** Sees each request's outcome (metrics and the bench's request counts). */
  onResponse?: (request: ProviderRequest, status: number | null) => void;
}

/** A ProviderHttp for the API at `baseUrl`. */
export function providerHttp(baseUrl: string, options: ProviderHttpOptions): ProviderHttp {
  const base = new URL(baseUrl.replace(/\/+$/, ''));
  return async (request) => {
    await options.beforeRequest?.();
    const url = new URL(`${base.href.replace(/\/+$/, '')}${request.path}`);
    for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
    if (url.host !== base.host) throw new ProviderApiError('refused', 'the request left the provider API');
    try {
      const response = await send(url, request, options);
      options.onResponse?.(request, response.status);
      return response;
    } catch (error) {
      options.onResponse?.(request, null);
      throw error;
    }
  };
}

function send(url: URL, request: ProviderRequest, options: ProviderHttpOptions): Promise<ProviderResponse> {
  const refusal = requestUrlRefusal(url, options.policy);
  if (refusal) {
    return Promise.reject(new ProviderApiError('refused', `provider URL refused: ${refusal.reason}`));
  }
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  const client = httpClientFor(url);
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      reject(new ProviderApiError('unavailable', message));
    };
    const outgoing = client.request(
      url,
      {
        method: request.method,
        agent: false,
        lookup: connectLookup(url, options.policy, options.resolve),
        headers: {
          ...request.headers,
          accept: 'application/json',
          'user-agent': USER_AGENT,
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) {
            response.destroy();
            fail('the provider answered with an oversized body');
            return;
          }
          chunks.push(chunk);
        });
        response.on('error', () => fail('the provider connection failed'));
        response.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(deadline);
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: response.statusCode ?? 0,
            retryAfterSeconds: retryAfterOf(response.headers['retry-after']),
            body: parseJson(text),
          });
        });
      },
    );
    const deadline = setTimeout(() => {
      outgoing.destroy();
      fail('the provider did not answer in time');
    }, options.timeoutMs ?? PROVIDER_REQUEST_TIMEOUT_MS);
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      fail(error.code === 'EADDRREFUSED' ? 'provider address refused' : 'the provider connection failed'),
    );
    outgoing.end(body);
  });
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Seconds of a Retry-After header: a number of seconds, or an HTTP date. */
function retryAfterOf(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}
