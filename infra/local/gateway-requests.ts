import type { IncomingMessage, Server } from 'node:http';
import type { Context } from 'aws-lambda';

/**
 * What the local gateway reads of an HTTP request, and what it hands the
 * handler besides the event: the headers and query as
 * API Gateway passes them, the path's segments, the Lambda context.
 */

export const REGION = 'local';
export const ACCOUNT = '000000000000';
export const API_ID = 'local';

export function singleValueHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  return headers;
}

export function queryParameters(url: URL) {
  const names = new Set(url.searchParams.keys());
  if (names.size === 0) return { single: null, multi: null };
  // Built from entries, so a parameter named like an Object.prototype member is just a parameter.
  const multi: Record<string, string[]> = Object.fromEntries(
    [...names].map((name) => [name, url.searchParams.getAll(name)]),
  );
  // API Gateway passes the last value of a repeated parameter.
  const single = Object.fromEntries(Object.entries(multi).map(([name, values]) => [name, values.at(-1)!]));
  return { single, multi };
}

/** A path segment's decoded value; undefined when its percent-encoding is broken. */
export function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * The request target as a URL on this gateway, or null when it is not a path
 * (`//[`, an absolute-form URL): only the path and query are ever read, so
 * the target is never resolved against a host the client names.
 */
export function requestUrl(target: string | undefined): URL | null {
  if (!target?.startsWith('/')) return null;
  try {
    return new URL(`http://gateway${target}`);
  } catch {
    return null;
  }
}

/** `host:port` of the gateway's own listening address: the domain the local stage is served on. */
export function listeningDomain(server: Server): string {
  const address = server.address();
  return typeof address === 'object' && address ? `${address.address}:${address.port}` : 'localhost';
}

export function lambdaContext(functionName: string, requestId: string, timeoutMs: number): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
