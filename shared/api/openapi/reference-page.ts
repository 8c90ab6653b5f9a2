import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { NotFoundError } from '#api/http/errors.ts';
import { PROBLEM_SLUGS, problemTitle } from '#definitions/http-conventions.ts';
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

/** What each error status means, in the reference page's section that problem types point to. */
const ERROR_MEANINGS: Record<number, string> = {
  400: 'The request is malformed or a value fails validation; <code>errors</code> names each value at fault.',
  401: 'The API key (or bearer token) is missing, malformed, unknown, revoked or expired.',
  403: 'The credential may not do this: a <code>read</code> key on an operation that writes.',
  404: 'No such resource in your organization, or no such path.',
  405: 'The path does not take this method; <code>Allow</code> lists those it takes.',
  409: 'The request conflicts with the resource’s state, or an <code>Idempotency-Key</code> is in use.',
  413: 'The request body is larger than the service accepts.',
  422: 'The request is understood but refused by a rule of the service; the message says which.',
  429: 'Too many requests; wait for <code>Retry-After</code> seconds.',
  500: 'A fault of the service; quote <code>request_id</code> when asking about it.',
  502: 'A function or a provider could not answer; try again later.',
};

/**
 * The page's section on errors: one anchor per status (`#errors-not-found`), which the `type` of every
 * problem details body points to (RFC 9457; shared/definitions/http-conventions.ts).
 */
const errorSections = (): string =>
  Object.entries(PROBLEM_SLUGS)
    .map(
      ([status, slug]) =>
        `<section id="errors-${slug}"><h3>${status} ${problemTitle(Number(status))}</h3><p>${ERROR_MEANINGS[Number(status)] ?? ''}</p></section>`,
    )
    .join('\n');

/** The errors section, a landmark of its own, each problem `type` of an error body (`/docs#errors-<slug>`) in it. */
const errorsSection = (): string =>
  `<section id="errors" aria-labelledby="errors-heading"><h2 id="errors-heading">Errors</h2>
<p>Every error body has <code>message</code> and the RFC 9457 members <code>type</code> (a link to its section below), <code>title</code>, <code>status</code> and <code>detail</code>; send <code>Accept: application/problem+json</code> to have it labelled so.</p>
${errorSections()}
</section>`;

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
<div class="reference-sections">${[errorsSection(), ...REFERENCE_SECTIONS].join('\n')}</div>
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
