import { validateHeaderName, validateHeaderValue } from 'node:http';
import * as z from 'zod/mini';
import { type GatewayResponseType, gatewayResponses } from '#definitions/gateway-responses.ts';
import {
  acceptsProblemDetails,
  GATEWAY_CORS_HEADERS,
  PROBLEM_MEDIA_TYPE,
  problemTitle,
  problemTypePath,
} from '#definitions/http-conventions.ts';

/**
 * What the local gateway answers: the handler's result, checked as API
 * Gateway checks a Lambda proxy response, or one of the gateway's own
 * refusals, shaped as the deployed stage shapes them.
 */

/**
 * A Lambda proxy response as API Gateway takes it: an integer HTTP status, headers whose values are
 * strings, numbers or booleans, and a string body (or none). Anything else is "Malformed Lambda proxy
 * response", a 502.
 */
const headerValue = z.union([z.string(), z.number(), z.boolean()]);
const proxyResult = z.object({
  statusCode: z.int().check(z.minimum(100), z.maximum(599)),
  headers: z.optional(z.nullable(z.record(z.string(), headerValue))),
  multiValueHeaders: z.optional(z.nullable(z.record(z.string(), z.array(headerValue)))),
  body: z.optional(z.nullable(z.string())),
  isBase64Encoded: z.optional(z.nullable(z.boolean())),
});

/** Why a handler's result cannot be sent as it is, or null when it can. */
export function malformation(result: unknown): string | null {
  const parsed = proxyResult.safeParse(result);
  if (!parsed.success)
    return parsed.error.issues
      .map((issue) => `${issue.path.join('.') || 'the result'}: ${issue.message}`)
      .join('; ');
  const { headers, multiValueHeaders } = parsed.data;
  const fields = [
    ...Object.entries(headers ?? {}),
    ...Object.entries(multiValueHeaders ?? {}).flatMap(([name, values]) =>
      values.map((value): [string, unknown] => [name, value]),
    ),
  ];
  try {
    // Node's own checks, which are the HTTP grammar's: a CR, LF or NUL, or a character beyond Latin-1.
    for (const [name, value] of fields) {
      validateHeaderName(name);
      validateHeaderValue(name, String(value));
    }
  } catch (error) {
    return (error as Error).message;
  }
  return null;
}

/** What the gateway answers a request with. */
export interface Answer {
  routePath: string | null;
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
  /** One of the gateway's own refusals, whose body becomes a problem (`asProblem`) once the request id is known. */
  own?: boolean;
}

/** One of the gateway's own responses, as the deployed stage would send it. */
export function gatewayAnswer(type: GatewayResponseType, routePath: string | null = null): Answer {
  const definition: { statusCode: number | null; message: string | null; headers?: Record<string, string> } =
    gatewayResponses[type];
  const { statusCode, message } = definition;
  return refusal(statusCode ?? 500, message ?? 'Internal server error', definition.headers, routePath);
}

/** A `{message}` refusal (the shape of every response the gateway makes itself). */
export function refusal(
  status: number,
  message: string,
  headers: Record<string, string> = {},
  routePath: string | null = null,
): Answer {
  return {
    routePath,
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: Buffer.from(JSON.stringify({ message })),
    own: true,
  };
}

/**
 * A refusal of the gateway's own as the deployed stage sends it (infra/stack.ts: its gateway response
 * templates): `{message}` with the request id and the RFC 9457 members, CORS-readable from any origin
 * (the answer holds nothing of any organization's), as `application/problem+json` when Accept asks.
 */
export function asProblem(
  answer: Answer,
  requestId: string,
  base: string,
  accept: string | undefined,
): Answer {
  const { message } = JSON.parse(answer.body.toString('utf8')) as { message: string };
  const typePath = problemTypePath(answer.status);
  const body = {
    message,
    request_id: requestId,
    type: typePath ? `${base}${typePath}` : 'about:blank',
    title: problemTitle(answer.status),
    status: answer.status,
    detail: message,
  };
  return {
    ...answer,
    headers: {
      ...answer.headers,
      ...GATEWAY_CORS_HEADERS,
      'content-type': acceptsProblemDetails(accept) ? PROBLEM_MEDIA_TYPE : 'application/json',
    },
    body: Buffer.from(JSON.stringify(body)),
  };
}
