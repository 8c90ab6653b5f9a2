import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_METADATA_DOCUMENT_CACHE_SECONDS,
  MIN_METADATA_DOCUMENT_CACHE_SECONDS,
} from '#definitions/oauth-limits.ts';
import { documentCacheSeconds, isMetadataDocumentClientId } from '#domain/client-metadata-documents.ts';
import { getDocument } from '#platform/outbound-http.ts';
import type { Resolver } from '#platform/ssrf.ts';
import { resolverOf } from '../support/resolvers.ts';

/**
 * The fetch of a small public document (a client ID metadata document) under
 * the outbound HTTP policy: the SSRF checks of webhooks (public addresses
 * only in the cloud, at connect time too), no redirect followed, a size bound
 * however the body arrives, and a deadline; and which client ids name such a
 * document at all.
 */

const cloud = { allowLoopback: false };
const local = { allowLoopback: true };

let server: Server;
let base: string;
let hits = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    hits += 1;
    switch (request.url) {
      case '/small.json':
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
        return;
      case '/chunked.json':
        // No content-length: the bound holds on what arrives.
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write(`"${'a'.repeat(3000)}`);
        response.end(`${'b'.repeat(3000)}"`);
        return;
      case '/moved.json':
        response.writeHead(302, { location: '/small.json' }).end();
        return;
      case '/silent.json':
        // Never answers.
        return;
      default:
        response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const fetchDocument = (
  url: string,
  options: { policy?: typeof cloud; resolve?: Resolver; timeoutMs?: number } = {},
) =>
  getDocument({
    url,
    policy: options.policy ?? local,
    maxBytes: 5 * 1024,
    timeoutMs: options.timeoutMs ?? 2000,
    resolve: options.resolve,
  });

describe('getDocument', () => {
  it('reads a small document', async () => {
    expect(await fetchDocument(`${base}/small.json`)).toEqual({ ok: true, body: '{"ok":true}' });
  });

  it('refuses a body over the bound, announced or not, a redirect, and any status but 200', async () => {
    expect(await fetchDocument(`${base}/chunked.json`)).toEqual({
      ok: false,
      error: 'refused: over 5120 bytes',
    });
    const before = hits;
    expect(await fetchDocument(`${base}/moved.json`)).toEqual({
      ok: false,
      error: 'refused: a redirect (302)',
    });
    expect(hits).toBe(before + 1);
    expect(await fetchDocument(`${base}/missing.json`)).toEqual({ ok: false, error: 'status 404' });
  });

  it('gives up at its deadline', async () => {
    expect(await fetchDocument(`${base}/silent.json`, { timeoutMs: 200 })).toEqual({
      ok: false,
      error: 'timeout',
    });
  });

  it('reaches no loopback, private or metadata address in the cloud, nor any address over http', async () => {
    const before = hits;
    expect((await fetchDocument(`${base}/small.json`, { policy: cloud })).ok).toBe(false);
    for (const url of ['https://127.0.0.1/doc.json', 'https://169.254.169.254/latest/meta-data/']) {
      expect(await fetchDocument(url, { policy: cloud })).toMatchObject({
        ok: false,
        error: expect.stringMatching(/address refused/),
      });
    }
    const rebound = await fetchDocument('https://documents.test/doc.json', {
      policy: cloud,
      resolve: resolverOf({ 'documents.test': ['10.0.0.1'] }),
    });
    expect(rebound).toMatchObject({ ok: false, error: expect.stringMatching(/address refused/) });
    expect(hits).toBe(before);
  });
});

describe('isMetadataDocumentClientId', () => {
  it.each([
    ['https://assistant.example/oauth/client.json', cloud, true],
    ['https://assistant.example/', cloud, false],
    ['https://assistant.example', cloud, false],
    ['https://assistant.example/client.json#x', cloud, false],
    ['https://user:secret@assistant.example/client.json', cloud, false],
    ['https://assistant.example/a/../client.json', cloud, false],
    ['https://ASSISTANT.example/client.json', cloud, false],
    ['https://assistant.example:443/client.json', cloud, false],
    [`https://assistant.example/${'a'.repeat(500)}`, cloud, false],
    ['http://127.0.0.1:8080/client.json', cloud, false],
    ['http://127.0.0.1:8080/client.json', local, true],
    ['http://assistant.example/client.json', local, false],
    ['mcp_abcdefghijklmnop', cloud, false],
  ])('%s (loopback allowed: %o) → %s', (clientId, policy, expected) => {
    expect(isMetadataDocumentClientId(clientId, policy)).toBe(expected);
  });
});

describe('documentCacheSeconds: how long a fetched document is kept', () => {
  const least = MIN_METADATA_DOCUMENT_CACHE_SECONDS;
  const most = MAX_METADATA_DOCUMENT_CACHE_SECONDS;
  it.each([
    ['public, max-age=600, must-revalidate', 600],
    ['max-age="900"', 900],
    ['Max-Age=120', 120],
    ['max-age=86400', most],
    ['max-age=0', least],
    ['max-age=5', least],
    ['max-age=600, no-cache', least],
    ['no-store', least],
    ['private', least],
    ['max-age=soon', least],
    [undefined, least],
  ])('Cache-Control %s → %d s', (cacheControl, expected) => {
    expect(documentCacheSeconds(cacheControl)).toBe(expected);
  });
});
