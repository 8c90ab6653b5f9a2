import { createServer } from 'node:net';
import { expect } from 'vitest';
import { ProviderApiError, type ProviderHttp, type ProviderResponse } from '#providers/contract.ts';

/**
 * What the per-provider tests against the local emulators
 * (test/integration/provider-<name>.test.ts) share: a ProviderHttp over
 * `fetch` (the connection's transport minus the SSRF policy and pacing), the
 * emulator's control API, a port nothing listens on, and the ProviderApiError
 * a promise rejects with.
 */

/** Requests to `base` + path, the query as given; a connection failure is `unavailable`, as the ProviderHttp contract says. */
export function fetchHttp(base: string): ProviderHttp {
  return async (request) => {
    const url = new URL(`${base.replace(/\/+$/, '')}${request.path}`);
    for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
    let response: Response;
    try {
      response = await fetch(url, {
        method: request.method,
        headers: {
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...request.headers,
        },
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
      });
    } catch {
      throw new ProviderApiError('unavailable', 'the provider could not be reached');
    }
    const text = await response.text();
    const retryAfter = Number(response.headers.get('retry-after'));
    const answer: ProviderResponse = {
      status: response.status,
      retryAfterSeconds:
        response.headers.has('retry-after') && Number.isFinite(retryAfter) ? retryAfter : null,
      body: parsedJson(text),
    };
    return answer;
  };
}

/** The body as JSON, null when empty or not JSON (lemlist answers its errors as plain text), as ProviderResponse says. */
function parsedJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return null;
  }
}

/** The emulator's control API (below `/_emulator/` at the root of the emulator's port), given its API URL. */
export function emulatorControl(apiUrl: () => string) {
  return async <Answer>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<Answer> => {
    const response = await fetch(`${new URL(apiUrl()).origin}/_emulator${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status, `${method} /_emulator${path}`).toBeLessThan(300);
    return (await response.json()) as Answer;
  };
}

/** The ProviderApiError `promise` rejects with (failing the test when it resolves or throws something else). */
export async function caughtProviderError(promise: Promise<unknown>): Promise<ProviderApiError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProviderApiError);
  return error as ProviderApiError;
}

/** A loopback port nothing listens on: taken from the OS, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
