import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import {
  classifyAddress,
  guardedLookup,
  isAllowedAddress,
  type Resolver,
  systemResolver,
  type UrlPolicy,
} from './ssrf.ts';

/**
 * One webhook attempt over HTTP: a POST with a deadline, no redirects followed
 * (a 3xx is a failed attempt), no connection reuse, and the SSRF check at
 * connect time. Only the status counts; the response body is not read (nor
 * logged).
 */

/** How long an attempt may take, connection included. */
export const SEND_TIMEOUT_MS = 15_000;

export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  policy: UrlPolicy;
  timeoutMs?: number;
  /** The resolver used at connect time (tests inject one to simulate DNS rebinding). */
  resolve?: Resolver;
}

/** What an attempt came to. */
export interface AttemptResult {
  /** Any 2xx. */
  ok: boolean;
  /** The response status; null when none came. */
  statusCode: number | null;
  latencyMs: number;
  /** Why no response came, in a few words (never a body or a secret). */
  error: string | null;
}

const USER_AGENT = 'Outreach-Webhooks/1.0';

function describeError(error: NodeJS.ErrnoException): string {
  if (error.code === 'EADDRREFUSED') return `address refused: ${error.message}`;
  if (error.code === 'ETIMEDOUT_DEADLINE') return 'timeout';
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return `DNS lookup failed (${error.code})`;
  return error.code ? `connection failed (${error.code})` : 'connection failed';
}

/** Sends one signed attempt; never throws. */
export function postWebhook(request: WebhookRequest): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return Promise.resolve({ ok: false, statusCode: null, latencyMs: 0, error: 'invalid URL' });
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && request.policy.allowLoopback)) {
    return Promise.resolve({ ok: false, statusCode: null, latencyMs: 0, error: 'refused: not https' });
  }
  // An IP literal is connected to without a lookup, so it is checked here.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && !isAllowedAddress(host, request.policy)) {
    return Promise.resolve({
      ok: false,
      statusCode: null,
      latencyMs: 0,
      error: `address refused: the host is a ${classifyAddress(host)} address`,
    });
  }
  if (url.protocol === 'http:' && isIP(host) !== 0 && classifyAddress(host) !== 'loopback') {
    return Promise.resolve({ ok: false, statusCode: null, latencyMs: 0, error: 'refused: not https' });
  }
  const client = url.protocol === 'https:' ? https : http;
  const timeoutMs = request.timeoutMs ?? SEND_TIMEOUT_MS;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<AttemptResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ ...result, latencyMs: elapsed() });
    };
    const outgoing = client.request(
      url,
      {
        method: 'POST',
        agent: false,
        lookup: guardedLookup(
          // http is for loopback only: a name must resolve to loopback, never to a public address.
          url.protocol === 'http:' ? { allowLoopback: true } : request.policy,
          url.protocol === 'http:'
            ? loopbackOnly(request.resolve ?? systemResolver)
            : (request.resolve ?? systemResolver),
        ),
        headers: {
          ...request.headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(request.body)),
          'user-agent': USER_AGENT,
        },
      },
      (response) => {
        const statusCode = response.statusCode ?? 0;
        // The status is all that counts; the body is neither needed nor kept.
        response.destroy();
        finish({ ok: statusCode >= 200 && statusCode < 300, statusCode, error: null });
      },
    );
    const deadline = setTimeout(() => {
      const error = new Error('deadline') as NodeJS.ErrnoException;
      error.code = 'ETIMEDOUT_DEADLINE';
      outgoing.destroy(error);
    }, timeoutMs);
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      finish({ ok: false, statusCode: null, error: describeError(error) }),
    );
    outgoing.end(request.body);
  });
}

/** For http (local stack only): a name must resolve to loopback addresses only. */
function loopbackOnly(resolve: Resolver): Resolver {
  return async (hostname) => {
    const addresses = await resolve(hostname);
    const outside = addresses.find((entry) => classifyAddress(entry.address) !== 'loopback');
    if (outside) {
      const error = new Error(
        `http reaches loopback only, ${hostname} resolves to ${outside.address}`,
      ) as NodeJS.ErrnoException;
      error.code = 'EADDRREFUSED';
      throw error;
    }
    return addresses;
  };
}
