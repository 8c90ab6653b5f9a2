import { publicBaseUrl } from '#api/http/base-url.ts';
import { defineHttpHandler, jsonResponse } from '#api/http/endpoint.ts';
import type { OpenApiDocument } from '#api/openapi/document.ts';
import { DEPLOYMENT_SERVER_DESCRIPTION, withServer } from '#api/openapi/servers.ts';
import committed from '../../docs/openapi.json' with { type: 'json' };

/** The last document served; a deployment is called by one base URL, so one entry serves it. */
let cached: { base: string; document: OpenApiDocument } | undefined;

/**
 * GET /openapi.json — the OpenAPI document the build wrote (docs/openapi.json),
 * naming this deployment's own URL as its server. Public, and readable from
 * any origin (API tools load it).
 */
export const handler = defineHttpHandler(async (event) => {
  const base = publicBaseUrl(event);
  if (cached?.base !== base) {
    cached = {
      base,
      document: withServer(committed as OpenApiDocument, base, DEPLOYMENT_SERVER_DESCRIPTION),
    };
  }
  return jsonResponse(200, cached.document, {
    'cache-control': 'public, max-age=300',
    'access-control-allow-origin': '*',
  });
});
