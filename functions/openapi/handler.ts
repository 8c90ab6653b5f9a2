import { publicBaseUrl } from '#api/http/base-url.ts';
import { defineHttpHandler, jsonResponse } from '#api/http/endpoint.ts';
import { openApiDocument } from '#api/openapi/document.ts';

/** The last document served; a deployment is called by one base URL, so one entry serves it. */
let cached: { base: string; document: ReturnType<typeof openApiDocument> } | undefined;

/**
 * GET /openapi.json — the OpenAPI document, naming this deployment's own URL
 * as its server. Public, and readable from any origin (API tools load it).
 */
export const handler = defineHttpHandler(async (event) => {
  const base = publicBaseUrl(event);
  // Generating the document takes milliseconds; a warm function serves it from memory.
  if (cached?.base !== base) cached = { base, document: openApiDocument(base) };
  return jsonResponse(200, cached.document, {
    'cache-control': 'public, max-age=300',
    'access-control-allow-origin': '*',
  });
});
