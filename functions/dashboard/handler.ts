import { serveDashboard } from '#api/dashboard/router.ts';
import { defineHttpHandler } from '#api/http/endpoint.ts';

/** The organization dashboard: `/dashboard` and its pages (shared/api/dashboard/router.ts). */
export const handler = defineHttpHandler(serveDashboard);
