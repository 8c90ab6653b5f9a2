import fc from 'fast-check';
import { JSON_TOO_DEEP_MESSAGE } from '#api/http/json-depth.ts';
import { MAX_BODY_BYTES } from '#definitions/request-limits.ts';
import { routes } from '#definitions/routes.ts';
import { type RouteName as CatalogueRoute, validRequest } from '../../../infra/local/route-requests.ts';
import {
  json,
  membersText,
  nestedJson,
  notAJsonObject,
  objectText,
  prototypeKeyedJson,
  prototypeName,
  queryString,
  segment,
  unicode,
  unknownParameters,
} from './arbitraries.ts';
import type { BadRequest, Case, Route } from './cases.ts';
import { target, world } from './world.ts';

/**
 * The flaws every route shares (a method it lacks, a body over the limit), the
 * API key flaws of the API routes, and the generator of an API route from a
 * description of its inputs: each input's bad values, varied from the route's
 * valid request in the catalogue (infra/local/route-requests.ts).
 */

export const API_PREFIX = '/public/v1';

/** Fills a route's path template. */
export const urlOf = (path: string, parameters: Record<string, string> = {}): string =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => parameters[name] ?? '');

/** Methods no route of this path has: the gateway answers 404 for them (docs/decisions.md). */
function missingMethods(route: Route): string[] {
  const defined = routes.filter((other) => other.path === route.path).map((other) => other.method as string);
  if (defined.includes('ANY')) return [];
  return ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((method) => !defined.includes(method));
}

/** Headers with which the authorizer must refuse the request (401 before anything else runs). */
const badApiKeyHeaders = () =>
  fc.oneof(
    fc.constant({ flaw: 'no x-api-key', headers: {} }),
    fc.constant({ flaw: 'an empty x-api-key', headers: { 'x-api-key': '' } }),
    fc
      .string({
        unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
        maxLength: 120,
      })
      .map((key) => ({ flaw: 'a junk key', headers: { 'x-api-key': key } })),
    fc
      .tuple(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), fc.stringMatching(/^[A-Za-z0-9_-]{43}$/))
      .map(([org, secret]) => ({ flaw: 'an unknown key', headers: { 'x-api-key': `${org}.${secret}` } })),
    fc.constant({ flaw: 'a revoked key', headers: { 'x-api-key': world.revokedApiKey } }),
    fc.constant({
      flaw: 'a real secret under another organization id',
      headers: { 'x-api-key': `${world.orgId + 1}.${world.apiKey.split('.')[1]}` },
    }),
    fc.constant({ flaw: 'a key with a leading zero', headers: { 'x-api-key': `0${world.apiKey}` } }),
    fc
      .integer({ min: 65, max: 4096 })
      .map((length) => ({ flaw: 'an overlong key', headers: { 'x-api-key': `1.${'k'.repeat(length)}` } })),
  );

/** A body over the 6 MiB limit; built once, the same text every time. */
let hugeBody: string | undefined;
const tooLargeBody = () => {
  hugeBody ??= json({ field: 'x'.repeat(MAX_BODY_BYTES) });
  return hugeBody;
};

/** The gateway's own answers (shared/definitions/gateway-responses.ts). */
export const NOT_FOUND = 'Not found';
export const METHOD_NOT_ALLOWED = 'Method not allowed';
export const UNAUTHORIZED = 'Unauthorized';
export const TOO_LARGE = 'Request body too large';

/**
 * A body over the 6 MiB limit, sent to `valid`'s route: refused by the gateway
 * before it routes (413 `{message}`), whatever the route's protocol. One
 * constant request per route, so the property test sends it once per route
 * rather than drawing it among its cases (6 MiB each time, for the same answer).
 */
export function tooLargeCase(valid: BadRequest): Case {
  return {
    flaw: 'a body over 6 MiB',
    request: {
      ...valid,
      // fetch sends no body with GET; the gateway refuses a large body before it routes, so POST it.
      method: valid.method === 'GET' ? 'POST' : valid.method,
      headers: { ...valid.headers, 'content-type': 'application/json' },
      body: tooLargeBody(),
    },
    status: 413,
    protocol: 'message',
    message: TOO_LARGE,
  };
}

/** Flaws of the request as a whole, whatever the route: a method it lacks (the oversized body: `tooLargeCase`). */
export function requestFlaws(route: Route, valid: BadRequest): fc.Arbitrary<Case>[] {
  const flaws: fc.Arbitrary<Case>[] = [];
  const missing = missingMethods(route);
  if (missing.length > 0) {
    // A known path with a method it lacks: 405 with `Allow` naming every method it has (RFC 9110 §15.5.6).
    const defined = routes
      .filter((other) => other.path === route.path)
      .map((other) => other.method as string);
    const allow = new RegExp(`^${defined.map((method) => `(?=.*\\b${method}\\b)`).join('')}`);
    flaws.push(
      fc.constantFrom(...missing).map(
        (method): Case => ({
          flaw: `method ${method}`,
          request: { ...valid, method, body: method === 'GET' ? undefined : valid.body },
          status: 405,
          protocol: 'message',
          message: METHOD_NOT_ALLOWED,
          header: { name: 'allow', value: allow },
        }),
      ),
    );
  }
  return flaws;
}

// ---------------------------------------------------------------------------
// The API routes (`{message}` errors), described by their inputs

export interface BodyField {
  required: boolean;
  /** Raw JSON of values the endpoint refuses with 400. */
  bad: fc.Arbitrary<string>;
}

export interface QueryParameter {
  /** A valid value: sent before the bad one in the repeated-parameter cases (the last value counts). */
  good?: string;
  bad: fc.Arbitrary<string>;
}

export interface PathParameter {
  bad: fc.Arbitrary<string>;
  /** Well-formed values naming nothing (404); absent when any value is a legitimate search (a domain). */
  unknown?: fc.Arbitrary<string>;
}

/** An API route's inputs; their valid values are the catalogue's request's. */
export interface ApiEndpoint {
  path?: Record<string, PathParameter>;
  query?: Record<string, QueryParameter>;
  body?: Record<string, BodyField>;
  /** Flaws only this endpoint has (state conflicts, cross-field rules, partial acceptance). */
  extra?: (valid: BadRequest) => fc.Arbitrary<Case>[];
}

/**
 * Flaws of a JSON body: not an object, empty, a required field missing, a field with a bad value; unknown
 * fields beside them. `goodMembers`: the valid body's members, as raw JSON.
 */
function bodyFlaws(fields: Record<string, BodyField>, goodMembers: Record<string, string>) {
  const names = Object.keys(fields);
  const required = names.filter((name) => fields[name]!.required);
  // Unknown members are ignored, also when named like Object.prototype members and holding more of them.
  const extras = fc.array(
    fc.tuple(
      fc.oneof(prototypeName, unicode(20, 1)).filter((name) => !names.includes(name)),
      fc.oneof(fc.json({ maxDepth: 1 }), prototypeKeyedJson),
    ),
    { maxLength: 3 },
  );
  const flaws: fc.Arbitrary<{ flaw: string; body: string; mentions?: string; message?: string }>[] = [
    notAJsonObject.map((body) => ({ flaw: 'not a JSON object', body })),
    fc.constant({ flaw: 'an empty body', body: '' }),
    fc.tuple(fc.constantFrom(...names), extras).chain(([name, extra]) =>
      fields[name]!.bad.map((value) => ({
        flaw: `${name} is ${value.slice(0, 100)}`,
        body: membersText([...extra, ...Object.entries({ ...goodMembers, [name]: value })]),
        mentions: name,
      })),
    ),
    // Refused before anything reads it, wherever the depth is: in a field or in an unknown member.
    fc
      .tuple(fc.constantFrom(...names), fc.boolean(), nestedJson(1), extras)
      .map(([name, unknownMember, nested, extra]) => ({
        flaw: `${unknownMember ? 'an unknown member' : name} nesting the body ${nested.levels} deep`,
        body: membersText([
          ...extra,
          ...Object.entries({ ...goodMembers, [unknownMember ? `${name}_nested` : name]: nested.text }),
        ]),
        message: JSON_TOO_DEEP_MESSAGE,
      })),
  ];
  if (required.length > 0) {
    flaws.push(
      fc.tuple(fc.constantFrom(...required), extras).map(([name, extra]) => {
        const { [name]: _missing, ...rest } = goodMembers;
        return { flaw: `no ${name}`, body: membersText([...extra, ...Object.entries(rest)]), mentions: name };
      }),
    );
  }
  return fc.oneof(...flaws);
}

/** The generator of an API route: its inputs' flaws plus the flaws every API route has. */
export function apiCases(route: Route, endpoint: ApiEndpoint): fc.Arbitrary<Case> {
  const catalogued = validRequest(route.name as CatalogueRoute, target());
  const goodPath = Object.fromEntries(
    Object.entries(catalogued.pathParameters).map(([name, value]) => [name, segment(value)]),
  );
  const goodQuery = catalogued.query;
  const goodMembers = Object.fromEntries(
    Object.entries(catalogued.json ?? {}).map(([name, value]) => [name, json(value)]),
  );
  const undescribed = [
    ...Object.keys(endpoint.path ?? {}).filter((name) => !(name in goodPath)),
    ...Object.keys(endpoint.body ?? {}).filter((name) => !(name in goodMembers)),
  ];
  if (undescribed.length > 0)
    throw new Error(`${route.name}: the catalogue's request has no valid ${undescribed.join(', ')}`);
  const goodBody = catalogued.json ? objectText(goodMembers) : undefined;
  const { 'content-type': _json, ...headers } = catalogued.headers;
  const request = (
    path: Record<string, string>,
    query: [string, string][],
    body: string | undefined = goodBody,
  ): BadRequest => ({
    method: catalogued.method,
    url: `${urlOf(route.path, path)}${queryString(query)}`,
    headers: { ...headers, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body,
  });
  const valid = request(goodPath, goodQuery);
  const rejected = (flaw: string, bad: BadRequest, status: number, details: Partial<Case> = {}): Case => ({
    flaw,
    request: bad,
    status,
    protocol: 'message',
    ...details,
  });

  const flaws: fc.Arbitrary<Case>[] = [
    ...requestFlaws(route, valid),
    badApiKeyHeaders().map(({ flaw, headers }) => {
      const { 'x-api-key': _valid, ...others } = valid.headers;
      return rejected(flaw, { ...valid, headers: { ...others, ...headers } }, 401, { message: UNAUTHORIZED });
    }),
  ];
  for (const [name, parameter] of Object.entries(endpoint.path ?? {})) {
    flaws.push(
      parameter.bad.map((text) =>
        rejected(
          `path ${name} ${JSON.stringify(text).slice(0, 100)}`,
          request({ ...goodPath, [name]: segment(text) }, goodQuery),
          400,
          { mentions: `'${name}'` },
        ),
      ),
    );
    if (parameter.unknown) {
      flaws.push(
        parameter.unknown.map((text) =>
          rejected(
            `unknown ${name} ${text}`,
            request({ ...goodPath, [name]: segment(text) }, goodQuery),
            404,
          ),
        ),
      );
    }
  }
  const knownQuery = Object.keys(endpoint.query ?? {});
  for (const [name, parameter] of Object.entries(endpoint.query ?? {})) {
    flaws.push(
      fc
        .tuple(parameter.bad, fc.boolean(), unknownParameters(knownQuery))
        .map(([value, repeated, unknown]) => {
          const rest = goodQuery.filter(([other]) => other !== name);
          const before: [string, string][] =
            repeated && parameter.good !== undefined ? [[name, parameter.good]] : [];
          return rejected(
            `query ${name}=${JSON.stringify(value).slice(0, 100)}${before.length ? ' after a good one' : ''}`,
            request(goodPath, [...unknown, ...rest, ...before, [name, value]]),
            400,
            { mentions: `'${name}'` },
          );
        }),
    );
  }
  if (route.method === 'GET') {
    // Unknown query parameters are ignored; a read with them still answers, and writes nothing.
    flaws.push(
      unknownParameters(knownQuery)
        .filter((unknown) => unknown.length > 0)
        .map(
          (unknown): Case => ({
            flaw: 'unknown query parameters',
            request: request(goodPath, [...goodQuery, ...unknown]),
            status: 200,
            protocol: 'ignored',
          }),
        ),
    );
  }
  if (endpoint.body) {
    flaws.push(
      bodyFlaws(endpoint.body, goodMembers).map(({ flaw, body, mentions, message }) =>
        rejected(flaw, request(goodPath, goodQuery, body), 400, { mentions, message }),
      ),
    );
  }
  flaws.push(...(endpoint.extra?.(valid) ?? []));
  return fc.oneof(...flaws);
}
