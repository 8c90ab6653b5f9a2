import { httpClientFor } from './http-client.ts';
import { connectLookup, type Resolver, requestUrlRefusal, type UrlPolicy } from './ssrf.ts';

/**
 * Outbound HTTP under the SSRF policy (./ssrf.ts): one webhook attempt (a
 * POST whose status alone counts; the response body is not read, nor logged),
 * and the fetch of a small public document (an OAuth client's metadata
 * document). Both have a deadline, follow no redirect (a 3xx is a failure),
 * reuse no connection, and check the addresses at connect time.
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
const DOCUMENT_USER_AGENT = 'Outreach-OAuth/1.0';

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
  const url = reachableUrl(request.url, request.policy);
  if (typeof url === 'string') {
    return Promise.resolve({ ok: false, statusCode: null, latencyMs: 0, error: url });
  }
  const client = httpClientFor(url);
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
        lookup: connectLookup(url, request.policy, request.resolve),
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

/** The URL when a request may be sent to it under the policy (./ssrf.ts), else why not. */
function reachableUrl(raw: string, policy: UrlPolicy): URL | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'invalid URL';
  }
  const refusal = requestUrlRefusal(url, policy);
  if (refusal === null) return url;
  return refusal.address ? `address refused: ${refusal.reason}` : `refused: ${refusal.reason}`;
}

/** A GET of a small document: where, under which policy, how large it may be and how long it may take. */
export interface DocumentRequest {
  url: string;
  policy: UrlPolicy;
  /** A body over this many bytes is refused (announced or as it arrives). */
  maxBytes: number;
  /** The deadline of the whole exchange, connection and body included. */
  timeoutMs: number;
  /** The resolver used at connect time (tests inject one). */
  resolve?: Resolver;
}

/**
 * The fetched document's body, with its `Cache-Control` header when it had
 * one (the caller decides how long to keep it), or why there is none, in a few words.
 */
export type DocumentResult = { ok: true; body: string; cacheControl?: string } | { ok: false; error: string };

/**
 * GETs a small JSON document; never throws. Only a 200 with a body within
 * `maxBytes` is a document: a redirect is not followed, any other status, a
 * larger body, a refused address or the deadline are failures.
 */
export function getDocument(request: DocumentRequest): Promise<DocumentResult> {
  const target = reachableUrl(request.url, request.policy);
  if (typeof target === 'string') return Promise.resolve({ ok: false, error: target });
  const client = httpClientFor(target);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: DocumentResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      outgoing.destroy();
      resolve(result);
    };
    const outgoing = client.request(
      target,
      {
        method: 'GET',
        agent: false,
        lookup: connectLookup(target, request.policy, request.resolve),
        headers: { accept: 'application/json', 'user-agent': DOCUMENT_USER_AGENT },
      },
      (response) => {
        const statusCode = response.statusCode ?? 0;
        if (statusCode >= 300 && statusCode < 400) {
          finish({ ok: false, error: `refused: a redirect (${statusCode})` });
          return;
        }
        if (statusCode !== 200) {
          finish({ ok: false, error: `status ${statusCode}` });
          return;
        }
        if (Number(response.headers['content-length'] ?? 0) > request.maxBytes) {
          finish({ ok: false, error: `refused: over ${request.maxBytes} bytes` });
          return;
        }
        const chunks: Buffer[] = [];
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > request.maxBytes)
            finish({ ok: false, error: `refused: over ${request.maxBytes} bytes` });
          else chunks.push(chunk);
        });
        const cacheControl = response.headers['cache-control'];
        response.on('end', () =>
          finish({
            ok: true,
            body: Buffer.concat(chunks).toString('utf8'),
            ...(cacheControl === undefined ? {} : { cacheControl }),
          }),
        );
        response.on('error', (error: NodeJS.ErrnoException) =>
          finish({ ok: false, error: describeError(error) }),
        );
      },
    );
    const deadline = setTimeout(() => finish({ ok: false, error: 'timeout' }), request.timeoutMs);
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      finish({ ok: false, error: describeError(error) }),
    );
    outgoing.end();
  });
}
