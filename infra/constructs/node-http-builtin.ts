import type { Plugin } from 'esbuild';

/** `node:http` (or `http`) as a bundled dependency names it. */
const NODE_HTTP = /^(node:)?http$/;
const NAMESPACE = 'node-http-builtin';

/**
 * The bundled AWS SDK imports `node:http` with `import()` when an endpoint is
 * plain http (DynamoDB Local and the local queues: the local stack and the
 * bench). Importing it as an ES module makes Node build its module facade,
 * which reads every lazy export `node:http` has and so loads undici: about
 * 40 ms of the first request on Node 24 (bench/report.md), for a client no
 * function uses. This resolves `node:http` to a module that takes it from
 * `process.getBuiltinModule` instead, as shared/platform/http-client.ts does
 * for the project's own code. On AWS every endpoint is https, which the SDK
 * imports itself; a name this module does not export fails the build.
 */
export const nodeHttpBuiltin: Plugin = {
  name: NAMESPACE,
  setup(build) {
    build.onResolve({ filter: NODE_HTTP }, () => ({ path: 'node:http', namespace: NAMESPACE }));
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, () => ({
      contents: `const http = process.getBuiltinModule('node:http');
export default http;
export const { Agent, ClientRequest, IncomingMessage, OutgoingMessage, Server, ServerResponse, STATUS_CODES, METHODS, createServer, get, request, globalAgent, validateHeaderName, validateHeaderValue } = http;`,
      loader: 'js',
    }));
  },
};
