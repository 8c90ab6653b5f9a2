import type { APIGatewayProxyEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { conditionalAnswer, pageLinks, withProblemDetails } from '#api/http/conventions.ts';
import { chosenCoding } from '../../infra/local/compression.ts';

const event = (query: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  ({
    resource: '/public/v1/webhooks/{id}/deliveries',
    path: '/public/v1/webhooks/3/deliveries',
    httpMethod: 'GET',
    headers,
    pathParameters: { id: '3' },
    queryStringParameters: query,
    requestContext: { domainName: '127.0.0.1:3000', stage: 'local' },
  }) as unknown as APIGatewayProxyEvent;

describe('Link headers of the cursor styles', () => {
  it('link the next page of a numeric or opaque cursor, none on the last page', () => {
    const base = 'http://127.0.0.1:3000/public/v1/webhooks/3/deliveries';
    expect(pageLinks(event({ take: '2' }), { take: 2 }, { data: [], next: 41 })).toBe(
      `<${base}?take=2&cursor=41>; rel="next"`,
    );
    expect(pageLinks(event({ cursor: 'a' }), {}, { data: [], next: 'b_c' })).toBe(
      `<${base}?cursor=b_c>; rel="next"`,
    );
    // Jobs say their last page with 0, the other cursors with null.
    expect(pageLinks(event(), {}, { domain: 'x.com', jobs: [], next: 0 })).toBeUndefined();
    expect(pageLinks(event(), {}, { data: [], next: null })).toBeUndefined();
  });
});

describe('conditional GETs and problem details', () => {
  it('answer 304 with the ETag and no body to a weakly matching If-None-Match, or *', () => {
    const answer = { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{"a":1}' };
    const { headers } = conditionalAnswer(event(), answer);
    const etag = String(headers?.etag);
    expect(conditionalAnswer(event({}, { 'If-None-Match': etag.slice(2) }), answer)).toEqual({
      statusCode: 304,
      headers: { etag },
      body: '',
    });
    expect(conditionalAnswer(event({}, { 'if-none-match': '*' }), answer).statusCode).toBe(304);
  });

  it('adds the RFC 9457 members to OAuth’s and JSON-RPC’s error bodies too', () => {
    const oauth = withProblemDetails(event(), {
      statusCode: 400,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: 'invalid_grant', error_description: 'The code has expired' }),
    });
    expect(JSON.parse(oauth.body)).toMatchObject({
      error: 'invalid_grant',
      status: 400,
      title: 'Bad Request',
      detail: 'The code has expired',
      type: 'http://127.0.0.1:3000/docs#errors-bad-request',
    });
  });
});

describe('the local gateway’s content coding', () => {
  it('takes the coding the client weighs highest, none for identity or q=0', () => {
    expect(chosenCoding('gzip, br;q=0.9')).toBe('gzip');
    expect(chosenCoding('gzip;q=0.5, deflate')).toBe('deflate');
    expect(chosenCoding('identity')).toBeNull();
    expect(chosenCoding('br;q=0')).toBeNull();
    expect(chosenCoding(undefined)).toBeNull();
  });
});
