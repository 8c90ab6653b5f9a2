import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { z } from 'zod';
import { MAX_BODY_BYTES } from '#definitions/request-limits.ts';
import { DomainError, type DomainErrorKind, type InputField } from '#domain/errors.ts';
import { logger } from '#platform/logger.ts';
import { observability } from '#platform/observability.ts';
import type { EndpointSchemas } from '#schemas/endpoint.ts';
import { BadRequestError, HttpError, PayloadTooLargeError, UnauthorizedError } from './errors.ts';
import { JSON_TOO_DEEP_MESSAGE, nestsDeeperThan } from './json-depth.ts';

/**
 * The endpoint wrapper every API handler is built with: it validates path,
 * query and body against zod schemas, runs the operation with the caller's
 * organization, shapes the result with the response schema, and maps every
 * error to a `{message}` response. Handlers stay a few lines long.
 */

type Parsed<T> = T extends z.ZodType ? z.output<T> : undefined;

/** What an operation receives: validated input and the caller's identity. */
export interface EndpointInput<S extends EndpointSchemas> {
  orgId: S['auth'] extends 'none' ? undefined : number;
  path: Parsed<S['path']>;
  query: Parsed<S['query']>;
  body: Parsed<S['body']>;
  /** Request headers with lower-cased names. */
  headers: Record<string, string>;
  requestId: string;
}

export type ApiHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** A JSON response with the given status. */
export function jsonResponse(
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): APIGatewayProxyResult {
  return { statusCode, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

/** Where a validated value came from: how a field of it, and the whole of it, are named in messages. */
interface InputLocation {
  field: string;
  whole: string;
}

const PATH: InputLocation = { field: 'path parameter', whole: 'path parameters' };
const QUERY: InputLocation = { field: 'query parameter', whole: 'query string' };
const BODY: InputLocation = { field: 'body field', whole: 'request body' };
const LOCATIONS: Record<InputField['in'], InputLocation> = { path: PATH, query: QUERY, body: BODY };

/** The HTTP status of each kind of domain error: the one table that maps them at this edge. */
const STATUS_OF: Record<DomainErrorKind, number> = {
  'not-found': 404,
  invalid: 400,
  conflict: 409,
  refused: 422,
};

/** A domain error as this edge answers it: its status, and its message naming the field at fault. */
export function httpErrorOf(error: DomainError): HttpError {
  const { field } = error;
  const message = field
    ? `Invalid ${LOCATIONS[field.in].field} '${field.name}': ${error.message}`
    : error.message;
  return new HttpError(STATUS_OF[error.kind], message);
}

/** Formats the first zod issue as a message naming the offending field. */
export function describeIssue(location: InputLocation, error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return `Invalid ${location.whole}`;
  const name = issue.path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
  return name
    ? `Invalid ${location.field} '${name}': ${issue.message}`
    : `Invalid ${location.whole}: ${issue.message}`;
}

/** Describes why one item of a batch (a pushed contact) is invalid, naming its field. */
export const describeContactIssue = (error: z.ZodError): string => describeIssue(BODY, error);

function validate<T extends z.ZodType>(schema: T, value: unknown, location: InputLocation): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new BadRequestError(describeIssue(location, result.error));
  return result.data;
}

function lowerCaseHeaders(headers: APIGatewayProxyEvent['headers']): Record<string, string> {
  const lowered: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value !== undefined) lowered[name.toLowerCase()] = value;
  }
  return lowered;
}

function parseBody(event: APIGatewayProxyEvent): unknown {
  if (event.body === null || event.body === undefined || event.body === '') {
    throw new BadRequestError('Request body must be a JSON object');
  }
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw new PayloadTooLargeError();
  // Refused before parsing: validation, fingerprints and the marshaller all recurse into the body.
  if (nestsDeeperThan(text)) throw new BadRequestError(JSON_TOO_DEEP_MESSAGE);
  try {
    return JSON.parse(text);
  } catch {
    throw new BadRequestError('Request body is not valid JSON');
  }
}

/** The organization the authorizer resolved, from the request context. */
function organizationOf(event: APIGatewayProxyEvent): number {
  const orgId = Number(event.requestContext?.authorizer?.orgId);
  if (!Number.isSafeInteger(orgId) || orgId <= 0) throw new UnauthorizedError();
  return orgId;
}

/** Maps any error to a `{message}` response; unknown errors become an opaque 500. */
const errorResponses = (): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  onError: (request) => {
    const error = request.error instanceof DomainError ? httpErrorOf(request.error) : request.error;
    if (error instanceof HttpError) {
      request.response = jsonResponse(error.statusCode, { message: error.message }, error.headers);
      return;
    }
    logger.error('Unhandled error', { errorName: error?.name, stack: error?.stack });
    request.response = jsonResponse(500, { message: 'Internal server error' });
  },
});

/** Attaches the request id and organization to every log record of the invocation. */
const requestLogging = (): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  before: (request) => {
    logger.resetKeys();
    logger.appendKeys({
      requestId: request.event.requestContext?.requestId ?? request.context.awsRequestId,
      orgId: request.event.requestContext?.authorizer?.orgId,
      route: request.event.resource,
    });
  },
});

/**
 * Wraps a handler that speaks its own formats (HTML, forms, JSON-RPC) in the
 * same logging and error mapping as every endpoint: a thrown HttpError becomes
 * its `{message}` response and anything else an opaque 500.
 */
export function defineHttpHandler(run: ApiHandler): ApiHandler {
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
    .use(observability())
    .use(requestLogging())
    .use(errorResponses())
    .handler(run) as ApiHandler;
}

/** Builds a Lambda handler for an API endpoint from its schemas and domain operation. */
export function defineEndpoint<S extends EndpointSchemas>(
  schemas: S,
  operation: (input: EndpointInput<S>) => Promise<z.input<S['response']>>,
): ApiHandler {
  const run = async (event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> => {
    const orgId = schemas.auth === 'none' ? undefined : organizationOf(event);
    const input = {
      orgId,
      path: schemas.path ? validate(schemas.path, event.pathParameters ?? {}, PATH) : undefined,
      query: schemas.query ? validate(schemas.query, event.queryStringParameters ?? {}, QUERY) : undefined,
      body: schemas.body ? validate(schemas.body, parseBody(event), BODY) : undefined,
      headers: lowerCaseHeaders(event.headers),
      requestId: event.requestContext?.requestId ?? context.awsRequestId,
    } as EndpointInput<S>;
    const result = await operation(input);
    return jsonResponse(200, schemas.response.parse(result));
  };
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
    .use(observability())
    .use(requestLogging())
    .use(errorResponses())
    .handler(run) as ApiHandler;
}
