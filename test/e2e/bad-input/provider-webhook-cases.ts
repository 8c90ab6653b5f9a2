import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import fc from 'fast-check';
import { expect } from 'vitest';
import { JSON_TOO_DEEP_MESSAGE, MAX_JSON_DEPTH } from '#api/http/json-depth.ts';
import { MAX_BODY_BYTES, MAX_PROVIDER_WEBHOOK_BYTES } from '#definitions/request-limits.ts';
import { validRequest } from '../../../infra/local/route-requests.ts';
import type { LocalStack } from '../../../infra/local/stack.ts';
import { waitFor } from '../../support/wait.ts';
import { NOT_FOUND, requestFlaws, urlOf } from './api-cases.ts';
import {
  asciiLongerThan,
  badIdText,
  json,
  membersText,
  nestedJson,
  notAJsonObject,
  notAString,
  prototypeKeyedJson,
  prototypeName,
  segment,
  unicode,
  unknownId,
} from './arbitraries.ts';
import type { BadRequest, Case, Route } from './cases.ts';
import { type ProviderWebhook, target, world } from './world.ts';

/**
 * The URL providers post their webhooks to,
 * `POST /provider-webhooks/{organization}/{connection}/{token}`: no API key,
 * the URL's token is the credential. Its refusals are `{message}`: 401, with
 * one message whatever part was wrong, for an organization or connection that
 * is not a number, an unknown connection, another organization's, a deleted
 * one, a wrong or rotated token and (Smartlead) a payload whose `secret_key`
 * is not the token; 400 for a body that is no JSON object or array; 413 over
 * MAX_PROVIDER_WEBHOOK_BYTES, before anything else is looked at, then 400 for
 * a body nested deeper than MAX_JSON_DEPTH, whatever the URL. A request
 * that still carries the valid URL and a JSON object or array is accepted
 * (200 `{received: true}`) and its payload queued: those cases are `queued`.
 */

/** The one message of every 401: never which part of the URL was wrong. */
const UNKNOWN_CONNECTION = 'Unknown connection or wrong token';

/** A webhook URL's parts as text, to put anything in any of them. */
type UrlParts = Record<keyof ProviderWebhook, string>;

const asText = (webhook: ProviderWebhook): UrlParts => ({
  organization: String(webhook.organization),
  connection: String(webhook.connection),
  token: webhook.token,
});

/** Whether the inbound endpoint takes `body` as a payload: JSON whose value is an object or an array. */
function isPayload(body: string): boolean {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}

/** Whether the service takes `body` as a Smartlead connection's: no top-level `secret_key`, or the URL's token. */
function signedBy(body: string, token: string): boolean {
  const payload: unknown = JSON.parse(body);
  return (
    typeof payload !== 'object' ||
    payload === null ||
    !('secret_key' in payload) ||
    (payload as { secret_key: unknown }).secret_key === token
  );
}

/** Tokens that are not the current one of the world's Smartlead connection. */
function wrongTokens(token: string) {
  const changed = (index: number) =>
    `${token.slice(0, index)}${token[index] === 'A' ? 'B' : 'A'}${token.slice(index + 1)}`;
  return fc
    .oneof(
      fc.constantFrom(
        world.staleProviderToken,
        world.lemlistWebhook.token,
        world.otherProviderWebhook.token,
        world.deletedProviderWebhook.token,
        token.slice(0, -1),
        `${token}A`,
        token.toUpperCase(),
        token.toLowerCase(),
        `${token} `,
        ` ${token}`,
      ),
      fc.integer({ min: 0, max: token.length - 1 }).map(changed),
      fc.stringMatching(/^[A-Za-z0-9_-]{1,100}$/),
      // `.` and `..` would be removed by the client's URL normalization before they are sent.
      unicode(60, 1).filter((text) => text !== '.' && text !== '..'),
      asciiLongerThan(300),
    )
    .filter((candidate) => candidate !== token);
}

/** Waits until the provider events queue has nothing waiting, in flight or delayed: its consumer is done. */
export async function providerEventsDrained(stack: LocalStack): Promise<void> {
  const sqs = new SQSClient({
    endpoint: stack.sqsEndpoint,
    region: stack.region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const counts = [
    'ApproximateNumberOfMessages',
    'ApproximateNumberOfMessagesNotVisible',
    'ApproximateNumberOfMessagesDelayed',
  ] as const;
  try {
    await waitFor(
      async () => {
        const { Attributes = {} } = await sqs.send(
          new GetQueueAttributesCommand({
            QueueUrl: stack.queueUrls.providerEvents,
            AttributeNames: [...counts],
          }),
        );
        expect(counts.map((count) => `${count} ${Attributes[count]}`)).toEqual(
          counts.map((count) => `${count} 0`),
        );
      },
      { what: 'the provider events queue to drain', intervalMs: 20 },
    );
  } finally {
    sqs.destroy();
  }
}

export function providerWebhookCases(route: Route): fc.Arbitrary<Case> {
  const catalogued = validRequest('receive-provider-webhook', target());
  const valid: BadRequest = {
    method: catalogued.method,
    url: catalogued.url,
    headers: catalogued.headers,
    body: catalogued.body,
  };
  const good = asText(world.providerWebhook);
  const goodMembers = Object.entries(catalogued.json ?? {}).map(([name, value]): [string, string] => [
    name,
    json(value),
  ]);
  const post = (parts: UrlParts, body: string | undefined = valid.body): BadRequest => ({
    ...valid,
    url: urlOf(route.path, {
      organization: segment(parts.organization),
      connection: segment(parts.connection),
      token: segment(parts.token),
    }),
    body,
  });
  const denied = (flaw: string, request: BadRequest): Case => ({
    flaw,
    request,
    status: 401,
    protocol: 'message',
    message: UNKNOWN_CONNECTION,
  });
  /** A body of any kind: the credentials are checked before the body is read. */
  const anyBody = fc.oneof(
    fc.constant(valid.body),
    notAJsonObject,
    fc.constant(''),
    fc.jsonValue({ maxDepth: 2 }).map(json),
  );
  /** Wrong URLs: each part wrong in turn, the others right. */
  const wrongUrl: fc.Arbitrary<{ flaw: string; parts: UrlParts }> = fc
    .oneof(
      badIdText.map((text) => ({
        flaw: `organization ${JSON.stringify(text).slice(0, 80)}`,
        parts: { ...good, organization: text },
      })),
      badIdText.map((text) => ({
        flaw: `connection ${JSON.stringify(text).slice(0, 80)}`,
        parts: { ...good, connection: text },
      })),
      unknownId.map((id) => ({
        flaw: `unknown organization ${id}`,
        parts: { ...good, organization: String(id) },
      })),
      unknownId.map((id) => ({
        flaw: `unknown connection ${id}`,
        parts: { ...good, connection: String(id) },
      })),
      wrongTokens(good.token).map((token) => ({
        flaw: `token ${JSON.stringify(token).slice(0, 80)}`,
        parts: { ...good, token },
      })),
      fc.constantFrom(
        { flaw: 'the token before the rotation', parts: { ...good, token: world.staleProviderToken } },
        { flaw: 'a deleted connection', parts: asText(world.deletedProviderWebhook) },
        {
          flaw: "another organization's connection and token under this organization",
          parts: {
            ...good,
            connection: String(world.otherProviderWebhook.connection),
            token: world.otherProviderWebhook.token,
          },
        },
        {
          flaw: 'this connection and token under another organization',
          parts: { ...good, organization: String(world.otherProviderWebhook.organization) },
        },
        {
          flaw: "another organization's connection with this token",
          parts: { ...asText(world.otherProviderWebhook), token: good.token },
        },
        {
          flaw: "this organization's lemlist connection with the Smartlead connection's token",
          parts: { ...good, connection: String(world.lemlistWebhook.connection) },
        },
        {
          flaw: 'the ids swapped',
          parts: { ...good, organization: good.connection, connection: good.organization },
        },
      ),
    )
    // An organization and a connection may have the same id, and then swapping them changes nothing.
    .filter(({ parts }) =>
      (Object.keys(good) as (keyof UrlParts)[]).some((part) => parts[part] !== good[part]),
    );
  /** Bodies no payload is: malformed JSON, or JSON whose value is no object or array. */
  const notAPayload = fc
    .oneof(notAJsonObject, fc.constant(''), notAString)
    .filter((body) => !isPayload(body));
  /** A JSON object body of `bytes` bytes or more, its padding made of `unit` (several bytes in UTF-8 but `x`). */
  const paddedBody = (bytes: number, unit: string) => {
    const overhead = Buffer.byteLength(membersText([...goodMembers, ['padding', '""']]));
    const count = Math.ceil((bytes - overhead) / Buffer.byteLength(unit));
    return membersText([...goodMembers, ['padding', json(unit.repeat(count))]]);
  };

  return fc.oneof(
    ...requestFlaws(route, valid),
    // The route without its token is no route at all.
    fc.constant<Case>({
      flaw: 'no token',
      request: { ...valid, url: post(good).url.replace(/\/[^/]*$/, '') },
      status: 404,
      protocol: 'message',
      message: NOT_FOUND,
    }),
    fc
      .tuple(wrongUrl, anyBody)
      .map(([{ flaw, parts }, body]) =>
        denied(`${flaw}, body ${String(body).slice(0, 60)}`, post(parts, body)),
      ),
    // Smartlead signs with the secret its webhook was given: the URL's token, nothing else.
    fc
      .tuple(
        fc.oneof(
          wrongTokens(good.token).map(json),
          notAString,
          fc.constantFrom(json(world.staleProviderToken), json(''), json(good.token.toUpperCase())),
        ),
        fc.array(fc.tuple(prototypeName, prototypeKeyedJson), { maxLength: 2 }),
      )
      .map(([secret, extra]) =>
        denied(
          `secret_key ${secret.slice(0, 80)}`,
          post(good, membersText([...extra, ...goodMembers, ['secret_key', secret]])),
        ),
      ),
    // Deeper than the API's bodies may nest, whatever the URL: refused before anything parses it.
    fc.tuple(nestedJson(1), fc.oneof(fc.constant({ flaw: 'the right URL', parts: good }), wrongUrl)).map(
      ([{ levels, text }, { flaw, parts }]): Case => ({
        flaw: `a payload ${levels} levels deep to ${flaw}`,
        request: post(parts, membersText([...goodMembers, ['data', text]])),
        status: 400,
        protocol: 'message',
        message: JSON_TOO_DEEP_MESSAGE,
      }),
    ),
    notAPayload.map(
      (body): Case => ({
        flaw: `body ${JSON.stringify(body).slice(0, 100)}`,
        request: post(good, body),
        status: 400,
        protocol: 'message',
      }),
    ),
    // The size is the first thing checked: whatever the URL and the body, past the limit is 413.
    fc
      .tuple(
        fc.oneof(
          fc.integer({ min: MAX_PROVIDER_WEBHOOK_BYTES + 1, max: MAX_PROVIDER_WEBHOOK_BYTES + 64 }),
          fc.integer({ min: MAX_PROVIDER_WEBHOOK_BYTES + 1, max: MAX_BODY_BYTES / 2 }),
        ),
        fc.constantFrom('x', 'é', '€', '😀'),
        fc.oneof(fc.constant({ flaw: 'the right URL', parts: good }), wrongUrl),
      )
      .map(
        ([bytes, unit, { flaw, parts }]): Case => ({
          flaw: `a body of ${bytes}+ bytes of ${unit} to ${flaw}`,
          request: post(parts, paddedBody(bytes, unit)),
          status: 413,
          protocol: 'message',
        }),
      ),
    // Accepted: the valid URL with a JSON object or array of any shape, a secret that is the token
    // (Smartlead) or any secret (lemlist, which has none), and any content type. Queued, never a 5xx.
    fc
      .tuple(
        fc.oneof(
          fc.constant({ flaw: 'the Smartlead connection', parts: good }),
          fc.constant({ flaw: 'the lemlist connection', parts: asText(world.lemlistWebhook) }),
        ),
        fc.oneof(
          fc.dictionary(unicode(20, 1), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }).map(json),
          fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }).map(json),
          fc
            .array(fc.tuple(prototypeName, prototypeKeyedJson), { minLength: 1, maxLength: 3 })
            .map((members) => membersText([...members, ...goodMembers])),
          fc.constant(membersText([...goodMembers, ['secret_key', json(good.token)]])),
          wrongTokens(good.token).map((secret) =>
            membersText([...goodMembers, ['secret_key', json(secret)]]),
          ),
          // Exactly as large as a payload may be.
          fc.constant(paddedBody(MAX_PROVIDER_WEBHOOK_BYTES, 'x')),
          // As deep as a payload may nest (its members are one level).
          fc
            .constantFrom('[', '{"a":')
            .map((open) =>
              membersText([
                ...goodMembers,
                [
                  'data',
                  `${open.repeat(MAX_JSON_DEPTH - 1)}null${(open === '[' ? ']' : '}').repeat(MAX_JSON_DEPTH - 1)}`,
                ],
              ]),
            ),
          // Characters JSON allows in a string but a queue message may not hold as they are.
          fc
            .constantFrom('\uffff', '\ufffe', '\u0000', '\u001f', '\ud800', '\u2028', '\u{10ffff}')
            .map((text) => membersText([...goodMembers, ['note', json(`x${text}x`)]])),
        ),
        fc.constantFrom(
          undefined,
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/json; charset=utf-8',
        ),
      )
      .filter(([{ parts }, body]) => parts !== good || signedBy(body, good.token))
      .map(([{ flaw, parts }, body, contentType]): Case => {
        const { 'content-type': _json, ...headers } = valid.headers;
        return {
          flaw: `accepted: ${flaw}, ${contentType ?? 'no content type'}, ${body.slice(0, 100)}`,
          request: {
            ...post(parts, body),
            headers: { ...headers, ...(contentType !== undefined && { 'content-type': contentType }) },
          },
          status: 200,
          protocol: 'ignored',
          ignoredBody: (answer) => expect(answer).toEqual({ received: true }),
          queued: true,
        };
      }),
  );
}
