import { publicBaseUrl } from '#api/http/base-url.ts';
import { defineHttpHandler } from '#api/http/endpoint.ts';
import { referenceAsset, referencePage } from '#api/openapi/reference-page.ts';

/** GET /docs — the API reference page; GET /docs/{asset} — its script and styles. */
export const handler = defineHttpHandler(async (event) => {
  const base = publicBaseUrl(event);
  const asset = event.pathParameters?.asset;
  return asset === undefined ? referencePage(base) : referenceAsset(asset, base);
});
