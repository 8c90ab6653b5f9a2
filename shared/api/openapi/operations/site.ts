import { REFERENCE_ASSETS } from '#api/openapi/reference-page.ts';
import type { routes } from '#definitions/routes.ts';
import { dashboardOperation, errorResponse, html, json, type OperationDescription, text } from './helpers.ts';

type RouteName = (typeof routes)[number]['name'];

/** The dashboard's pages, the OpenAPI document and the reference page. */
export const siteOperations = {
  dashboard: dashboardOperation('The overview', []),
  'dashboard-page': dashboardOperation('A page, sign-in and sign-out', [
    {
      in: 'path',
      required: true,
      ...text(
        'page',
        'A page (`api-keys`, `webhooks`, `assistant`, `providers`, `approvals`, `settings`, `members`, `audit`, `organizations`), or `sign-in`, `callback`, `sign-out`, `signed-out`.',
      ),
    },
  ]),
  'dashboard-item': dashboardOperation('One item of a page, and the page assets', [
    { in: 'path', required: true, ...text('page', 'The page: `webhooks`, `providers`, or `assets`.') },
    {
      in: 'path',
      required: true,
      ...text('item', 'A webhook or provider connection id, or an asset (`app.css`, `app.js`, `icon.svg`).'),
    },
  ]),
  openapi: {
    tag: 'Reference',
    summary: 'This OpenAPI document',
    description:
      'The OpenAPI 3.1 document of this deployment, generated from the zod schemas that validate requests and shape responses; `servers` names the deployment’s own URL.',
    responses: {
      200: json({ type: 'object', description: 'An OpenAPI 3.1 document.' }, 'The document.'),
    },
  },
  docs: {
    tag: 'Reference',
    summary: 'API reference page',
    description:
      'Swagger UI rendering this document, with "Try it out" against this deployment: enter an API key under Authorize.',
    responses: { 200: html('The reference page.') },
  },
  'docs-asset': {
    tag: 'Reference',
    summary: 'Reference page assets',
    description:
      "Swagger UI's script and styles (from the service's own `swagger-ui-dist` dependency) and the page's initializer.",
    parameters: [
      { in: 'path', required: true, ...text('asset', 'The file name.', { enum: REFERENCE_ASSETS }) },
    ],
    responses: {
      200: {
        description: 'The file.',
        content: {
          'text/javascript': { schema: { type: 'string' } },
          'text/css': { schema: { type: 'string' } },
        },
      },
      404: errorResponse('No asset of this name.'),
    },
  },
} satisfies Partial<Record<RouteName, OperationDescription>>;
