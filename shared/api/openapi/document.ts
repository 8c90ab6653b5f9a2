import * as z from 'zod/mini';
import { READ_ONLY_KEY_MESSAGE } from '#api/http/endpoint.ts';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  MAX_IDEMPOTENCY_KEY,
} from '#definitions/idempotency.ts';
import { API_KEY_HEADER, type RouteDefinition, routes } from '#definitions/routes.ts';
import { buildComponents, type Components, camelCase } from './components.ts';
import { exemplifyParameter } from './examples.ts';
import {
  type CustomOperation,
  type EndpointOperation,
  isEndpointOperation,
  type Json,
  type OperationDescription,
  operations,
  ref,
  TAGS,
} from './operations.ts';
import {
  errorContent,
  FORBIDDEN_RESPONSE,
  GET_HEADERS,
  gatewayResponseComponents,
  gatewayResponsesOf,
  IDEMPOTENCY_KEY_PARAMETER,
  IDEMPOTENT_REPLAYED,
  invalidInput,
  NOT_MODIFIED,
  RATE_LIMIT_HEADERS,
  statusDescription,
  takesIdempotencyKey,
} from './responses.ts';
import { DEPLOYMENT_SERVER_DESCRIPTION, serverParts } from './servers.ts';
import { webhookOperations } from './webhook-operations.ts';

/**
 * The OpenAPI 3.1 document, generated from the route manifest and the zod
 * schemas the handlers validate requests and shape responses with, so it
 * cannot say something the code does not do. Written to docs/openapi.json by
 * `npm run build` (test/unit/openapi.test.ts keeps it equal to a fresh
 * generation), which `GET /openapi.json` serves with the deployment's own URL
 * (servers.ts): generating it at run time would put this generator, every
 * schema and the MCP SDK's into the function. OpenAPI 3.1 schemas are JSON Schema 2020-12, which is what
 * `z.toJSONSchema` emits: responses as the handler's output (`io: 'output'`),
 * request bodies and parameters as what a client may send (`io: 'input'`).
 *
 * Outside tools read it too, and test/unit/openapi-tools.test.ts holds it to
 * them: Redocly's recommended rules, Spectral, and the TypeScript that
 * `openapi-typescript` generates from it (which must compile, with defaulted
 * request fields optional). Hence unique `operationId`s across `paths` and
 * `webhooks`, a `license`, and request bodies under `components.requestBodies`
 * rather than `components.schemas` (see `buildComponents`, ./components.ts).
 */

export const OPENAPI_VERSION = '3.1.1';
/** The interface description's version: the spec gives 1.0.0 for `/public/v1` (`icp_id` deprecated). */
export const API_VERSION = '1.0.0';
/**
 * `info.license`. package.json names no license (the package is private, with
 * no LICENSE file): the code is proprietary, which SPDX expresses as a
 * `LicenseRef-` of the licensor's own.
 */
export const API_LICENSE = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' } as const;

export interface OpenApiDocument {
  openapi: string;
  info: Json;
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, Json>>;
  webhooks: Record<string, { post: Json }>;
  components: {
    schemas: Record<string, Json>;
    requestBodies: Record<string, Json>;
    responses: Record<string, Json>;
    securitySchemes: Record<string, Json>;
  };
}

interface DescribedParameter {
  schema: Json;
  required: boolean;
  description?: string;
}

/**
 * A path or query parameter, from its zod schema. The wire value is a string,
 * which the schema pipes through a transform into, say, an integer with
 * bounds: that integer is what is described, with the default and description
 * given on any wrapper. Where the transform only normalizes (a domain, a
 * date-time), the string is described.
 */
function describeParameter(schema: z.core.$ZodType): DescribedParameter {
  const meta: Json = {};
  let node: z.core.$ZodType = schema;
  let optional = false;
  for (;;) {
    // The outermost metadata wins, as it does for the field itself.
    for (const [key, value] of Object.entries(z.globalRegistry.get(node) ?? {})) {
      if (!(key in meta)) meta[key] = value;
    }
    if (node instanceof z.core.$ZodOptional) {
      optional = true;
      node = node._zod.def.innerType;
    } else if (node instanceof z.core.$ZodPipe) {
      const { in: input, out } = node._zod.def;
      node = out instanceof z.core.$ZodTransform ? input : out;
    } else break;
  }
  const { $schema, ...leaf } = z.toJSONSchema(node, { io: 'input' });
  const { description, id, ...keywords } = meta;
  return {
    schema: { ...leaf, ...keywords },
    required: !optional && !('default' in keywords),
    ...(typeof description === 'string' && { description }),
  };
}

function parameters(
  location: 'path' | 'query',
  schema: z.core.$ZodType | undefined,
  route: RouteDefinition,
): Json[] {
  if (!schema) return [];
  if (!(schema instanceof z.core.$ZodObject)) {
    throw new Error(`The ${location} schema of route ${route.name} is not an object schema`);
  }
  return Object.entries(schema._zod.def.shape).map(([name, field]) => {
    const { schema: described, required, description } = describeParameter(field);
    exemplifyParameter(name, described);
    return {
      name,
      in: location,
      ...(description && { description }),
      required: location === 'path' || required,
      schema: described,
    };
  });
}

/** The names of a manifest path's `{parameters}`. */
const pathParameterNames = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);

function endpointOperation(
  route: RouteDefinition,
  operation: EndpointOperation,
  components: Components,
): Json {
  const { endpoint } = operation;
  const names = pathParameterNames(route.path);
  const shape = endpoint.path instanceof z.core.$ZodObject ? Object.keys(endpoint.path._zod.def.shape) : [];
  if (names.join() !== shape.join()) {
    throw new Error(
      `Route ${route.name}: path ${route.path} has parameters [${names}], its schema [${shape}]`,
    );
  }
  const idempotent = takesIdempotencyKey(route);
  const errors: Record<string, Json> = {};
  const invalid = statusDescription(operation, 400, idempotent, invalidInput(operation));
  if (invalid) errors[400] = { description: invalid, content: errorContent() };
  if (route.auth === 'apiKey') errors[401] = ref('responses', 'Unauthorized');
  if (route.scope === 'read-write') errors[403] = ref('responses', 'Forbidden');
  for (const status of [404, 409, 422] as const) {
    const description =
      status === 404 ? operation.errors?.[status] : statusDescription(operation, status, idempotent);
    if (description) errors[status] = { description, content: errorContent() };
  }
  if (!errors[404] && names.length > 0) errors[404] = ref('responses', 'NoRoute');
  const requestBody = components.requestOf.get(route.name);
  const response = components.responseOf.get(route.name)!;
  const documentedParameters = [
    ...parameters('path', endpoint.path, route),
    ...parameters('query', endpoint.query, route),
    ...(operation.headers ?? []),
    ...(idempotent ? [IDEMPOTENCY_KEY_PARAMETER] : []),
  ];
  return {
    ...describedOperation(route, operation),
    ...(documentedParameters.length > 0 && { parameters: documentedParameters }),
    ...(requestBody && { requestBody: ref('requestBodies', requestBody) }),
    responses: {
      200: {
        description: operation.returns,
        ...(route.auth === 'apiKey' && {
          headers: idempotent
            ? { ...RATE_LIMIT_HEADERS, ...IDEMPOTENT_REPLAYED }
            : { ...RATE_LIMIT_HEADERS, ...(route.method === 'GET' && GET_HEADERS) },
        }),
        content: { 'application/json': { schema: ref('schemas', response) } },
      },
      ...(route.method === 'GET' && { 304: NOT_MODIFIED }),
      ...errors,
      ...gatewayResponsesOf(requestBody !== undefined),
      // The handler's own 502 (a provider it asked could not be reached) says so in place of the gateway's.
      ...(operation.errors?.[502] && {
        502: { description: operation.errors[502], content: errorContent() },
      }),
    },
  };
}

function customOperation(route: RouteDefinition, operation: CustomOperation): Json {
  const names = pathParameterNames(route.path);
  const declared = (operation.parameters ?? [])
    .filter((parameter) => parameter.in === 'path')
    .map((p) => p.name);
  if (names.join() !== declared.join()) {
    throw new Error(
      `Route ${route.name}: path ${route.path} has parameters [${names}], its description [${declared}]`,
    );
  }
  return {
    ...describedOperation(route, operation),
    ...(operation.parameters && { parameters: operation.parameters }),
    ...(operation.requestBody && { requestBody: operation.requestBody }),
    // A status the handler documents itself (the MCP server's 413 and 429, a page's 404) covers the
    // gateway's answer too.
    responses: {
      ...(names.length > 0 && { 404: ref('responses', 'NoRoute') }),
      ...gatewayResponsesOf(operation.requestBody !== undefined),
      ...operation.responses,
    },
  };
}

/** What an API-key operation's description adds about the scope of key it needs. */
const SCOPE_SENTENCE = {
  read: 'Any API key may call it (scope `read` suffices).',
  'read-write': 'It needs an API key of scope `read-write`: a `read` key is 403.',
} as const;

function describedOperation(route: RouteDefinition, operation: OperationDescription): Json {
  const security =
    (!isEndpointOperation(operation) && operation.security) ||
    (route.auth === 'apiKey' ? [{ apiKey: [] }] : []);
  return {
    operationId: camelCase(route.name),
    tags: [operation.tag],
    summary: operation.summary,
    description: route.scope
      ? `${operation.description}\n\n${SCOPE_SENTENCE[route.scope]}`
      : operation.description,
    security,
    ...(route.scope && { 'x-required-scope': route.scope }),
  };
}

/** The method an operation is documented under; an `ANY` route names the one its description covers. */
function documentedMethod(route: RouteDefinition, operation: OperationDescription): string {
  if (route.method !== 'ANY') return route.method.toLowerCase();
  if (isEndpointOperation(operation) || !operation.method) {
    throw new Error(`Route ${route.name} takes any method: its description must name the documented one`);
  }
  return operation.method;
}

function descriptionOf(route: RouteDefinition): OperationDescription {
  const operation = (operations as Record<string, OperationDescription | undefined>)[route.name];
  if (!operation)
    throw new Error(`Route ${route.name} has no OpenAPI description (shared/api/openapi/operations.ts)`);
  return operation;
}

/** Prose for the whole API: what every operation shares, and what the paths alone do not say. */
const INFO_DESCRIPTION = `The outreach-automation API of an organization: campaigns (ICPs) with their provider sequences, qualified accounts with buying signals, contacts and message history; account lookup and exclusion; job openings; raw pushes of contacts into a sequence; replies; analytics; outgoing webhooks; and an MCP server for AI assistants.

## Authentication

Every \`/public/v1\` request carries the organization's API key, \`<ORG_ID>.<SECRET>\`, in the \`${API_KEY_HEADER}\` header (Authorize, on the reference page). A missing or invalid key is 401, and so is a revoked or expired one.

A key has a scope, fixed when it is created: a \`read-write\` key may call every operation, a \`read\` key only those that change nothing. Each operation names the scope it needs in \`x-required-scope\`; a \`read\` key calling a \`read-write\` operation is 403 \`{"message": "${READ_ONLY_KEY_MESSAGE}"}\`, before its request is validated.

## Responses

Success is JSON with status 200. Every error body is \`{"message": string}\`; validation messages name the offending field. Another organization's resource is 404, exactly like one that does not exist. Unknown paths, and methods a path does not have, are 404 \`{"message": "Not found"}\`. Unknown query parameters and body fields are ignored. Timestamps are ISO 8601 UTC with milliseconds; ids are integers below 2^53.

Requests are rate limited per organization (429 with \`Retry-After\`); higher limits are arranged with the operator.

## Retries

Every POST, PATCH and DELETE takes an \`${IDEMPOTENCY_KEY_HEADER}\` header (1–${MAX_IDEMPOTENCY_KEY} printable ASCII characters; a UUID, say) that makes retrying it safe. The same key with the same request (method, path and body) within 24 hours answers the first request's success again, with \`${IDEMPOTENT_REPLAYED_HEADER}: true\`, and does nothing more (no second email, no second subscription). The same key with another request is 422, and while the first request still runs 409. Keys are the organization's. An answer that is not a success is not kept: the key is free again, for the same request or a corrected one.

## MCP server and OAuth

\`POST /mcp\` is a stateless streamable-HTTP MCP server with read-only research tools. It takes OAuth 2.1 bearer tokens, not API keys. A client is created by an operator for one organization (id \`mcp_…\` and secret \`mcs_…\`), registers itself at \`POST /oauth/register\` (RFC 7591), or is named by the https URL of its client ID metadata document; a registered or metadata-document client reaches an organization's data once a person of that organization approves it on the consent page at \`GET /oauth/authorize\`, until the organization revokes it. Tokens come from \`POST /oauth/token\`: the authorization-code flow with PKCE, with refresh tokens rotated on every use, or the client-credentials grant for operator clients. Discovery follows RFC 9728 (\`/.well-known/oauth-protected-resource\`) and RFC 8414 (\`/.well-known/oauth-authorization-server\`). Access tokens last an hour and are bound to the organization, the client and \`{base}/mcp\`.

## Webhooks

Subscriptions receive signed POSTs (Standard Webhooks) for New Opportunities, First Touch and Positive Reply, described in the webhooks section. Any 2xx acknowledges a delivery; failures are retried with backoff for about 28 hours.

## Versioning

The version is in the path prefix \`/public/v1\`. \`icp_id\` in campaign responses is a deprecated alias of \`id\`.`;

/** Throws when two operations, of `paths` or of `webhooks`, share an `operationId` (OpenAPI requires them unique). */
function checkOperationIds(
  paths: Record<string, Record<string, Json>>,
  webhooks: Record<string, { post: Json }>,
): void {
  const seen = new Map<unknown, string>();
  const items = [
    ...Object.entries(paths).map(([path, item]) => [path, item] as const),
    ...Object.entries(webhooks).map(([name, item]) => [`webhook ${name}`, item] as const),
  ];
  for (const [where, item] of items) {
    for (const [method, operation] of Object.entries(item)) {
      const id = operation.operationId;
      const first = seen.get(id);
      if (first) throw new Error(`operationId ${id} of ${method} ${where} is also ${first}’s`);
      seen.set(id, `${method} ${where}`);
    }
  }
}

let cached: { components: Components; manifest: readonly RouteDefinition[] } | undefined;

export interface DocumentOptions {
  /** How `servers` describes the URL (default: this deployment). */
  serverDescription?: string;
  /** The route manifest; a route without a description makes the generator throw. */
  manifest?: readonly RouteDefinition[];
}

/** The document of the deployment reachable at `serverUrl`. */
export function openApiDocument(
  serverUrl: string,
  { serverDescription = DEPLOYMENT_SERVER_DESCRIPTION, manifest = routes }: DocumentOptions = {},
): OpenApiDocument {
  const { servers, mcpOAuth } = serverParts(serverUrl, serverDescription);
  const described = manifest.map((route) => [route, descriptionOf(route)] as const);
  if (cached?.manifest !== manifest) {
    const components = buildComponents(described.map(([route, operation]) => [route.name, operation]));
    cached = { manifest, components };
  }
  const { components } = cached;
  const paths: Record<string, Record<string, Json>> = {};
  for (const [route, operation] of described) {
    const item = paths[route.path] ?? {};
    paths[route.path] = item;
    item[documentedMethod(route, operation)] = isEndpointOperation(operation)
      ? endpointOperation(route, operation, components)
      : customOperation(route, operation);
    // An `ANY` route that takes forms too documents its POST beside its GET, under its own id.
    if (!isEndpointOperation(operation) && operation.post)
      item.post = {
        ...customOperation(route, operation.post),
        operationId: `${camelCase(route.name)}Submit`,
      };
  }
  const webhooks = webhookOperations(components);
  checkOperationIds(paths, webhooks);
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Outreach Campaign Public API',
      version: API_VERSION,
      description: INFO_DESCRIPTION,
      contact: { name: 'The operator of this deployment' },
      license: API_LICENSE,
    },
    servers,
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    security: [{ apiKey: [] }],
    paths,
    webhooks,
    components: {
      schemas: components.schemas,
      requestBodies: components.requestBodies,
      responses: { ...gatewayResponseComponents(), Forbidden: FORBIDDEN_RESPONSE },
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: API_KEY_HEADER,
          description:
            'The organization’s API key, `<ORG_ID>.<SECRET>`, from the dashboard’s API settings; of scope `read` or `read-write` (`x-required-scope` on each operation).',
        },
        mcpOAuth,
        oauthClientBasic: {
          type: 'http',
          scheme: 'basic',
          description: 'An MCP OAuth client’s id and secret (`client_secret_basic`).',
        },
      },
    },
  };
}
