import type http from 'node:http';
import https from 'node:https';

/**
 * The Node client for a URL's scheme. `node:http` is read with
 * `process.getBuiltinModule` rather than imported: importing it as an ES module
 * evaluates every lazy export it has (undici, http2, worker_threads), about
 * 25 ms of a cold start on Node 24, and plain http is only ever for loopback in
 * the local stack. `node:https` has no such exports (the SDK imports it too).
 */
export const httpClientFor = (url: URL): typeof http | typeof https =>
  url.protocol === 'https:' ? https : process.getBuiltinModule('node:http');
