import { defineHttpHandler } from '#api/http/endpoint.ts';
import { serveConsent } from '#api/oauth/consent.ts';

/** The OAuth consent page and its form (shared/api/oauth/consent.ts). */
export const handler = defineHttpHandler(serveConsent);
