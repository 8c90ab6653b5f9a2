import diagnostics from 'node:diagnostics_channel';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyAddress, type Resolver } from '#platform/ssrf.ts';
import { providerHttp } from '#providers/transport.ts';
import { resolverOf } from '../support/resolvers.ts';

/**
 * The provider transport's rule for plain http: it reaches loopback only (the
 * local stack's emulators), as webhooks do, checked on the addresses the
 * socket is handed at connect time. A name that resolves, or rebinds, to any
 * other address is refused before a byte (and so the API key, which travels
 * in the request) leaves the process.
 */

const KEY = 'provider-secret-key';
const local = { allowLoopback: true };

let server: Server;
let port: number;
/** The API keys the loopback listener received. */
const received: string[] = [];

/**
 * Every address a client socket was handed by its lookup, seen through Node's
 * `net.client.socket` channel. The test also cuts any connection attempt to
 * an address outside loopback as it starts (on the next tick: Node cannot take
 * it within the event), long before a remote end could accept a byte, so that
 * even a failing run sends no key off this machine; the handed address still
 * fails the test.
 */
const handedAddresses: string[] = [];
const watchSocket = (message: unknown) => {
  const { socket } = message as { socket: Socket };
  socket.on('lookup', (error: Error | null, address: string | undefined) => {
    if (!error && address) handedAddresses.push(address);
  });
  socket.on('connectionAttempt', (address: string) => {
    if (classifyAddress(address) !== 'loopback') process.nextTick(() => socket.destroy());
  });
};

beforeAll(async () => {
  server = createServer((request, response) => {
    received.push(String(request.headers['x-api-key'] ?? ''));
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  diagnostics.subscribe('net.client.socket', watchSocket);
});
afterAll(async () => {
  diagnostics.unsubscribe('net.client.socket', watchSocket);
  await new Promise((resolve) => server.close(resolve));
});

const call = (baseUrl: string, resolve: Resolver) =>
  providerHttp(baseUrl, { policy: local, resolve, timeoutMs: 10_000 })({
    method: 'POST',
    path: '/leads',
    headers: { 'x-api-key': KEY },
    body: { email: 'lead@example.com' },
  });

describe('providerHttp over plain http', () => {
  it('reaches a name that resolves to loopback (the emulators)', async () => {
    handedAddresses.length = 0;
    const answer = await call(
      `http://emulator.test:${port}/api`,
      resolverOf({ 'emulator.test': ['127.0.0.1'] }),
    );
    expect(answer.status).toBe(200);
    expect(received).toContain(KEY);
    expect(handedAddresses).toEqual(['127.0.0.1']);
  });

  it('refuses a name that resolves to a public address, connecting nowhere', async () => {
    handedAddresses.length = 0;
    const before = received.length;
    const refusal = await call(
      `http://rebound.test:${port}/api`,
      resolverOf({ 'rebound.test': ['93.184.216.34'] }),
    ).catch((error: unknown) => error);
    expect({ handedAddresses, keysReceived: received.length - before }).toEqual({
      handedAddresses: [],
      keysReceived: 0,
    });
    expect(refusal).toMatchObject({ kind: 'unavailable', message: 'provider address refused' });
  });

  it('refuses a name that resolves to loopback and elsewhere: the key reaches no one', async () => {
    handedAddresses.length = 0;
    const before = received.length;
    const refusal = await call(
      `http://mixed.test:${port}/api`,
      resolverOf({ 'mixed.test': ['127.0.0.1', '93.184.216.34'] }),
    ).catch((error: unknown) => error);
    expect({ handedAddresses, keysReceived: received.length - before }).toEqual({
      handedAddresses: [],
      keysReceived: 0,
    });
    expect(refusal).toMatchObject({ kind: 'unavailable', message: 'provider address refused' });
  });

  it('refuses an http URL whose host is a literal outside loopback without a lookup', async () => {
    await expect(call(`http://93.184.216.34:${port}/api`, resolverOf({}))).rejects.toMatchObject({
      kind: 'refused',
    });
  });
});
