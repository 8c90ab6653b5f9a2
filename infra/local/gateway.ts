import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import getRawBody from 'raw-body';
import type { GatewayResponseType } from '#definitions/gateway-responses.ts';
import {
  allowedMethods,
  METHOD_NOT_ALLOWED_MESSAGE,
  preflightHeaders,
  problemTitle,
  problemTypePath,
} from '#definitions/http-conventions.ts';
import type { Throttle } from '#definitions/rate-limits.ts';
import { MAX_BODY_BYTES } from '#definitions/request-limits.ts';
import { API_KEY_HEADER, AUTHORIZER_CACHE_TTL_SECONDS, type RouteDefinition } from '#definitions/routes.ts';
import { compressed } from './compression.ts';
import { type Answer, asProblem, gatewayAnswer, malformation, refusal } from './gateway-answers.ts';
import { type AuthorizerOutcome, allows } from './gateway-policies.ts';
import {
  ACCOUNT,
  API_ID,
  decodeSegment,
  lambdaContext,
  listeningDomain,
  queryParameters,
  REGION,
  requestUrl,
  singleValueHeaders,
} from './gateway-requests.ts';
import { rateLimitHeaders, TokenBuckets } from './token-buckets.ts';

/**
 * A local stand-in for API Gateway's REST API, built from the route manifest:
 * it matches routes, runs the REQUEST authorizer the way API Gateway does
 * (identity source, result cache, 401 on a missing or rejected key, context to
 * the handler), turns each request into a REST proxy event, invokes the
 * handler in-process and maps its result back to HTTP. It throttles as the
 * deployed stage does: a bucket per client address first (the WAF rate rule
 * in front of the deployed stage), a stage-wide bucket before the authorizer,
 * then the bucket of the usage plan the authorizer's usage identifier key
 * belongs to. Whatever a request looks like, the gateway answers it with a
 * status and a `{message}` body; no request can make it throw. Whatever a
 * handler answers, the client gets an answer too: a result that is no valid
 * Lambda proxy response (a header value with CR or LF, a body that is no
 * string, a status that is no HTTP status) is API Gateway's 502
 * `{"message":"Internal server error"}`, its cause logged, never a dropped
 * connection.
 *
 * This module routes, throttles, authorizes and invokes; what it reads of a
 * request is ./gateway-requests.ts, what it answers ./gateway-answers.ts,
 * and how it evaluates an authorizer's policy ./gateway-policies.ts.
 */

export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
export type AuthorizerHandler = (
  event: APIGatewayRequestAuthorizerEvent,
) => Promise<APIGatewayAuthorizerResult>;

export interface LocalRoute extends RouteDefinition {
  invoke: ProxyHandler;
}

/** Throttling as the deployed API applies it (shared/definitions/rate-limits.ts). */
export interface GatewayThrottling {
  /** Each client address, before anything else (the deployed stage's WAF rate rule). */
  clientAddress: Throttle;
  stage: Throttle;
  /** The throttle of the usage plan a usage identifier key is in (API Gateway's usage plans). */
  usagePlanOf(usageIdentifierKey: string): Promise<Throttle>;
}

/** One request and the response the gateway sent for it. */
export interface GatewayExchange {
  method: string;
  /** The matched route's manifest path (`/public/v1/campaigns/{id}`), null when no route matched. */
  routePath: string | null;
  path: string;
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
}

export interface GatewayOptions {
  routes: LocalRoute[];
  authorizer: AuthorizerHandler;
  stage?: string;
  /** Absent: nothing is throttled. */
  throttling?: GatewayThrottling;
  /** Sees every response the gateway sends, its own and the handlers' (tests check them against the contract). */
  onResponse?: (exchange: GatewayExchange) => void;
  /**
   * How long an authorizer decision is cached per key: the deployed TTL unless a test shortens it to
   * watch a revoked key stop working without waiting five minutes.
   */
  authorizerCacheSeconds?: number;
  /**
   * Requests wait for this before they are handled: the stack's work on a new table (the demo seed)
   * runs before the table's stream is on, when no request may write.
   */
  heldUntil?: Promise<unknown>;
  /**
   * How long a handler has, from its invocation: API Gateway's 29-second integration timeout by default
   * (the handlers time out just before it, as on Lambda). Tests give a loaded machine longer.
   */
  invocationTimeoutMs?: number;
  /**
   * Where the gateway reports why it answered a 5xx of its own (a handler that threw or answered a
   * malformed result, a failure while writing), as API Gateway's execution log does: stderr unless a
   * test keeps the lines. The lines name the route and the cause, never a request's or response's values.
   */
  log?: (line: string) => void;
  /** The origins that may call `/public/v1` from a browser (CORS_ALLOWED_ORIGINS); none by default. */
  corsAllowedOrigins?: readonly string[];
}

/** API Gateway's integration timeout, which bounds every proxied function's run. */
const INTEGRATION_TIMEOUT_MS = 29_000;

/** The route whose handler runs in the current async context. */
const invocations = new AsyncLocalStorage<string>();

/**
 * The manifest name of the route whose handler is running (in this async
 * context): tests attribute the AWS calls a request makes to its function.
 */
export const runningRoute = (): string | undefined => invocations.getStore();

interface CompiledRoute extends LocalRoute {
  pattern: RegExp;
  parameterNames: string[];
}

function compile(route: LocalRoute): CompiledRoute {
  const parameterNames: string[] = [];
  const source = route.path
    .split('/')
    .map((segment) => {
      const parameter = /^\{(\w+)\}$/.exec(segment);
      if (!parameter) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      parameterNames.push(parameter[1]!);
      return '([^/]+)';
    })
    .join('/');
  return { ...route, pattern: new RegExp(`^${source}/?$`), parameterNames };
}

/** Starts the local gateway on `port` (0 picks a free one). */
export function startGateway(options: GatewayOptions, port: number, host = '127.0.0.1'): Promise<Server> {
  const stage = options.stage ?? 'local';
  const compiled = options.routes.map(compile);
  const authorizerCache = new Map<string, { outcome: AuthorizerOutcome; expiresAt: number }>();
  const buckets = new TokenBuckets();
  const STAGE_BUCKET = ' stage'; // not a usage identifier key, which never contains a space

  async function authorize(
    apiKey: string,
    event: APIGatewayRequestAuthorizerEvent,
  ): Promise<AuthorizerOutcome> {
    const cached = authorizerCache.get(apiKey);
    if (cached && cached.expiresAt > Date.now()) return cached.outcome;
    let outcome: AuthorizerOutcome;
    try {
      const result = await options.authorizer(event);
      outcome = {
        kind: 'policy',
        principalId: result.principalId,
        policy: result.policyDocument,
        context: (result.context ?? {}) as Record<string, string | number | boolean>,
        usageIdentifierKey: result.usageIdentifierKey ?? null,
      };
    } catch (error) {
      outcome = (error as Error).message === 'Unauthorized' ? { kind: 'unauthorized' } : { kind: 'failure' };
    }
    // API Gateway caches returned policies and the Unauthorized verdict, never a failure.
    if (outcome.kind !== 'failure') {
      const ttlSeconds = options.authorizerCacheSeconds ?? AUTHORIZER_CACHE_TTL_SECONDS;
      authorizerCache.set(apiKey, { outcome, expiresAt: Date.now() + ttlSeconds * 1000 });
    }
    return outcome;
  }

  async function handle(
    request: IncomingMessage,
    url: URL,
    method: string,
    requestId: string,
    domainName: string,
  ): Promise<Answer> {
    // Like API Gateway, an oversized payload is refused before routing.
    let body: Buffer;
    try {
      // raw-body refuses a declared length over the limit before reading, and stops reading at the limit.
      body = await getRawBody(request, { limit: MAX_BODY_BYTES });
    } catch (error) {
      if ((error as { type?: string }).type === 'entity.too.large') return gatewayAnswer('REQUEST_TOO_LARGE');
      throw error;
    }

    // The routes of the request's path, whatever their method: API Gateway's resource.
    const onPath: { route: CompiledRoute; parameters: Record<string, string> }[] = [];
    for (const route of compiled) {
      const match = route.pattern.exec(url.pathname);
      if (!match) continue;
      const values = route.parameterNames.map((_, index) => decodeSegment(match[index + 1]!));
      // A segment that is not valid percent-encoding matches no route.
      if (values.some((value) => value === undefined)) continue;
      const parameters = Object.fromEntries(
        route.parameterNames.map((name, index) => [name, values[index]!]),
      );
      // Only routes of one resource: the first path that matches (a literal before a parameter).
      if (onPath.length > 0 && onPath[0]!.route.path !== route.path) continue;
      onPath.push({ route, parameters });
    }
    if (onPath.length === 0) return gatewayAnswer('MISSING_AUTHENTICATION_TOKEN');
    const resource = onPath[0]!.route.path;
    // A CORS preflight is the gateway's own answer, before any route (the stack's OPTIONS: a mock).
    if (method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      const allowed = preflightHeaders(
        resource,
        request.headers.origin,
        options.corsAllowedOrigins ?? [],
        allowedMethods(onPath.map(({ route }) => route.method)),
      );
      if (allowed) return { routePath: null, status: 204, headers: allowed, body: Buffer.alloc(0) };
    }
    // HEAD is served by the GET route, whose function answers it without the body (#api/http/conventions.ts).
    const matched =
      onPath.find(({ route }) => route.method === method) ??
      onPath.find(({ route }) => method === 'HEAD' && route.method === 'GET') ??
      onPath.find(({ route }) => route.method === 'ANY');
    if (!matched) {
      const allow = allowedMethods(onPath.map(({ route }) => route.method)).join(', ');
      return refusal(405, METHOD_NOT_ALLOWED_MESSAGE, { allow });
    }
    const { route, parameters } = matched;
    const refuse = (type: GatewayResponseType) => gatewayAnswer(type, route.path);
    const { throttling } = options;
    if (throttling && !buckets.take(STAGE_BUCKET, throttling.stage)) return refuse('THROTTLED');

    const headers = singleValueHeaders(request);
    const query = queryParameters(url);
    const methodArn = `arn:aws:execute-api:${REGION}:${ACCOUNT}:${API_ID}/${stage}/${method}${route.path}`;
    let authorizerContext: Record<string, string | number | boolean> | null = null;
    /** The organization's RateLimit headers, on every answer of an API-key route (none on AWS: docs/deploy.md). */
    let limits: Record<string, string> = {};
    if (route.auth === 'apiKey') {
      const apiKey = headers[API_KEY_HEADER];
      // With a header identity source, API Gateway rejects a request lacking it without calling the authorizer.
      if (apiKey === undefined || apiKey === '') return refuse('UNAUTHORIZED');
      const outcome = await authorize(apiKey, {
        type: 'REQUEST',
        methodArn,
        resource: route.path,
        path: url.pathname,
        httpMethod: method,
        headers,
        multiValueHeaders: {},
        pathParameters: parameters,
        queryStringParameters: query.single,
        multiValueQueryStringParameters: query.multi,
        stageVariables: null,
        requestContext: {} as APIGatewayRequestAuthorizerEvent['requestContext'],
      });
      if (outcome.kind === 'unauthorized') return refuse('UNAUTHORIZED');
      if (outcome.kind === 'failure') return refuse('AUTHORIZER_FAILURE');
      if (!allows(outcome.policy, methodArn)) return refuse('ACCESS_DENIED');
      // The usage plan's throttle applies once the authorizer has named the caller's key.
      if (throttling) {
        // Without a key in a usage plan, a method that requires one is refused as an invalid key.
        if (!outcome.usageIdentifierKey) return refuse('INVALID_API_KEY');
        const plan = await throttling.usagePlanOf(outcome.usageIdentifierKey);
        const admission = buckets.admit(outcome.usageIdentifierKey, plan);
        limits = rateLimitHeaders(plan, admission);
        if (!admission.allowed) {
          const refused = refuse('THROTTLED');
          return { ...refused, headers: { ...refused.headers, ...limits } };
        }
      }
      authorizerContext = { ...outcome.context, principalId: outcome.principalId };
    }

    const event = {
      resource: route.path,
      path: url.pathname,
      httpMethod: method,
      headers,
      multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
      queryStringParameters: query.single,
      multiValueQueryStringParameters: query.multi,
      pathParameters: route.parameterNames.length > 0 ? parameters : null,
      stageVariables: null,
      body: body.length > 0 ? body.toString('utf8') : null,
      isBase64Encoded: false,
      requestContext: {
        accountId: ACCOUNT,
        apiId: API_ID,
        authorizer: authorizerContext,
        httpMethod: method,
        path: `/${stage}${url.pathname}`,
        protocol: 'HTTP/1.1',
        requestId,
        requestTimeEpoch: Date.now(),
        resourceId: route.name,
        resourcePath: route.path,
        stage,
        identity: { sourceIp: request.socket.remoteAddress ?? '127.0.0.1' },
        // What API Gateway puts here is the domain it routed through, never the client's Host header.
        domainName,
      },
    } as unknown as APIGatewayProxyEvent;

    let result: APIGatewayProxyResult;
    try {
      result = await invocations.run(route.name, () =>
        route.invoke(
          event,
          lambdaContext(route.name, requestId, options.invocationTimeoutMs ?? INTEGRATION_TIMEOUT_MS),
        ),
      );
    } catch (error) {
      // A handler that throws is an integration failure: API Gateway answers 502.
      log(
        `${route.name} (request ${requestId}) failed: ${(error as Error)?.name}: ${(error as Error)?.message}`,
      );
      return refusal(502, 'Internal server error', {}, route.path);
    }
    const problem = malformation(result);
    if (problem !== null) {
      log(`${route.name} (request ${requestId}) answered a malformed Lambda proxy response: ${problem}`);
      return refusal(502, 'Internal server error', {}, route.path);
    }
    const responseHeaders: Record<string, string | string[]> = { ...limits };
    for (const [name, value] of Object.entries(result.headers ?? {})) responseHeaders[name] = String(value);
    for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) {
      responseHeaders[name] = values.map(String);
    }
    return {
      routePath: route.path,
      status: result.statusCode,
      headers: responseHeaders,
      body: Buffer.from(result.body ?? '', result.isBase64Encoded ? 'base64' : 'utf8'),
    };
  }

  const log = options.log ?? ((line: string) => console.error(`local gateway: ${line}`));

  /** Writes the answer; one that cannot be written is answered 502 instead, while nothing is sent yet. */
  function send(
    response: ServerResponse,
    answer: Answer,
    requestId: string,
    acceptEncoding: string | undefined,
    head: boolean,
  ): Answer {
    try {
      // Compressed as API Gateway does (minimumCompressionSize); the exchange keeps the body as it was.
      const { headers, body } = compressed(answer.headers, answer.body, acceptEncoding);
      response.writeHead(answer.status, { ...headers, 'x-amzn-requestid': requestId });
      // A HEAD's answer has the GET's headers and no body (Node would send none anyway).
      response.end(head ? undefined : body);
      return { ...answer, headers, ...(head && { body: Buffer.alloc(0) }) };
    } catch (error) {
      log(`the answer to request ${requestId} could not be written: ${(error as Error).message}`);
      if (response.headersSent) throw error;
      for (const name of response.getHeaderNames()) response.removeHeader(name);
      const fallback = asProblem(
        refusal(502, 'Internal server error', {}, answer.routePath),
        requestId,
        `http://${listeningDomain(server)}`,
        undefined,
      );
      response.writeHead(fallback.status, { ...fallback.headers, 'x-amzn-requestid': requestId });
      response.end(fallback.body);
      return fallback;
    }
  }

  const server = createServer((request, response) => {
    const requestId = randomUUID();
    const method = (request.method ?? 'GET').toUpperCase();
    let path = '/';
    const answered = (async (): Promise<Answer> => {
      // Every parse happens in here, so a request the gateway cannot read is answered, never thrown.
      const url = requestUrl(request.url);
      // API Gateway matches such a target to no resource.
      if (!url) return gatewayAnswer('MISSING_AUTHENTICATION_TOKEN');
      path = url.pathname;
      await options.heldUntil;
      // Like a WAF rate rule in front of the stage: one address cannot spend the stage's bucket.
      const { throttling } = options;
      if (throttling && !buckets.take(`address ${request.socket.remoteAddress}`, throttling.clientAddress))
        return gatewayAnswer('THROTTLED');
      return handle(request, url, method, requestId, listeningDomain(server));
    })();
    answered
      .catch((error: unknown) => {
        log(`request ${requestId} failed: ${(error as Error)?.name}: ${(error as Error)?.message}`);
        return gatewayAnswer('DEFAULT_5XX');
      })
      .then((answer) => {
        const finished = answer.own
          ? asProblem(answer, requestId, `http://${listeningDomain(server)}`, request.headers.accept)
          : answer;
        const sent = send(
          response,
          finished,
          requestId,
          request.headers['accept-encoding'],
          method === 'HEAD',
        );
        options.onResponse?.({
          method,
          routePath: sent.routePath,
          path,
          status: sent.status,
          headers: { ...sent.headers, 'x-amzn-requestid': requestId },
          body: sent.body.toString('utf8'),
        });
      })
      // Only once part of an answer is on its way is there nothing left to answer with.
      .catch(() => response.destroy());
  });
  // A request Node's parser refuses (a malformed request line, headers over the limit) never reaches
  // the handler above; it is answered here with the same `{message}` body as every other refusal.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const refusal =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? { status: '431 Request Header Fields Too Large', message: 'Request header fields too large' }
        : { status: '400 Bad Request', message: 'Bad request' };
    const status = Number(refusal.status.slice(0, 3));
    const body = JSON.stringify({
      message: refusal.message,
      type: problemTypePath(status)
        ? `http://${listeningDomain(server)}${problemTypePath(status)}`
        : 'about:blank',
      title: problemTitle(status),
      status,
      detail: refusal.message,
    });
    socket.end(
      `HTTP/1.1 ${refusal.status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
