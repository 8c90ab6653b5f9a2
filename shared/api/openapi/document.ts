import {
  JSONRPCErrorResponseSchema,
  JSONRPCMessageSchema,
  JSONRPCResponseSchema,
  RequestIdSchema,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/mini';
import { READ_ONLY_KEY_MESSAGE } from '#api/http/endpoint.ts';
import { gatewayResponses } from '#definitions/gateway-responses.ts';
import { problemTitle, problemTypePath } from '#definitions/http-conventions.ts';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MALFORMED,
  IDEMPOTENT_METHODS,
  IDEMPOTENT_REPLAYED_HEADER,
  MAX_IDEMPOTENCY_KEY,
} from '#definitions/idempotency.ts';
import { API_KEY_HEADER, type RouteDefinition, routes } from '#definitions/routes.ts';
import { providerConnection, providerConnectionWithWebhookUrl } from '#schemas/provider-connections.ts';
import { checkEligibilityEndpoint, pushContactsEndpoint, rawContact } from '#schemas/raw.ts';
import {
  account,
  analyticsOverview,
  campaignContact,
  campaignContactCounts,
  campaignDetail,
  campaignMessage,
  campaignStats,
  campaignSummary,
  contactFields,
  errorBody,
  job,
  signal,
} from '#schemas/resources.ts';
import {
  firstTouchPayload,
  newOpportunitiesPayload,
  positiveReplyPayload,
  TEST_EVENT_TYPE,
  testPayload,
  type WebhookEventType,
  webhookDelivery,
  webhookSubscription,
  webhookWithSecret,
} from '#schemas/webhooks.ts';
import { COMPONENT_EXAMPLES, exemplify, exemplifyParameter, WEBHOOK_EXAMPLES } from './examples.ts';
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
import { DEPLOYMENT_SERVER_DESCRIPTION, serverParts } from './servers.ts';

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
 * rather than `components.schemas` (see `buildComponents`).
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

interface ComponentMeta {
  id: string;
  description?: string;
}

/** A schema with two strings about it: its component name and description, or its title and `operationId`. */
type DescribedSchema = [z.core.$ZodType, string, string];

/** Named response-side schemas: the API's resources and what else several operations share. */
const RESPONSE_COMPONENTS: DescribedSchema[] = [
  [
    errorBody,
    'Error',
    'The body of every error: a message, naming the offending field when input is invalid. An endpoint’s 4xx adds `errors` (each problem with its path; empty when no single value is at fault) and every endpoint error `request_id` (as in the logs); the gateway’s own answers (401, 429, an unknown route) carry `message` only.',
  ],
  [signal, 'Signal', 'A buying signal with its score.'],
  [
    account,
    'Account',
    'A company with its score and signals (in a campaign, those of its qualification there).',
  ],
  [job, 'Job', 'A job opening; timestamps are ISO 8601 UTC, `status` is `open` or `closed`.'],
  [campaignStats, 'CampaignStats', 'Counts of the campaign’s assignments (contacts) per outcome.'],
  [campaignSummary, 'CampaignSummary', 'A campaign (ICP) with its provider sequences aggregated.'],
  [campaignContactCounts, 'CampaignContactCounts', 'The campaign’s assignments by current status.'],
  [campaignDetail, 'CampaignDetail', 'A campaign with its contact counts.'],
  [contactFields, 'Contact', 'A person.'],
  [campaignContact, 'CampaignContact', 'A contact in one of the campaign’s sequences (an assignment).'],
  [campaignMessage, 'CampaignMessage', 'A message sent, received or forwarded in a campaign’s sequence.'],
  [analyticsOverview, 'AnalyticsOverview', 'Counts over all the organization’s campaigns.'],
  [
    pushContactsEndpoint.response,
    'UpsertResult',
    'What a raw push did: counts, the new assignment ids, skipped contacts with their reasons, and errors.',
  ],
  [
    checkEligibilityEndpoint.response,
    'EligibilityCheckResult',
    'The dry run’s verdicts: one per email, with its reasons, and a summary counting each.',
  ],
  [webhookSubscription, 'WebhookSubscription', 'A webhook subscription; its secret is never shown again.'],
  [webhookWithSecret, 'WebhookSubscriptionWithSecret', 'A subscription with its signing secret (`whsec_…`).'],
  [
    providerConnection,
    'ProviderConnection',
    'A provider connection; its webhook URL to a `read-write` key only, never its API key.',
  ],
  [
    providerConnectionWithWebhookUrl,
    'ProviderConnectionWithWebhookUrl',
    'A provider connection with its webhook URL: what connecting and rotating answer.',
  ],
  [
    webhookDelivery,
    'WebhookDelivery',
    'One delivery of an event to a subscription, as of its latest attempt.',
  ],
  [newOpportunitiesPayload, 'NewOpportunitiesPayload', 'Accounts newly qualified into a campaign.'],
  [firstTouchPayload, 'FirstTouchPayload', 'The first sent message of an assignment.'],
  [positiveReplyPayload, 'PositiveReplyPayload', 'A received message with `response_type: positive`.'],
  [testPayload, 'TestPayload', 'The event `POST /public/v1/webhooks/{id}/test` sends.'],
  [JSONRPCResponseSchema, 'JsonRpcResponse', 'A JSON-RPC 2.0 response (MCP SDK schema).'],
  [
    // The SDK's transport answers a request it cannot read with `"id": null`, as JSON-RPC 2.0 §5 requires,
    // which the SDK's own error schema (id optional, never null) does not allow.
    JSONRPCErrorResponseSchema.extend({ id: RequestIdSchema.nullable() }),
    'JsonRpcTransportError',
    'A JSON-RPC 2.0 error from the MCP transport, about a request it could not take (`id` is null).',
  ],
];

/** Named request-side schemas (parts of requests; the bodies themselves are `components.requestBodies`). */
const REQUEST_COMPONENTS: DescribedSchema[] = [
  [JSONRPCMessageSchema, 'JsonRpcMessage', 'A JSON-RPC 2.0 request or notification (MCP SDK schema).'],
];

/** What a raw push's `contacts` hold, inlined there as `RawContact` (see `buildComponents`). */
const RAW_CONTACT = {
  title: 'RawContact',
  description: 'One contact of a raw push; validated on its own (an invalid one lands in `errors`).',
};

/**
 * The payload of each webhook event type, told apart by `type`, with its
 * title and `operationId`; a new event type must be added here. The ids are
 * the payloads' own: `testWebhook` is the operation that sends the test event.
 */
const WEBHOOK_PAYLOADS: Record<WebhookEventType | typeof TEST_EVENT_TYPE, DescribedSchema> = {
  new_opportunities: [newOpportunitiesPayload, 'New Opportunities', 'newOpportunitiesWebhook'],
  first_touch: [firstTouchPayload, 'First Touch', 'firstTouchWebhook'],
  positive_reply: [positiveReplyPayload, 'Positive Reply', 'positiveReplyWebhook'],
  [TEST_EVENT_TYPE]: [testPayload, 'Test event', 'testWebhookPayload'],
};

const pascalCase = (name: string) =>
  name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
const camelCase = (name: string) => pascalCase(name).replace(/^./, (first) => first.toLowerCase());

/** Registers a schema under `id` unless it is already registered; returns its id. */
function named(registry: z.core.$ZodRegistry<ComponentMeta>, schema: z.core.$ZodType, id: string): string {
  const existing = registry.get(schema);
  if (existing) return existing.id;
  registry.add(schema, { id });
  return id;
}

interface Components {
  schemas: Record<string, Json>;
  requestBodies: Record<string, Json>;
  /** Component names of each route's request body (a request body component) and response (a schema), by route name. */
  requestOf: Map<string, string>;
  responseOf: Map<string, string>;
}

/**
 * Every named schema of the document, generated from two registries: one of
 * responses (`io: 'output'`), one of request bodies (`io: 'input'`). The
 * responses and bodies that are not a named resource are named after their
 * route (`ListCampaignsResponse`, `ReplyToAssignmentRequest`).
 *
 * The request bodies are request body components, each with its schema
 * inline, not schemas: a field with a default is optional in a request
 * (`io: 'input'` leaves it out of `required`), but code generators read a
 * `default` in `components.schemas` as a value always present, as it is in
 * a response (`openapi-typescript`, by default, makes such a field required;
 * under `requestBodies` it does not). For the same reason a raw push's
 * contact (`variables` defaults to `{}`) is inline in the push's body.
 */
function buildComponents(descriptions: [string, OperationDescription][]): Components {
  const output = z.registry<ComponentMeta>();
  const input = z.registry<ComponentMeta>();
  for (const [schema, id, description] of RESPONSE_COMPONENTS) output.add(schema, { id, description });
  for (const [schema, id, description] of REQUEST_COMPONENTS) input.add(schema, { id, description });
  const requestOf = new Map<string, string>();
  const responseOf = new Map<string, string>();
  for (const [name, operation] of descriptions) {
    if (!isEndpointOperation(operation)) continue;
    const { endpoint } = operation;
    responseOf.set(name, named(output, endpoint.response, `${pascalCase(name)}Response`));
    if (endpoint.body) requestOf.set(name, named(input, endpoint.body, `${pascalCase(name)}Request`));
  }
  // A raw push validates each contact on its own, so its body accepts anything in `contacts`;
  // what a client should send there is a RawContact.
  const contactItem = pushContactsEndpoint.body.shape.contacts.def.element;
  const { $schema: _, ...rawContactSchema } = z.toJSONSchema(rawContact, { io: 'input' });
  const generate = (registry: z.core.$ZodRegistry<ComponentMeta>, io: 'input' | 'output') =>
    z.toJSONSchema(registry, {
      io,
      uri: (id) => `#/components/schemas/${id}`,
      override: ({ zodSchema, jsonSchema }) => {
        const description = registry.get(zodSchema)?.description;
        if (description && jsonSchema.description === undefined) jsonSchema.description = description;
        if (zodSchema === contactItem) Object.assign(jsonSchema, RAW_CONTACT, rawContactSchema);
      },
    }).schemas;
  const bodies = new Set(requestOf.values());
  const schemas: Record<string, Json> = {};
  const requestBodies: Record<string, Json> = {};
  for (const [id, schema] of Object.entries({ ...generate(output, 'output'), ...generate(input, 'input') })) {
    if (id === '__shared') throw new Error('A schema without a component name is shared between components');
    if (id in schemas || id in requestBodies) throw new Error(`Two schemas are named ${id}`);
    const { $schema, $id, ...rest } = schema as Json;
    // The MCP SDK's JSON-RPC schemas are the SDK's to describe.
    if (!id.startsWith('JsonRpc')) exemplify(rest, id);
    else if (COMPONENT_EXAMPLES[id]) rest.examples = [COMPONENT_EXAMPLES[id]];
    if (bodies.has(id)) {
      requestBodies[id] = { required: true, content: { 'application/json': { schema: rest } } };
    } else schemas[id] = rest;
  }
  return { schemas, requestBodies, requestOf, responseOf };
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

const errorContent = (example?: string, status = 500): Json => ({
  'application/json': {
    schema: ref('schemas', 'Error'),
    ...(example !== undefined && {
      example: {
        message: example,
        type: problemTypePath(status) ?? 'about:blank',
        title: problemTitle(status),
        status,
        detail: example,
      },
    }),
  },
  // The same body, as RFC 9457 names its media type, when the request's Accept asks for it.
  'application/problem+json': { schema: ref('schemas', 'Error') },
});

/** The headers of a GET's 200 (#api/http/conventions.ts): its validator, and its neighbour pages for a list. */
const GET_HEADERS: Json = {
  ETag: {
    description:
      'A weak validator of this answer (a hash of its body); send it as `If-None-Match` to be answered 304 while it is unchanged.',
    schema: { type: 'string' },
  },
  Link: {
    description:
      'On a page of a list (RFC 8288): the absolute URLs of the next and previous pages, `<…>; rel="next", <…>; rel="prev"`, as the body’s own paging fields name them. Absent when there is neither.',
    schema: { type: 'string' },
  },
};

/** A conditional GET's answer while its `If-None-Match` names the current ETag (RFC 9110 §15.4.5). */
const NOT_MODIFIED: Json = {
  description: 'Not modified: the `If-None-Match` of the request names the current `ETag`. No body.',
  headers: { ETag: { description: 'The current validator.', required: true, schema: { type: 'string' } } },
};

/** The responses the gateway (API Gateway, or the local one) answers with itself, shared by operations. */
function gatewayResponseComponents(): Record<string, Json> {
  const {
    UNAUTHORIZED,
    REQUEST_TOO_LARGE,
    THROTTLED,
    QUOTA_EXCEEDED,
    AUTHORIZER_FAILURE,
    RESOURCE_NOT_FOUND,
  } = gatewayResponses;
  return {
    NoRoute: {
      description:
        'The path matches no route, the gateway’s own answer: a path parameter with a `/` in it (a URL’s slashes go as `%2F`) or that is not valid percent-encoding.',
      content: errorContent(RESOURCE_NOT_FOUND.message),
    },
    Unauthorized: {
      description: `The \`${API_KEY_HEADER}\` header is missing, or the key is malformed, unknown, revoked or expired.`,
      content: errorContent(UNAUTHORIZED.message, 401),
    },
    PayloadTooLarge: {
      description: 'The request body is over 6 MiB (Lambda’s payload limit).',
      content: errorContent(REQUEST_TOO_LARGE.message, 413),
    },
    TooManyRequests: {
      description:
        'Over the request rate of the stage or of the organization’s plan; higher limits are arranged with the operator.',
      headers: {
        'Retry-After': {
          description: `Seconds to wait before retrying: ${THROTTLED.headers['Retry-After']} when throttled, ${QUOTA_EXCEEDED.headers['Retry-After']} when over a quota.`,
          required: true,
          schema: { type: 'integer', minimum: 1 },
        },
      },
      content: errorContent(THROTTLED.message, 429),
    },
    InternalServerError: {
      description: 'An internal error; the message says nothing more.',
      content: errorContent(AUTHORIZER_FAILURE.message),
    },
    BadGateway: {
      description: 'The function failed to answer (a crash or a timeout).',
      content: errorContent(AUTHORIZER_FAILURE.message, 502),
    },
  };
}

/** The endpoint wrapper's answer to a `read` key on an operation that needs `read-write`. */
const FORBIDDEN_RESPONSE: Json = {
  description:
    'The API key is read-only (scope `read`) and this operation needs a `read-write` key. It is checked before the request is validated, and nothing is written.',
  content: errorContent(READ_ONLY_KEY_MESSAGE, 403),
};

/** The gateway's responses every operation can get: 413 when it takes a body, 429, 500 and 502. */
function gatewayResponsesOf(takesBody: boolean): Record<string, Json> {
  return {
    ...(takesBody && { 413: ref('responses', 'PayloadTooLarge') }),
    429: ref('responses', 'TooManyRequests'),
    500: ref('responses', 'InternalServerError'),
    502: ref('responses', 'BadGateway'),
  };
}

/** What a 400 of a validated endpoint says: which inputs it checks, and how its message names the culprit. */
function invalidInput(operation: EndpointOperation): string | undefined {
  const { path, query, body } = operation.endpoint;
  const kinds = [path && 'path parameter', query && 'query parameter', body && 'body field'].filter(
    (kind): kind is string => typeof kind === 'string',
  );
  if (kinds.length === 0) return undefined;
  return [
    `An invalid ${kinds.join(' or ')}, named in the message (\`Invalid ${kinds[0]} '<name>': …\`)${body ? ', or a body that is not a JSON object' : ''}.`,
    operation.errors?.[400],
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * The organization's rate limit as the IETF RateLimit headers say it (docs/deploy.md#rate-limits):
 * sent by the local gateway, never by API Gateway, whose usage plans expose nothing: optional.
 */
const RATE_LIMIT_HEADERS: Json = {
  'RateLimit-Policy': {
    description:
      'The organization’s plan: its burst as the quota over the seconds its bucket takes to fill, e.g. `"organization";q=1000;w=2`. Not sent on AWS.',
    schema: { type: 'string' },
  },
  RateLimit: {
    description:
      'What is left of it: requests now, and seconds until the bucket is full, e.g. `"organization";r=997;t=1`. Not sent on AWS.',
    schema: { type: 'string' },
  },
};

/** Whether an operation takes an `Idempotency-Key`: an API-key route whose method may change something. */
const takesIdempotencyKey = (route: RouteDefinition) =>
  route.auth === 'apiKey' && IDEMPOTENT_METHODS.includes(route.method);

/** The request header of every operation that takes a key (docs/decisions.md, Idempotency-Key). */
const IDEMPOTENCY_KEY_PARAMETER: Json = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: 'header',
  required: false,
  description: `Makes a retry safe: the same key with the same request (method, path and body) within 24 hours answers the first request’s success again, with \`${IDEMPOTENT_REPLAYED_HEADER}: true\`, and does nothing more. Keys are the organization’s; an answer that is not a success is not kept, so the key may be used again. 1–${MAX_IDEMPOTENCY_KEY} printable ASCII characters (a UUID, say).`,
  schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY, pattern: '^[\\x20-\\x7E]+$' },
};

/** The response header of an answer replayed for an `Idempotency-Key`. */
const IDEMPOTENT_REPLAYED: Json = {
  [IDEMPOTENT_REPLAYED_HEADER]: {
    description: `\`true\` when this is the answer to an earlier request with the same \`${IDEMPOTENCY_KEY_HEADER}\`, replayed; absent otherwise.`,
    schema: { type: 'string', enum: ['true'] },
  },
};

/** What the statuses of a key's refusals say, after the operation's own. */
const IDEMPOTENCY_ERRORS = {
  400: `An \`${IDEMPOTENCY_KEY_HEADER}\` that is not one (\`${IDEMPOTENCY_KEY_MALFORMED}\`, at \`header.${IDEMPOTENCY_KEY_HEADER}\` in \`errors\`).`,
  409: `A request with this \`${IDEMPOTENCY_KEY_HEADER}\` is still in progress.`,
  422: `This \`${IDEMPOTENCY_KEY_HEADER}\` was used with a different request.`,
} as const;

/** The operation's description of a status, and the key's where the operation takes one. */
function statusDescription(
  operation: EndpointOperation,
  status: 400 | 409 | 422,
  idempotent: boolean,
  own = operation.errors?.[status],
): string | undefined {
  const key = idempotent ? IDEMPOTENCY_ERRORS[status] : undefined;
  if (own && key) return `${own} Or: ${key}`;
  return own ?? key;
}

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

/** Standard Webhooks headers every delivery carries. */
const WEBHOOK_HEADERS: Json[] = [
  [
    'webhook-id',
    'The event id (`msg_…`): the same on every retry and redelivery; use it to drop duplicates.',
  ],
  ['webhook-timestamp', 'Unix seconds of this attempt.'],
  [
    'webhook-signature',
    '`v1,<base64 HMAC-SHA256>` of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the subscription secret; two, space-separated, for 24 hours after a rotation.',
  ],
].map(([name, description]) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
}));

function webhookOperations(components: Components): Record<string, { post: Json }> {
  return Object.fromEntries(
    Object.entries(WEBHOOK_PAYLOADS).map(([type, [schema, title, operationId]]) => {
      const id = RESPONSE_COMPONENTS.find(([candidate]) => candidate === schema)![1];
      if (!(id in components.schemas)) throw new Error(`Webhook payload ${id} has no component`);
      return [
        type,
        {
          post: {
            operationId,
            tags: ['Webhooks'],
            summary: title,
            description: `What a subscription to \`${type}\` receives${type === TEST_EVENT_TYPE ? ' (any subscription, on request)' : ''}.`,
            parameters: WEBHOOK_HEADERS,
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: ref('schemas', id),
                  example: WEBHOOK_EXAMPLES[type as keyof typeof WEBHOOK_EXAMPLES],
                },
              },
            },
            responses: {
              '2XX': {
                description:
                  'Delivered. Anything else, a redirect or no answer within 15 s is a failed attempt, retried; 410 Gone disables the subscription.',
              },
            },
          },
        },
      ];
    }),
  );
}

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
