import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { openApiDocument } from '#api/openapi/document.ts';
import type { Json } from '#api/openapi/operations.ts';
import { gatewayResponses } from '#definitions/gateway-responses.ts';
import { routes } from '#definitions/routes.ts';
import type { GatewayExchange } from '../../infra/local/gateway.ts';

/**
 * The contract check of the end-to-end tests: every response the local
 * gateway sends, success or error, its own or a handler's, must be one the
 * OpenAPI document describes for that operation: a documented status, the
 * documented media type, a body valid against the documented schema (ajv,
 * JSON Schema 2020-12) and the documented required headers. So the document
 * cannot drift from the code. `startTestStack` records every exchange; the e2e
 * setup file fails the test during which a violation happened.
 *
 * A HEAD is checked as its GET's operation without the body (status and headers).
 * Three kinds of response are not an operation's, each checked by its own rule:
 * - a CORS preflight the gateway answers itself (204, no body, its Allow-Methods);
 * - no route matched: the gateway's own answer (unknown path or method, a body
 *   over the limit before routing, a failure), which must be one of its
 *   `{message}` responses (info.description says so in prose);
 * - a method an `ANY` route does not document: `/mcp` answers 405 `{message}`
 *   itself, as its POST operation's description says (OpenAPI cannot describe
 *   an operation that never succeeds).
 */

const document = openApiDocument('http://127.0.0.1');
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(document, 'openapi');

const validators = new Map<string, ValidateFunction>();
/** The compiled schema at a JSON pointer into the document. */
function validatorAt(pointer: string): ValidateFunction {
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `openapi#${pointer}` });
    validators.set(pointer, validate);
  }
  return validate;
}

const pointerSegment = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
const pointerOf = (...segments: string[]) =>
  segments.map((segment) => `/${pointerSegment(segment)}`).join('');

/** Statuses the gateway answers by itself, from its response definitions (and a failure's 500, a method's 405). */
const GATEWAY_STATUSES = new Set([
  500,
  405,
  ...Object.values(gatewayResponses).flatMap((response) =>
    response.statusCode === null ? [] : [response.statusCode],
  ),
]);

/** A response header by name, whatever its case (`Headers` looks names up case-insensitively; repeated values are joined). */
function header(exchange: GatewayExchange, name: string): string | undefined {
  const headers = new Headers();
  for (const [key, value] of Object.entries(exchange.headers))
    for (const item of [value].flat()) headers.append(key, item);
  return headers.get(name) ?? undefined;
}

/** Follows a response's `$ref` to its component, returning it with its pointer. */
function resolveResponse(response: Json, pointer: string): { response: Json; pointer: string } {
  const reference = response.$ref;
  if (typeof reference !== 'string') return { response, pointer };
  const name = reference.replace('#/components/responses/', '');
  return {
    response: document.components.responses[name]!,
    pointer: pointerOf('components', 'responses', name),
  };
}

/** Checks the body against the media types of `content`; `schemaAt` points to a media type's schema. */
function checkBody(
  exchange: GatewayExchange,
  content: Record<string, Json> | undefined,
  schemaAt: (mediaType: string) => string,
): string[] {
  if (!content) return exchange.body === '' ? [] : ['a body where the document describes none'];
  const mediaType = header(exchange, 'content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!(mediaType in content)) {
    return [
      `content-type ${mediaType || '(none)'} where the document has ${Object.keys(content).join(', ')}`,
    ];
  }
  if (mediaType !== 'application/json' && mediaType !== 'application/problem+json') return [];
  let body: unknown;
  try {
    body = JSON.parse(exchange.body);
  } catch {
    return ['a body that is not JSON'];
  }
  const validate = validatorAt(schemaAt(mediaType));
  return validate(body) ? [] : [`a body the schema refuses: ${ajv.errorsText(validate.errors)}`];
}

function checkHeaders(exchange: GatewayExchange, response: Json): string[] {
  const headers = (response.headers ?? {}) as Record<string, Json>;
  return Object.entries(headers)
    .filter(([name, definition]) => definition.required === true && !header(exchange, name))
    .map(([name]) => `no ${name} header`);
}

/** A `{message}` answer outside any operation: the gateway's own, or a method an `ANY` route refuses. */
const checkErrorBody = (exchange: GatewayExchange) =>
  checkBody(exchange, { 'application/json': {}, 'application/problem+json': {} }, () =>
    pointerOf('components', 'schemas', 'Error'),
  );

/** What is wrong with one exchange, by the document; empty when nothing is. */
export function contractViolations(exchange: GatewayExchange): string[] {
  if (!exchange.routePath) {
    // A CORS preflight, which the gateway answers itself (OpenAPI describes no OPTIONS operation).
    if (exchange.method === 'OPTIONS' && exchange.status === 204) {
      return exchange.body === '' && header(exchange, 'access-control-allow-methods')
        ? []
        : ['a preflight answer with a body or no Access-Control-Allow-Methods'];
    }
    if (!GATEWAY_STATUSES.has(exchange.status)) return [`status ${exchange.status} from the gateway itself`];
    if (exchange.method === 'HEAD') return exchange.body === '' ? [] : ['a body in the answer to a HEAD'];
    return checkErrorBody(exchange);
  }
  // A HEAD is its GET's operation without the body (RFC 9110 §9.3.2), as OpenAPI 3.1 leaves it implicit.
  const head = exchange.method === 'HEAD';
  if (head && exchange.body !== '') return ['a body in the answer to a HEAD'];
  const asMethod = head ? 'GET' : exchange.method;
  const route = routes.find(
    (candidate) =>
      candidate.path === exchange.routePath && (candidate.method === asMethod || candidate.method === 'ANY'),
  );
  if (!route) return [`no route ${exchange.method} ${exchange.routePath} in the manifest`];
  const method = asMethod.toLowerCase();
  const operation = document.paths[route.path]?.[method];
  if (!operation) {
    if (route.method === 'ANY' && exchange.status === 405) return head ? [] : checkErrorBody(exchange);
    return [`no operation ${method} ${route.path} in the document`];
  }
  const responses = operation.responses as Record<string, Json>;
  const documented = responses[String(exchange.status)];
  if (!documented) {
    return [
      `status ${exchange.status}, which the document does not list (${Object.keys(responses).join(', ')})`,
    ];
  }
  const { response, pointer } = resolveResponse(
    documented,
    pointerOf('paths', route.path, method, 'responses', String(exchange.status)),
  );
  return [
    ...(head
      ? []
      : checkBody(
          exchange,
          response.content as Record<string, Json> | undefined,
          (mediaType) => `${pointer}${pointerOf('content', mediaType, 'schema')}`,
        )),
    ...checkHeaders(exchange, response),
  ];
}

const violations: string[] = [];

/** Checks an exchange and keeps what is wrong with it for `takeViolations`. */
export function recordExchange(exchange: GatewayExchange): void {
  for (const violation of contractViolations(exchange)) {
    violations.push(
      `${exchange.method} ${exchange.path} → ${exchange.status}: ${violation}; body ${exchange.body.slice(0, 300)}`,
    );
  }
}

/** The violations recorded since the last call. */
export function takeViolations(): string[] {
  return violations.splice(0);
}
