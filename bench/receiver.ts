import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The webhook subscribers' side: an HTTP server on 127.0.0.1 that answers
 * every delivery with 204 and counts them by path prefix (nothing else is
 * kept, so it does not grow during long runs).
 */
export interface Receiver {
  url: string;
  /** Requests received on paths starting with `prefix`. */
  count(prefix: string): number;
  /** Resolves once `count(prefix)` reaches `expected`; rejects after `timeoutMs`. */
  waitFor(prefix: string, expected: number, timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const counts = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const path = request.url ?? '/';
      counts.set(path, (counts.get(path) ?? 0) + 1);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const count = (prefix: string) =>
    [...counts].reduce((total, [path, value]) => (path.startsWith(prefix) ? total + value : total), 0);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    count,
    async waitFor(prefix, expected, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (count(prefix) < expected) {
        if (Date.now() > deadline) throw new Error(`${count(prefix)} of ${expected} deliveries on ${prefix}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
