import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook } from '#platform/outbound-http.ts';
import {
  type AddressClass,
  checkWebhookUrl,
  classifyAddress,
  isAllowedAddress,
  type Resolver,
} from '#platform/ssrf.ts';

/**
 * SSRF protection: the address classifier (IPv4, IPv6 and the IPv6 forms that
 * embed IPv4), the URL check at subscribe time, and the check at connect time
 * that defeats DNS rebinding.
 */

const cloud = { allowLoopback: false };
const local = { allowLoopback: true };
/** A resolver answering from a fixed table, as DNS would. */
const resolverOf =
  (table: Record<string, string[]>): Resolver =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('classifyAddress', () => {
  it.each<[string, AddressClass]>([
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['169.254.1.1', 'link-local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.254', 'cgnat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['::ffff:8.8.8.8', 'public'],
    ['::127.0.0.1', 'reserved'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:0808:0808::1', 'public'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fd00:ec2::254', 'metadata'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['2001::1', 'reserved'],
    ['100::1', 'reserved'],
    ['2606:4700:4700::1111', 'public'],
    ['2a00:1450:4001:81c::200e', 'public'],
    ['example.com', 'invalid'],
    ['1.2.3', 'invalid'],
  ])('classifies %s as %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it('allows loopback only when the policy says so (the local stack), and nothing else private', () => {
    expect(isAllowedAddress('127.0.0.1', cloud)).toBe(false);
    expect(isAllowedAddress('127.0.0.1', local)).toBe(true);
    expect(isAllowedAddress('::ffff:127.0.0.1', local)).toBe(true);
    expect(isAllowedAddress('10.0.0.1', local)).toBe(false);
    expect(isAllowedAddress('169.254.169.254', local)).toBe(false);
    expect(isAllowedAddress('8.8.8.8', cloud)).toBe(true);
  });
});

describe('checkWebhookUrl (at subscribe time)', () => {
  const dns = resolverOf({
    'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    'internal.example.com': ['10.0.0.5'],
    'mixed.example.com': ['93.184.216.34', '192.168.0.10'],
    'metadata.example.com': ['169.254.169.254'],
    'v6private.example.com': ['fd00::5'],
    localhost: ['127.0.0.1', '::1'],
  });

  it('accepts an https URL whose host resolves to public addresses only, normalized', async () => {
    await expect(checkWebhookUrl('https://Hooks.Example.com/in?x=1', cloud, dns)).resolves.toBe(
      'https://hooks.example.com/in?x=1',
    );
    await expect(checkWebhookUrl('https://8.8.8.8/hook', cloud, dns)).resolves.toBe('https://8.8.8.8/hook');
  });

  it.each([
    ['https://10.0.0.1/hook', /^the host is a private address/],
    ['https://169.254.169.254/latest/meta-data/', /cloud metadata/],
    ['https://[::1]/hook', /^the host is a loopback address/],
    ['https://[::ffff:127.0.0.1]/hook', /loopback/],
    ['https://[::ffff:169.254.169.254]/', /cloud metadata/],
    ['https://[fe80::1]/', /link-local/],
    ['https://100.64.1.1/', /cgnat/],
    ['https://224.0.0.1/', /multicast/],
    ['https://0.0.0.0/', /unspecified/],
    ['https://2130706433/', /^the host is a loopback/],
    ['https://0x7f.1/', /^the host is a loopback/],
    [
      'https://internal.example.com/hook',
      /^the host resolves to a private address, which webhooks may not reach$/,
    ],
    ['https://mixed.example.com/hook', /^the host resolves to a private address/],
    ['https://metadata.example.com/', /cloud metadata/],
    ['https://v6private.example.com/', /private/],
    ['https://localhost/hook', /loopback/],
    ['http://hooks.example.com/hook', /must use https/],
    ['ftp://hooks.example.com/', /must use https/],
    ['https://user:pass@hooks.example.com/', /credentials/],
    ['not a url', /absolute URL/],
    ['https://nowhere.example.com/', /does not resolve/],
  ])('refuses %s in the cloud', async (url, reason) => {
    await expect(checkWebhookUrl(url, cloud, dns)).rejects.toThrow(reason);
  });

  it('allows http and https to loopback in the local stack, but http nowhere else', async () => {
    await expect(checkWebhookUrl('http://127.0.0.1:8080/in', local, dns)).resolves.toBe(
      'http://127.0.0.1:8080/in',
    );
    await expect(checkWebhookUrl('http://localhost:8080/in', local, dns)).resolves.toBe(
      'http://localhost:8080/in',
    );
    await expect(checkWebhookUrl('https://[::1]/in', local, dns)).resolves.toBe('https://[::1]/in');
    await expect(checkWebhookUrl('http://hooks.example.com/in', local, dns)).rejects.toThrow(
      /must use https/,
    );
    await expect(checkWebhookUrl('http://10.0.0.1/in', local, dns)).rejects.toThrow(/private/);
  });

  it('resolves real names with the system resolver', async () => {
    await expect(checkWebhookUrl('https://localhost/hook', cloud)).rejects.toThrow(/resolves to .*loopback/);
  });
});

describe('postWebhook (at connect time)', () => {
  let server: Server;
  let port: number;
  let received = 0;

  beforeAll(async () => {
    server = createServer((request, response) => {
      received += 1;
      request.resume();
      request.on('end', () => response.writeHead(204).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const send = (url: string, options: { policy?: typeof cloud; resolve?: Resolver } = {}) =>
    postWebhook({
      url,
      body: '{}',
      headers: {},
      policy: options.policy ?? local,
      resolve: options.resolve,
      timeoutMs: 2000,
    });

  it('delivers to a name that resolves to an allowed address', async () => {
    const result = await send(`http://receiver.test:${port}/in`, {
      resolve: resolverOf({ 'receiver.test': ['127.0.0.1'] }),
    });
    expect(result).toMatchObject({ ok: true, statusCode: 204, error: null });
  });

  it('refuses a name that resolves to a private address now, though it passed when subscribed (DNS rebinding)', async () => {
    // Prepare: the name pointed at a public address when the subscription was saved.
    let answers = ['93.184.216.34'];
    const rebinding: Resolver = async () => answers.map((address) => ({ address, family: 4 }));
    await expect(checkWebhookUrl('https://rebind.test/in', cloud, rebinding)).resolves.toBeDefined();
    answers = ['10.0.0.1'];
    const before = received;

    // Act
    const result = await send(`https://rebind.test:${port}/in`, { policy: cloud, resolve: rebinding });

    // Assess
    expect(result).toMatchObject({ ok: false, statusCode: null });
    expect(result.error).toMatch(/address refused: the host resolves to a private address/);
    expect(received).toBe(before);
  });

  it('refuses loopback, metadata and mapped literals without connecting', async () => {
    const before = received;
    for (const url of [
      `https://127.0.0.1:${port}/`,
      `https://[::ffff:127.0.0.1]:${port}/`,
      'https://169.254.169.254/latest/meta-data/',
      'https://[::1]/',
    ]) {
      expect((await send(url, { policy: cloud })).error).toMatch(/address refused/);
    }
    expect(received).toBe(before);
  });

  it('refuses http in the cloud, and http to a name that resolves outside loopback locally', async () => {
    expect((await send(`http://127.0.0.1:${port}/`, { policy: cloud })).error).toBe('refused: not https');
    const outside = await send(`http://receiver.test:${port}/`, {
      resolve: resolverOf({ 'receiver.test': ['93.184.216.34'] }),
    });
    expect(outside.error).toMatch(/address refused: http reaches loopback only/);
  });
});
