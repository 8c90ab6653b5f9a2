import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { NotFoundError } from '#api/http/errors.ts';
import { SWAGGER_UI_FILES } from '#definitions/swagger-ui.ts';
import { escapeHtml } from '#platform/html.ts';
import { REFERENCE_STYLE } from './reference-style.ts';

/**
 * The API reference page at `GET /docs`: Swagger UI from the project's own
 * `swagger-ui-dist` dependency (no CDN), rendering `GET /openapi.json`, with
 * "Try it out" against the same deployment and an API key typed into its
 * Authorize dialog. The page's script and styles are served under `/docs/`.
 */

const JAVASCRIPT = 'text/javascript; charset=utf-8';
const MEDIA_TYPES: Record<string, string> = { '.js': JAVASCRIPT, '.css': 'text/css; charset=utf-8' };

/** Swagger UI's files by the name `/docs/{asset}` serves them under, with their package path and media type. */
const DIST_ASSETS = new Map(
  SWAGGER_UI_FILES.map((file) => {
    const name = file.slice(file.lastIndexOf('/') + 1);
    return [name, { file, contentType: MEDIA_TYPES[name.slice(name.lastIndexOf('.'))]! }];
  }),
);

/** The page's own script, which starts Swagger UI; a file rather than inline, so the page's CSP forbids inline scripts. */
const INITIALIZER = 'swagger-initializer.js';
/** The page's own styles over Swagger UI's (reference-style.ts). */
const OWN_STYLE = 'reference.css';

/** Every name `GET /docs/{asset}` serves. */
export const REFERENCE_ASSETS = [...DIST_ASSETS.keys(), INITIALIZER, OWN_STYLE];

/**
 * Sections of plain HTML shown on the page under the rendered reference, each
 * an `<section id="…">` so that a URL `/docs#<id>` lands on it (the problem
 * types of error bodies, say). Trusted markup written in this repository,
 * never a request's text. Write each as `<section id="…" aria-labelledby="…">`
 * starting with its `<h2>` (the id of the labelling heading): a labelled
 * section is a landmark, as axe wants all content to be in (rule `region`),
 * and an `<h2>` keeps the headings in order under the page's `<h1>`.
 */
export const REFERENCE_SECTIONS: readonly string[] = [];

const distCache = new Map<string, string>();

/** A file of the package, resolved as Node resolves it: from the project locally, from the bundle's `node_modules/` on Lambda. */
function packageFile(file: string): string {
  let text = distCache.get(file);
  if (text === undefined) {
    text = readFileSync(createRequire(import.meta.url).resolve(file), 'utf8');
    distCache.set(file, text);
  }
  return text;
}

/** The page may load script, styles and data only from this deployment (and its public base URL). */
function contentSecurityPolicy(base: string): string {
  const sources = `'self' ${new URL(base).origin}`;
  return [
    "default-src 'none'",
    `script-src ${sources}`,
    // Swagger UI sets style attributes on the elements it renders.
    `style-src ${sources} 'unsafe-inline'`,
    `img-src ${sources} data:`,
    `font-src ${sources} data:`,
    `connect-src ${sources}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** `GET /docs`: the reference page of the deployment at `base`. */
export function referencePage(base: string): APIGatewayProxyResult {
  const asset = (name: string) => escapeHtml(`${base}/docs/${name}`);
  return {
    statusCode: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      'content-security-policy': contentSecurityPolicy(base),
      'x-content-type-options': 'nosniff',
    },
    body: `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Outreach Campaign Public API reference</title>
<link rel="icon" href="${escapeHtml(`${base}/dashboard/assets/icon.svg`)}">
<link rel="stylesheet" href="${asset('swagger-ui.css')}">
<link rel="stylesheet" href="${asset(OWN_STYLE)}">
</head>
<body>
<header class="reference-header"><a class="reference-brand" href="${escapeHtml(`${base}/dashboard`)}">Outreach</a><span>API reference</span></header>
<h1 class="visually-hidden">Outreach Campaign Public API reference</h1>
<div id="swagger-ui"></div>
<div class="reference-sections">${REFERENCE_SECTIONS.join('\n')}</div>
<script src="${asset('swagger-ui-bundle.js')}"></script>
<script src="${asset(INITIALIZER)}"></script>
</body>
</html>
`,
  };
}

/**
 * Names Swagger UI gets wrong, fixed as it renders (it renders again on every
 * expansion and dialog): the server picker's <label> wraps the select with no
 * text (axe select-name, critical), the dialog's close button is an icon with
 * no name (button-name, critical), and the dialog's "Authorize" buttons are
 * named "Apply credentials", which a voice-control user saying what they see
 * cannot reach (label-content-name-mismatch, serious): their text names them.
 */
const ACCESSIBLE_NAMES = `
const named = { '#servers': 'Server', '.close-modal': 'Close the dialog' };
const name = () => {
  for (const [selector, label] of Object.entries(named))
    for (const element of document.querySelectorAll(selector))
      if (element.getAttribute('aria-label') !== label) element.setAttribute('aria-label', label);
  for (const button of document.querySelectorAll('.auth-btn-wrapper .authorize[aria-label]')) button.removeAttribute('aria-label');
};
new MutationObserver(name).observe(document.getElementById('swagger-ui'), { childList: true, subtree: true });
`;

/** Starts Swagger UI on the document of the deployment at `base`; nothing is fetched from elsewhere. */
function initializer(base: string): string {
  const options = {
    url: `${base}/openapi.json`,
    dom_id: '#swagger-ui',
    // A deep link is an <a> inside each operation's summary button, which axe
    // refuses (nested-interactive, serious): without it the path is plain text.
    deepLinking: false,
    filter: true,
    displayRequestDuration: true,
    // Swagger UI would otherwise send the document to validator.swagger.io for a badge.
    validatorUrl: null,
  };
  return `window.ui = SwaggerUIBundle(${JSON.stringify(options)});\n${ACCESSIBLE_NAMES}`;
}

/** `GET /docs/{asset}`: Swagger UI's script and styles, and the page's initializer; any other name is 404. */
export function referenceAsset(name: string, base: string): APIGatewayProxyResult {
  const headers = { 'x-content-type-options': 'nosniff' };
  if (name === INITIALIZER) {
    return {
      statusCode: 200,
      headers: { ...headers, 'content-type': JAVASCRIPT, 'cache-control': 'no-cache' },
      body: initializer(base),
    };
  }
  if (name === OWN_STYLE) {
    return {
      statusCode: 200,
      headers: { ...headers, 'content-type': MEDIA_TYPES['.css']!, 'cache-control': 'no-cache' },
      body: REFERENCE_STYLE,
    };
  }
  const asset = DIST_ASSETS.get(name);
  if (!asset) throw new NotFoundError(`Asset ${name} not found`);
  return {
    statusCode: 200,
    headers: { ...headers, 'content-type': asset.contentType, 'cache-control': 'public, max-age=86400' },
    body: packageFile(asset.file),
  };
}
