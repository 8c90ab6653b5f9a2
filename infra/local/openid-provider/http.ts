import type { IncomingMessage, ServerResponse } from 'node:http';
import getRawBody from 'raw-body';

/** The request helpers of the provider's own routes (the admin API and the sign-in pages). */

const BODY_LIMIT_BYTES = 16 * 1024;

/** A request body over the limit; answered 413. */
export class BodyTooLarge extends Error {
  override name = 'BodyTooLarge';
}

/** The request body as text, refused past `BODY_LIMIT_BYTES` (read no further). */
export async function readBody(request: IncomingMessage): Promise<string> {
  try {
    return await getRawBody(request, { limit: BODY_LIMIT_BYTES, encoding: 'utf8' });
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large') throw new BodyTooLarge();
    throw error;
  }
}

/** The path and query of the request, read without resolving the path against any host. */
export function requestTarget(request: IncomingMessage): { path: string; query: URLSearchParams } {
  const target = request.url ?? '/';
  const queryStart = target.indexOf('?');
  return queryStart === -1
    ? { path: target, query: new URLSearchParams() }
    : { path: target.slice(0, queryStart), query: new URLSearchParams(target.slice(queryStart + 1)) };
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  response
    .writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      'cache-control': 'no-store',
      ...headers,
    })
    .end(text);
}

export function sendEmpty(response: ServerResponse, status: number) {
  response.writeHead(status, { 'cache-control': 'no-store' }).end();
}
