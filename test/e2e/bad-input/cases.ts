import type fc from 'fast-check';
import { expect } from 'vitest';
import type { routes } from '#definitions/routes.ts';
import { type HttpAnswer, send as sendHttp } from '../../support/api-client.ts';
import { contractMembers } from '../../support/problem.ts';
import type { ObservedCall } from '../../support/request-counter.ts';
import { REDIRECT_URI, world } from './world.ts';

/**
 * The bad-input cases: a request, what is wrong with it, and the answer it
 * must get in its route's protocol (`checkAnswer`); and the writes a request
 * may cause without writing the request's data (`unexpectedWrites`).
 */

export type Route = (typeof routes)[number];
export type RouteName = Route['name'];

// ---------------------------------------------------------------------------
// Requests, expected answers and how they are checked

export interface BadRequest {
  method: string;
  /** Path and query string, encoded as a client sends them. */
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * How the answer must look:
 * - `message`: JSON `{"message": string}` (the API, the gateway, /mcp's HTTP errors), which an endpoint's
 *   error follows with `errors` (on a 4xx: `{path, message}` of each value at fault) and `request_id`, and
 *   nothing else;
 * - `oauth`: RFC 6749 (or RFC 7591) error JSON `{error, error_description}`;
 * - `html`: the authorization endpoint's error or consent page (RFC 6749 §4.1.2.1: never redirect to an unverified URI);
 * - `redirect`: a 302 to the client's registered redirect URI carrying `error`, `state` and `iss`;
 * - `jsonrpc`: a JSON-RPC 2.0 error object;
 * - `toolError`: an MCP tool result with `isError: true` and a readable text;
 * - `ignored`: the flaw is something the service ignores by design (unknown query
 *   parameters, per-contact errors of a push): a 200 JSON answer that wrote nothing.
 */
export type Protocol = 'message' | 'oauth' | 'html' | 'redirect' | 'jsonrpc' | 'toolError' | 'ignored';

export interface Case {
  /** What is wrong with the request, shown when the case fails. */
  flaw: string;
  request: BadRequest;
  status: number;
  protocol: Protocol;
  /** A field the `{message}` must name (validation messages name the offending field). */
  mentions?: string;
  /** The exact `message`, when the gateway or a fixed text answers. */
  message?: string;
  /** The OAuth or redirect `error` code. */
  error?: string;
  /** JSON-RPC: the error codes allowed, and the request id the answer must carry. */
  codes?: readonly number[];
  rpcId?: number | string;
  /** Redirect: the `state` the client sent. */
  state?: string;
  /** A header the answer must carry (the OAuth challenge of /mcp, its `allow`). */
  header?: { name: string; value: RegExp };
  /** The media type of an `ignored` answer (JSON unless said). */
  contentType?: RegExp;
  /** Extra checks on an `ignored` answer's body. */
  ignoredBody?: (body: Record<string, unknown>) => void;
  /**
   * A provider webhook the inbound endpoint accepts (200) and queues: the queue's consumer keeps it as
   * an unmatched event of the world's organization, a write `unexpectedWrites` then tolerates, and the
   * test waits for the queue to drain before the next case.
   */
  queued?: boolean;
}

export type Answer = HttpAnswer;

export const send = (request: BadRequest): Promise<Answer> => sendHttp(world.apiUrl, request);

/** Cases of one route, and the flaws every route shares, as arbitraries. */
export type Cases = fc.Arbitrary<Case>;

/** The error codes of RFC 6749 and its extensions: RFC 8707's `invalid_target`, RFC 7591's registration errors. */
const RFC6749_ERRORS = [
  'invalid_redirect_uri',
  'invalid_client_metadata',
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'invalid_target',
  'access_denied',
  'unsupported_response_type',
];

function parseJson(answer: Answer): unknown {
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  return JSON.parse(answer.text);
}

/** Asserts the answer has the case's status and speaks the case's protocol. */
export function checkAnswer(c: Case, answer: Answer): void {
  expect(answer.status).toBeLessThan(500);
  expect(answer.status).toBe(c.status);
  if (c.header) expect(answer.headers.get(c.header.name)).toMatch(c.header.value);
  switch (c.protocol) {
    case 'message': {
      // The contract's members, once the RFC 9457 members every error body also carries are checked.
      parseJson(answer);
      const body = contractMembers(answer.status, answer.text);
      expect(Object.keys(body).filter((key) => key !== 'errors' && key !== 'request_id')).toEqual([
        'message',
      ]);
      expect(Object.keys(body)[0]).toBe('message');
      if ('request_id' in body) expect(body.request_id).toEqual(expect.any(String));
      if ('errors' in body) {
        expect(answer.status).toBeLessThan(500);
        expect(body.errors).toEqual(expect.any(Array));
        for (const error of body.errors as unknown[]) {
          expect(error).toStrictEqual({ path: expect.any(String), message: expect.any(String) });
          expect(body.message).toContain((error as { message: string }).message);
        }
      }
      expect(body.message).toEqual(expect.any(String));
      expect((body.message as string).length).toBeGreaterThan(0);
      if (c.message !== undefined) expect(body.message).toBe(c.message);
      if (c.mentions !== undefined) expect(body.message).toContain(c.mentions);
      return;
    }
    case 'oauth': {
      parseJson(answer);
      const body = contractMembers(answer.status, answer.text);
      expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
      expect(RFC6749_ERRORS).toContain(body.error);
      if (c.error !== undefined) expect(body.error).toBe(c.error);
      expect(body.error_description).toEqual(expect.any(String));
      expect(answer.headers.get('cache-control')).toContain('no-store');
      if (answer.status === 401) expect(answer.headers.get('www-authenticate')).toMatch(/^Basic /);
      return;
    }
    case 'html': {
      expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
      expect(answer.text).toMatch(/^<!doctype html>/);
      expect(answer.headers.get('location')).toBeNull();
      return;
    }
    case 'redirect': {
      const location = new URL(answer.headers.get('location') ?? '');
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
      expect(location.searchParams.get('error')).toBe(c.error);
      expect(location.searchParams.get('code')).toBeNull();
      expect(location.searchParams.get('iss')).toBe(world.apiUrl);
      expect(location.searchParams.get('state')).toBe(c.state ?? null);
      return;
    }
    case 'jsonrpc': {
      const body = parseJson(answer) as Record<string, unknown>;
      expect(body).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
      const error = body.error as { code: number; message: unknown };
      expect(Number.isInteger(error.code)).toBe(true);
      expect(error.message).toEqual(expect.any(String));
      if (c.codes !== undefined) expect(c.codes).toContain(error.code);
      expect(body.id).toBe(c.rpcId ?? null);
      return;
    }
    case 'toolError': {
      const body = parseJson(answer) as Record<string, unknown>;
      expect(body).toMatchObject({ jsonrpc: '2.0', id: c.rpcId, result: { isError: true } });
      const content = (body.result as { content: { type: string; text: string }[] }).content;
      expect(content[0]?.type).toBe('text');
      expect(content[0]?.text.length).toBeGreaterThan(0);
      return;
    }
    case 'ignored': {
      if (c.contentType && !c.contentType.test('application/json')) {
        expect(answer.headers.get('content-type')).toMatch(c.contentType);
        return;
      }
      const body = parseJson(answer) as Record<string, unknown>;
      expect(body).toEqual(expect.any(Object));
      expect(body).not.toHaveProperty('message');
      c.ignoredBody?.(body);
      return;
    }
  }
}

const WRITE_OPERATIONS = new Set([
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'TransactWriteItems',
]);

const partitionOf = (key: unknown): string => {
  const pk = (key as { pk?: unknown } | undefined)?.pk;
  return typeof pk === 'string' ? pk : String((pk as { S?: string } | undefined)?.S);
};

/** The partition of a provider connection's unmatched events (shared/store/keys.ts), in the world's organization. */
const unmatchedPartition = (pk: string) =>
  new RegExp(`^ORG#${world.orgId}#CONNECTION#[0-9]+#UNMATCHED$`).test(pk);

/**
 * The writes DynamoDB accepted while a request ran, but those that are no
 * writes of the request's data:
 * - the authorizer's (and the consent form's key check's) last-used time of an
 *   API key, recorded at most once a minute per key (docs/decisions.md), so
 *   whether it happens depends on the clock, not on the request;
 * - an Idempotency-Key claimed before the push runs and released when it fails
 *   (a Put and then a Delete of the same item), which leaves nothing behind;
 * - the MCP server's count of a client's requests in the current second (its
 *   rate limit), which every authenticated request to /mcp raises;
 * - for a `queued` case only, the unmatched event the provider events queue's
 *   consumer keeps of the payload the inbound endpoint accepted: the endpoint
 *   itself writes nothing, but the consumer runs in this process and may
 *   record the payload before the answer arrives (a payload of the world,
 *   whose sequences link no provider campaign, can only be kept as unmatched).
 * Writes refused by their condition (a webhook or code that does not exist) changed nothing.
 */
export function unexpectedWrites(calls: ObservedCall[], c?: Pick<Case, 'queued'>): string[] {
  const accepted = calls.filter((call) => call.succeeded && WRITE_OPERATIONS.has(call.operation));
  const released = new Set(
    accepted
      .filter(
        (call) => call.operation === 'DeleteItem' && partitionOf(call.input.Key).includes('#IDEMPOTENCY#'),
      )
      .map((call) => partitionOf(call.input.Key)),
  );
  return accepted
    .filter((call) => {
      if (call.operation === 'UpdateItem' && partitionOf(call.input.Key).startsWith('APIKEY#'))
        return call.input.UpdateExpression !== 'SET lastUsedAt = :now';
      if (call.operation === 'UpdateItem' && partitionOf(call.input.Key).startsWith('MCPRATE#')) return false;
      // A dashboard session's idle expiry moves on with its use (at most once a minute), as a key's last use does.
      if (call.operation === 'UpdateItem' && partitionOf(call.input.Key).startsWith('DASHSESSION#'))
        return call.input.UpdateExpression !== 'SET expiresAt = :expiresAt';
      // A provider connection's health moves on with a call to the provider (at most once a minute): the
      // campaign listing asks the provider for a request whose flaw it ignores (docs/providers.md).
      if (
        call.operation === 'UpdateItem' &&
        String(call.input.UpdateExpression).startsWith('SET #status = :status, healthWrittenAt = :at')
      )
        return false;
      if (c?.queued && call.operation === 'UpdateItem' && unmatchedPartition(partitionOf(call.input.Key)))
        return false;
      if (call.operation === 'PutItem' && released.has(partitionOf(call.input.Item))) return false;
      if (call.operation === 'DeleteItem' && released.has(partitionOf(call.input.Key))) return false;
      return true;
    })
    .map((call) => `${call.operation} ${JSON.stringify(call.input).slice(0, 300)}`);
}

export const describeRequest = (request: BadRequest) =>
  `${request.method} ${request.url.slice(0, 300)} ${JSON.stringify(request.headers).slice(0, 200)} ${
    request.body === undefined ? '' : request.body.slice(0, 300)
  }`;
