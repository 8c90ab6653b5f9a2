import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from './wait.ts';

/** One request the receiver got, and how it answered. */
export interface ReceivedRequest {
  path: string;
  /** As Node gives them: names in lower case. */
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
  /** The `webhook-id` header (the same for every attempt of one event). */
  webhookId: string;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:PORT`; subscribe `${url}/ok/…` and the like. */
  url: string;
  /** Every request so far, in arrival order. */
  readonly requests: readonly ReceivedRequest[];
  /** The requests on exactly `path`. */
  on(path: string): ReceivedRequest[];
  /** The requests on paths starting with `prefix`. */
  under(prefix: string): ReceivedRequest[];
  /** Waits until `path` has had at least `count` requests (delivery is asynchronous), and returns them. */
  arrivals(path: string, count: number): Promise<ReceivedRequest[]>;
  /** Makes `/flaky/…` answer 200 from now on. */
  heal(): void;
  stop(): Promise<void>;
}

/**
 * The tests' webhook subscriber: an HTTP server on 127.0.0.1 that keeps every
 * request and answers by path, so one receiver serves every scenario:
 *
 * | path            | answer                                             |
 * | --------------- | -------------------------------------------------- |
 * | `/ok/…`         | 200                                                |
 * | `/fail/N/…`     | 500 the first N times, then 200                    |
 * | `/fail/…`       | 503 always                                         |
 * | `/down/…`       | 503                                                |
 * | `/gone/…`       | 410 Gone                                           |
 * | `/redirect/…`   | 302 to `/ok/after-redirect`                        |
 * | `/slow/…`       | 200 after two seconds (slower than a short timeout) |
 * | `/flaky/…`      | 503 until `heal()`, then 200                       |
 * | anything else   | 204                                                |
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const failuresLeft = new Map<string, number>();
  let healed = false;
  let url = '';
  const statusFor = (path: string): number => {
    const counted = /^\/fail\/(\d+)\//.exec(path);
    if (counted) {
      const left = failuresLeft.get(path) ?? Number(counted[1]);
      failuresLeft.set(path, left - 1);
      return left > 0 ? 500 : 200;
    }
    if (path.startsWith('/fail/') || path.startsWith('/down/')) return 503;
    if (path.startsWith('/gone/')) return 410;
    if (path.startsWith('/redirect/')) return 302;
    if (path.startsWith('/flaky/')) return healed ? 200 : 503;
    if (path.startsWith('/ok/') || path.startsWith('/slow/')) return 200;
    return 204;
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const status = statusFor(path);
      requests.push({
        path,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        status,
        webhookId: String(request.headers['webhook-id']),
      });
      const answer = () =>
        response.writeHead(status, status === 302 ? { location: `${url}/ok/after-redirect` } : {}).end();
      if (path.startsWith('/slow/')) setTimeout(answer, 2000);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const on = (path: string) => requests.filter((request) => request.path === path);
  return {
    url,
    requests,
    on,
    under: (prefix) => requests.filter((request) => request.path.startsWith(prefix)),
    arrivals: (path, count) =>
      waitFor(
        () => {
          const found = on(path);
          if (found.length < count) throw new Error(`${found.length} of ${count} requests on ${path}`);
          return found;
        },
        { what: `${count} requests on ${path}` },
      ),
    heal: () => {
      healed = true;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
