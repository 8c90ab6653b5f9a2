import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MALFORMED,
  IDEMPOTENT_METHODS,
  IDEMPOTENT_REPLAYED_HEADER,
  isIdempotencyKey,
} from '#definitions/idempotency.ts';
import { MAX_BODY_BYTES } from '#definitions/request-limits.ts';
import type { ApiKeyScope } from '#definitions/routes.ts';
import { DomainError, type DomainErrorKind, type InputField } from '#domain/errors.ts';
import { logger } from '#platform/logger.ts';
import { type HandlerMiddleware, lambdaHandler } from '#platform/observability.ts';
import type { MacSealed } from '#platform/secrets.ts';
import {
  BODY_INPUT,
  type InputLocation,
  type InputProblem,
  PATH_INPUT,
  problemPath,
  problemsOf,
  QUERY_INPUT,
} from '#schemas/issues.ts';
import type { errorBody } from '#schemas/resources.ts';
import { publicBaseUrl } from './base-url.ts';
import { conditionalAnswer, httpConventions, pageLinks } from './conventions.ts';
import {
  BadRequestError,
  HttpError,
  InvalidRequestError,
  PayloadTooLargeError,
  UnauthorizedError,
} from './errors.ts';
import { JSON_TOO_DEEP_MESSAGE, nestsDeeperThan } from './json-depth.ts';
import { bodyText, lowerCaseHeaders } from './request.ts';

/**
 * The endpoint wrapper every API handler is built with: it checks that the
 * caller's API key may call the route (its scope against the manifest's),
 * validates path, query and body against zod schemas, runs the operation with
 * the caller's organization, shapes the result with the response schema, and
 * maps every error to a `{message}` response (with `errors`, every request
 * value at fault, on a 4xx, and the `request_id` of the logs). Handlers stay a
 * few lines long.
 *
 * It parses through the schemas' Standard Schema interface (zod's own parse,
 * with its worded issues), so it imports nothing of zod itself.
 */

/** What validates one part of a request, or shapes a response: an endpoint's zod schema (shared/schemas/endpoint.ts). */
export type PartValidator = z.core.$ZodType;

/** An endpoint's schemas (`EndpointSchemas`). */
export interface ValidatedEndpoint {
  path?: PartValidator;
  query?: PartValidator;
  body?: PartValidator;
  response: PartValidator;
  /** `none` for the few unauthenticated routes; default `apiKey` (the authorizer's organization). */
  auth?: 'apiKey' | 'none';
}

/** What a part's validator outputs. */
type Parsed<T> = T extends z.core.$ZodType ? z.output<T> : undefined;

/** What an operation gives the response's validator to shape. */
type Produced<T> = T extends z.core.$ZodType ? z.input<T> : never;

/** What an operation receives: validated input and the caller's identity. */
export interface EndpointInput<S extends ValidatedEndpoint> {
  orgId: S['auth'] extends 'none' ? undefined : number;
  /**
   * The scope of the caller's key: a `read` key may call the route, yet is not answered what would let
   * it write (a provider connection's webhook URL; docs/decisions.md, Read-only credentials).
   */
  scope: S['auth'] extends 'none' ? undefined : ApiKeyScope;
  path: Parsed<S['path']>;
  query: Parsed<S['query']>;
  body: Parsed<S['body']>;
  /** Request headers with lower-cased names. */
  headers: Record<string, string>;
  requestId: string;
  /** Where the service is reachable (base-url.ts), for resources that carry a URL of it. */
  baseUrl: () => string;
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

const LOCATIONS: Record<InputField['in'], InputLocation> = {
  path: PATH_INPUT,
  query: QUERY_INPUT,
  body: BODY_INPUT,
};

/** The HTTP status of each kind of domain error: the one table that maps them at this edge. */
const STATUS_OF: Record<DomainErrorKind, number> = {
  'not-found': 404,
  invalid: 400,
  conflict: 409,
  refused: 422,
  unavailable: 502,
};

/** A domain error's message as API clients read it, naming the request value at fault (`Invalid body field 'url': …`). */
export function requestErrorMessage(error: DomainError): string {
  const { field } = error;
  return field ? `Invalid ${LOCATIONS[field.in].field} '${field.name}': ${error.message}` : error.message;
}

/** A domain error as this edge answers it: its status, and its message naming the field at fault (its one problem). */
export function httpErrorOf(error: DomainError): HttpError {
  const message = requestErrorMessage(error);
  const { field } = error;
  const problems = field ? [{ path: problemPath(LOCATIONS[field.in], field.name), message }] : [];
  return new HttpError(STATUS_OF[error.kind], message, {}, problems);
}

/** A value as its schema outputs it, or the issues zod words for it (its Standard Schema issues are zod's own). */
async function validated(
  validator: PartValidator,
  value: unknown,
): Promise<{ value: unknown } | { issues: readonly z.core.$ZodIssue[] }> {
  const result = await validator['~standard'].validate(value);
  return result.issues ? { issues: result.issues as readonly z.core.$ZodIssue[] } : { value: result.value };
}

/** Validates one part of the request: its value, or `undefined` with its problems added to `problems`. */
async function check(
  validator: PartValidator,
  value: unknown,
  location: InputLocation,
  problems: InputProblem[],
): Promise<unknown> {
  const result = await validated(validator, value);
  if ('value' in result) return result.value;
  problems.push(...problemsOf(location, result.issues));
  return undefined;
}

/** An operation's result that its response schema refuses: a fault of the service, answered 500. */
export class ResponseMismatchError extends Error {
  override readonly name = 'ResponseMismatchError';
}

/** The response as its schema shapes it. */
async function shapedResponse(validator: PartValidator, result: unknown): Promise<unknown> {
  const shaped = await validator['~standard'].validate(result);
  if (!shaped.issues) return shaped.value;
  const where = shaped.issues.map((issue) => `/${(issue.path ?? []).map(String).join('/')}`);
  throw new ResponseMismatchError(`The response does not match its schema at ${where.join(', ')}`);
}

function parseBody(event: APIGatewayProxyEvent): unknown {
  if (event.body === null || event.body === undefined || event.body === '') {
    throw new BadRequestError('Request body must be a JSON object');
  }
  const text = bodyText(event);
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw new PayloadTooLargeError();
  // Refused before parsing: validation, fingerprints and the marshaller all recurse into the body.
  if (nestsDeeperThan(text)) throw new BadRequestError(JSON_TOO_DEEP_MESSAGE);
  try {
    return JSON.parse(text);
  } catch {
    throw new BadRequestError('Request body is not valid JSON');
  }
}

/**
 * Reads and validates the body: its value, or `undefined` with its problems
 * added to `problems` (a body that cannot be read, missing, too deep or no
 * JSON, is one, at `body`). A body too large is 413 on its own, and one more
 * problem when the path or query failed already (whose 400 it always was).
 */
async function checkBody(
  validator: PartValidator,
  event: APIGatewayProxyEvent,
  problems: InputProblem[],
): Promise<unknown> {
  let value: unknown;
  try {
    value = parseBody(event);
  } catch (error) {
    if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
    const unreadable = { path: BODY_INPUT.root, message: error.message };
    if (error instanceof PayloadTooLargeError && problems.length === 0) {
      throw new HttpError(error.statusCode, error.message, error.headers, [unreadable]);
    }
    problems.push(unreadable);
    return undefined;
  }
  return check(validator, value, BODY_INPUT, problems);
}

/** The request's id: API Gateway's (`requestContext.requestId`), which every log record of it carries, else Lambda's. */
const requestIdOf = (event: APIGatewayProxyEvent, context: Context): string =>
  event.requestContext?.requestId ?? context.awsRequestId;

/** The organization the authorizer resolved, from the request context. */
function organizationOf(event: APIGatewayProxyEvent): number {
  const orgId = Number(event.requestContext?.authorizer?.orgId);
  if (!Number.isSafeInteger(orgId) || orgId <= 0) throw new UnauthorizedError();
  return orgId;
}

/** What a `read` key is told on a route that needs `read-write` (403). */
export const READ_ONLY_KEY_MESSAGE = 'This API key is read-only: this operation needs a read-write key';

/**
 * The scope each API-key route of the manifest needs, by `METHOD path` (the
 * path with its `{parameters}`). Loaded and built when a `read` key first
 * calls (a `read-write` key may call every route): the manifest (6 KiB) is
 * no part of a cold start, and most functions never load it.
 */
let requiredScopes: Promise<Map<string, ApiKeyScope>> | undefined;
const requiredScopesOf = (): Promise<Map<string, ApiKeyScope>> =>
  (requiredScopes ??= import('#definitions/routes.ts').then(
    ({ routes }) =>
      new Map<string, ApiKeyScope>(
        routes.flatMap((route): [string, ApiKeyScope][] =>
          route.auth === 'apiKey' ? [[`${route.method} ${route.path}`, route.scope]] : [],
        ),
      ),
  ));

/**
 * The scope the called route needs. API Gateway and the local gateway both
 * name the matched route in the event (`resource` is its manifest path). An
 * event that names no route of the manifest needs `read-write`: what may write
 * is never guessed downward.
 */
const requiredScopeOf = async (event: APIGatewayProxyEvent): Promise<ApiKeyScope> =>
  (await requiredScopesOf()).get(`${event.httpMethod} ${event.resource}`) ?? 'read-write';

/**
 * The scope of the caller's key, from the authorizer's context. A context
 * without one the authorizer names (a decision cached before keys had scopes)
 * counts as `read`: what a key may do is never guessed upward.
 */
const keyScopeOf = (event: APIGatewayProxyEvent): ApiKeyScope =>
  event.requestContext?.authorizer?.scope === 'read-write' ? 'read-write' : 'read';

/**
 * The caller's organization, once its key may call the route: a `read` key on
 * a route that needs `read-write` is 403. Checked before any input is
 * validated, so a read-only key learns that it cannot write whatever it sent.
 */
async function authorizedOrganizationOf(event: APIGatewayProxyEvent): Promise<number> {
  const orgId = organizationOf(event);
  if (keyScopeOf(event) !== 'read-write' && (await requiredScopeOf(event)) === 'read-write') {
    throw new HttpError(403, READ_ONLY_KEY_MESSAGE);
  }
  return orgId;
}

/** The middlewares of an HTTP handler, on middy. */
type HttpMiddleware = HandlerMiddleware<APIGatewayProxyEvent, APIGatewayProxyResult>;

/**
 * Maps any error to a `{message}` response; unknown errors become an opaque
 * 500. An endpoint's error bodies (`detailed`) carry more after the message:
 * on a 4xx `errors`, the request values at fault (`[]` when the error names
 * none), and on every one the `request_id` its log records carry, for the
 * client to quote. The other handlers (their own formats) keep `{message}`.
 * The service's own rather than @middy/http-error-handler, which answers a
 * plain-text body (the error's message as it is), not the contract's JSON
 * `{message}`, and knows nothing of the domain's errors.
 */
const errorResponses = (detailed: boolean): HttpMiddleware => ({
  onError: (request) => {
    const error: Error | null =
      request.error instanceof DomainError ? httpErrorOf(request.error) : request.error;
    const bodyOf = (statusCode: number, message: string, problems: readonly InputProblem[] = []) => {
      if (!detailed) return { message };
      const requestId = requestIdOf(request.event, request.context);
      // The RFC 9457 members are added to every error body by httpConventions (conventions.ts).
      const body: Omit<z.input<typeof errorBody>, 'type' | 'title' | 'status' | 'detail'> = statusCode < 500
        ? { message, errors: [...problems], request_id: requestId }
        : { message, request_id: requestId };
      return body;
    };
    if (error instanceof HttpError) {
      request.response = jsonResponse(
        error.statusCode,
        bodyOf(error.statusCode, error.message, error.problems),
        error.headers,
      );
      return;
    }
    logger.error('Unhandled error', { errorName: error?.name, stack: error?.stack });
    request.response = jsonResponse(500, bodyOf(500, 'Internal server error'));
  },
});

/** Attaches the request id and organization to every log record of the invocation (injectLambdaContext forgets them at its end). */
const requestLogging = (): HttpMiddleware => ({
  before: (request) => {
    logger.appendKeys({
      requestId: requestIdOf(request.event, request.context),
      orgId: request.event.requestContext?.authorizer?.orgId,
      route: request.event.resource,
    });
  },
});

/** The logging and error mapping every handler is built with (and the middlewares of its own, after them). */
function wrapped(run: ApiHandler, detailedErrors: boolean, own: HttpMiddleware[] = []): ApiHandler {
  return lambdaHandler(run, [httpConventions(), requestLogging(), errorResponses(detailedErrors), ...own]);
}

/**
 * Wraps a handler that speaks its own formats (HTML, forms, JSON-RPC) in the
 * same logging and error mapping as every endpoint: a thrown HttpError becomes
 * its `{message}` response and anything else an opaque 500 (just `{message}`:
 * the `errors` and `request_id` of an endpoint's errors are the API's).
 */
export function defineHttpHandler(run: ApiHandler): ApiHandler {
  return wrapped(run, false);
}

/**
 * The request's `Idempotency-Key` where its method may change something (a GET's is ignored):
 * undefined without one; a malformed one is a problem of the request, named with the others.
 */
function idempotencyKeyOf(
  event: APIGatewayProxyEvent,
  headers: Record<string, string>,
  problems: InputProblem[],
): string | undefined {
  if (!IDEMPOTENT_METHODS.includes(event.httpMethod)) return undefined;
  const key = headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
  if (key === undefined || isIdempotencyKey(key)) return key;
  problems.push({ path: `header.${IDEMPOTENCY_KEY_HEADER}`, message: IDEMPOTENCY_KEY_MALFORMED });
  return undefined;
}

/** A success as sent, and as an `Idempotency-Key` keeps it to replay: its status and its JSON text. */
interface Answer {
  status: number;
  body: string;
}

/** An answer as kept for a route whose answers hold a credential: its JSON text sealed. */
interface SealedAnswer {
  status: number;
  sealed: MacSealed;
}

/**
 * How a route whose answers hold a credential keeps them for `Idempotency-Key` replays: sealed
 * (`credentialAnswers` of #platform/secrets.ts). Its handler passes it, so only the functions that
 * answer credentials reach the key service; every other function's bundle never does.
 */
export interface AnswerSealer {
  seal(plaintext: string, context: Readonly<Record<string, string>>): Promise<MacSealed>;
  open(sealed: MacSealed, context: Readonly<Record<string, string>>): Promise<string>;
}

/** Whether the route answers a credential (its manifest entry's `answersCredential`), from the manifest loaded lazily. */
const answersCredential = async (event: APIGatewayProxyEvent): Promise<boolean> =>
  (await import('#definitions/routes.ts')).routes.some(
    (route) =>
      route.method === event.httpMethod &&
      route.path === event.resource &&
      'answersCredential' in route &&
      route.answersCredential === true,
  );

/** A route whose answers hold a credential, built without a sealer: a fault, so no credential is ever kept in clear. */
export class UnsealedCredentialAnswer extends Error {
  override readonly name = 'UnsealedCredentialAnswer';
}

/** What a sealed answer is bound to: its organization and key, so it opens for no other request. */
const answerContext = (orgId: number, key: string) => ({
  purpose: 'idempotent-answer',
  orgId: String(orgId),
  idempotencyKey: key,
});

/**
 * Runs the request's answer once per `Idempotency-Key` of the organization (#domain/idempotency.ts):
 * the same request again within 24 hours is the first one's answer, marked `Idempotent-Replayed`.
 * Only a success is kept: an error releases the key (docs/decisions.md, Idempotency-Key). An answer
 * that holds a credential (a signing secret, a webhook URL) is kept sealed, never as it was sent:
 * the table holds no provider webhook URL token otherwise, and no credential should sit in it in clear.
 */
async function answeredOnce(
  orgId: number,
  key: string,
  event: APIGatewayProxyEvent,
  parts: { path: unknown; query: unknown; body: unknown },
  sealer: AnswerSealer | undefined,
  answer: () => Promise<Answer>,
): Promise<APIGatewayProxyResult> {
  // Loaded by the requests that name a key only: the others claim and replay nothing.
  const { endpointFingerprint, withIdempotency } = await import('#domain/idempotency.ts');
  const fingerprint = endpointFingerprint(event.httpMethod, event.resource, parts);
  const sealing = await answersCredential(event);
  // Checked before anything runs: a handler that forgot its sealer fails closed.
  if (sealing && !sealer) throw new UnsealedCredentialAnswer(`${event.resource} answers a credential`);
  const context = answerContext(orgId, key);
  let fresh: Answer | undefined;
  const { value, replayed } = await withIdempotency<Answer | SealedAnswer>(
    orgId,
    key,
    fingerprint,
    async () => {
      fresh = await answer();
      return sealing && sealer
        ? { status: fresh.status, sealed: await sealer.seal(fresh.body, context) }
        : fresh;
    },
  );
  let sent: Answer;
  if (!replayed) sent = fresh as Answer;
  else if ('sealed' in value) {
    if (!sealer) throw new UnsealedCredentialAnswer(`${event.resource} kept a sealed answer`);
    sent = { status: value.status, body: await sealer.open(value.sealed, context) };
  } else sent = value;
  const headers = replayed ? { ...JSON_HEADERS, [IDEMPOTENT_REPLAYED_HEADER]: 'true' } : JSON_HEADERS;
  return { statusCode: sent.status, headers, body: sent.body };
}

/** What a route adds to its endpoint's schemas and operation. */
export interface EndpointOptions {
  /** For a route whose manifest entry says `answersCredential`: how its kept answers are sealed. */
  answers?: AnswerSealer;
}

/** The request as the validation middleware leaves it on the context: the operation's input, and its `Idempotency-Key`. */
interface ValidatedRequest<S extends ValidatedEndpoint> {
  input: EndpointInput<S>;
  idempotencyKey: string | undefined;
}

type ValidatedEvent<S extends ValidatedEndpoint> = APIGatewayProxyEvent & { validated?: ValidatedRequest<S> };

/**
 * The endpoint's validation, as a middy middleware: it checks that the
 * caller's key may call the route, validates path, query and body (all of
 * them before answering, so a 400 names every problem of the request), and
 * hands the operation's input to the handler with the event, as middy's
 * body parsers do: on a copy of it, so that no two invocations share what
 * one validated, whoever passed them the same event object.
 */
const requestValidation = <S extends ValidatedEndpoint>(schemas: S): HttpMiddleware => ({
  before: async (request) => {
    const { event, context } = request;
    const orgId = schemas.auth === 'none' ? undefined : await authorizedOrganizationOf(event);
    const problems: InputProblem[] = [];
    const path = schemas.path
      ? await check(schemas.path, event.pathParameters ?? {}, PATH_INPUT, problems)
      : undefined;
    const query = schemas.query
      ? await check(schemas.query, event.queryStringParameters ?? {}, QUERY_INPUT, problems)
      : undefined;
    const body = schemas.body ? await checkBody(schemas.body, event, problems) : undefined;
    const headers = lowerCaseHeaders(event.headers);
    const idempotencyKey = orgId === undefined ? undefined : idempotencyKeyOf(event, headers, problems);
    if (problems.length > 0) throw new InvalidRequestError(problems);
    const input = {
      orgId,
      scope: orgId === undefined ? undefined : keyScopeOf(event),
      path,
      query,
      body,
      headers,
      requestId: requestIdOf(event, context),
      baseUrl: () => publicBaseUrl(event),
    } as EndpointInput<S>;
    request.event = { ...event, validated: { input, idempotencyKey } } as ValidatedEvent<S>;
  },
});

/** Builds a Lambda handler for an API endpoint from its schemas (or their compiled validators) and its operation. */
export function defineEndpoint<S extends ValidatedEndpoint>(
  schemas: S,
  operation: (input: EndpointInput<S>) => Promise<Produced<S['response']>>,
  options: EndpointOptions = {},
): ApiHandler {
  const run = async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
    const { input, idempotencyKey } = (event as ValidatedEvent<S>).validated as ValidatedRequest<S>;
    const orgId = input.orgId as number | undefined;
    if (orgId === undefined || idempotencyKey === undefined) {
      const shaped = await shapedResponse(schemas.response, await operation(input));
      if (event.httpMethod !== 'GET') return jsonResponse(200, shaped);
      // A GET (or a HEAD, its GET by now) of a list links its neighbour pages, and every GET is validated.
      const links = pageLinks(event, input.query, shaped);
      return conditionalAnswer(event, jsonResponse(200, shaped, links ? { link: links } : {}));
    }
    const { path, query, body } = input;
    return answeredOnce(orgId, idempotencyKey, event, { path, query, body }, options.answers, async () => ({
      status: 200,
      body: JSON.stringify(await shapedResponse(schemas.response, await operation(input))),
    }));
  };
  return wrapped(run, true, [requestValidation(schemas)]);
}
