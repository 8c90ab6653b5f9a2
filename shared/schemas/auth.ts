import '#definitions/zod-english.ts';
import * as z from 'zod/mini';
import type { EndpointSchemas } from './endpoint.ts';

// Each schema is built in a pure-annotated closure: a bundle keeps only those its function uses
// (esbuild cannot tell that zod's builders have no side effects; docs/architecture.md, Bundles).

/** GET /public/v1/auth */
export const authEndpoint = /* @__PURE__ */ (() =>
  ({
    response: z.object({ signed_in: z.boolean() }),
  }) satisfies EndpointSchemas)();
