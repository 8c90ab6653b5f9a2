import { describe, expect, it } from 'vitest';
import type { GatewayExchange } from '../../infra/local/gateway.ts';
import { contractViolations } from '../support/contract.ts';

/** The e2e contract check (test/support/contract.ts) passes what the document describes and nothing else. */

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };
const exchange = (overrides: Partial<GatewayExchange>): GatewayExchange => ({
  method: 'GET',
  routePath: '/public/v1/campaigns/{id}',
  path: '/public/v1/campaigns/7',
  status: 404,
  headers: JSON_TYPE,
  body: JSON.stringify({
    message: 'Campaign 7 not found',
    type: 'http://127.0.0.1/docs#errors-not-found',
    title: 'Not Found',
    status: 404,
  }),
  ...overrides,
});

describe('the contract check', () => {
  it('passes documented responses: a handler’s error, the gateway’s own, an HTML page', () => {
    expect(contractViolations(exchange({}))).toEqual([]);
    expect(
      contractViolations(
        exchange({ routePath: null, path: '/nope', headers: { 'content-type': 'application/json' } }),
      ),
    ).toEqual([]);
    expect(
      contractViolations(
        exchange({
          routePath: '/docs',
          path: '/docs',
          status: 200,
          headers: { 'content-type': 'text/html; charset=utf-8' },
          body: '<!doctype html>',
        }),
      ),
    ).toEqual([]);
  });

  it('refuses a status the operation does not list', () => {
    expect(contractViolations(exchange({ status: 409 }))).toEqual([
      expect.stringMatching(/^status 409, which the document does not list/),
    ]);
  });

  it('refuses a body the schema does not accept', () => {
    expect(contractViolations(exchange({ body: JSON.stringify({ error: 'x' }) }))).toEqual([
      expect.stringMatching(/^a body the schema refuses: .*message/),
    ]);
    const campaign = exchange({ status: 200, body: JSON.stringify({ id: 7, icp_id: 7 }) });
    expect(contractViolations(campaign)).toEqual([expect.stringMatching(/^a body the schema refuses/)]);
  });

  it('refuses another media type and a missing required header', () => {
    expect(contractViolations(exchange({ headers: { 'content-type': 'text/plain' } }))).toEqual([
      'content-type text/plain where the document has application/json, application/problem+json',
    ]);
    const throttled = exchange({
      status: 429,
      body: JSON.stringify({
        message: 'Too many requests',
        type: 'about:blank',
        title: 'Too Many Requests',
        status: 429,
      }),
    });
    expect(contractViolations(throttled)).toEqual(['no Retry-After header']);
    expect(contractViolations({ ...throttled, headers: { ...JSON_TYPE, 'Retry-After': '1' } })).toEqual([]);
  });

  it('refuses a gateway answer that is not one of its own', () => {
    expect(contractViolations(exchange({ routePath: null, status: 418 }))).toEqual([
      'status 418 from the gateway itself',
    ]);
  });

  it('takes 405 {message} from /mcp for a method it does not document, and nothing else', () => {
    const refused = exchange({
      method: 'GET',
      routePath: '/mcp',
      path: '/mcp',
      status: 405,
      body: JSON.stringify({
        message: 'Method not allowed',
        type: 'about:blank',
        title: 'Method Not Allowed',
        status: 405,
      }),
    });
    expect(contractViolations(refused)).toEqual([]);
    expect(contractViolations({ ...refused, status: 200 })).toEqual([
      'no operation get /mcp in the document',
    ]);
  });
});
