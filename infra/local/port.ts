import { createServer } from 'node:net';

/**
 * Fails with EADDRINUSE when `port` is taken on loopback. Node's own modules
 * only: `npm start` checks its port with it before DynamoDB Local's JVM starts.
 */
export function portFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}
