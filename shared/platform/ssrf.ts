import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, isIPv4, isIPv6, type LookupFunction } from 'node:net';
import { type Configuration, configuration } from './config.ts';

/**
 * SSRF protection for subscriber URLs. Webhooks reach public addresses only:
 * loopback, private, link-local, CGNAT, multicast, reserved and cloud-metadata
 * addresses are refused, in IPv4 and IPv6 alike, including the forms that
 * embed an IPv4 address (IPv4-mapped, NAT64, 6to4). The same check runs when
 * a subscription is saved (the URL's host, resolved) and when a delivery
 * connects (a `lookup` that refuses such addresses, so a name that resolves
 * elsewhere at delivery time — DNS rebinding — is refused too).
 *
 * https only; the local stack (and only it) configures
 * `webhooks.allowHttpLoopback` so that http to a receiver on this machine works.
 * Every outbound transport (webhook deliveries, client metadata documents,
 * the provider clients) takes its URL check and its connect-time lookup from
 * here (`requestUrlRefusal`, `connectLookup`), so plain http reaches loopback
 * only, whichever sends it: an http request may carry a secret (a provider's
 * API key), which must never cross a network in clear text.
 */

/** What kind of address an IP is; only `public` is reachable in the cloud. */
export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'multicast'
  | 'metadata'
  | 'reserved'
  | 'invalid';

/** Whether webhooks may reach loopback addresses over http (the local stack only). */
export interface UrlPolicy {
  allowLoopback: boolean;
}

/** The policy of the configuration (the process's by default): loopback only on the local stack; never on AWS. */
export const configuredUrlPolicy = (config: Configuration = configuration()): UrlPolicy => ({
  allowLoopback: config.webhooks.allowHttpLoopback,
});

/** Cloud metadata endpoints (AWS, ECS, EKS, GCP/Azure share 169.254.169.254, Alibaba, Oracle). */
const METADATA_V4 = new Set([
  '169.254.169.254',
  '169.254.169.253',
  '169.254.169.123',
  '169.254.170.2',
  '169.254.170.23',
  '100.100.100.200',
  '192.0.0.192',
]);
/** AWS's IPv6 instance metadata and EKS pod identity endpoints (inside fc00::/7). */
const METADATA_V6 = new Set(['fd00:ec2:0:0:0:0:0:254', 'fd00:ec2:0:0:0:0:0:23']);

function parseIPv4(text: string): number[] | null {
  if (!isIPv4(text)) return null;
  return text.split('.').map(Number);
}

/** Eight 16-bit groups of an IPv6 address (zone and brackets dropped), or null. */
function parseIPv6(raw: string): number[] | null {
  let text = raw.replace(/^\[|\]$/g, '');
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  if (!isIPv6(text)) return null;
  // A dotted IPv4 tail (::ffff:1.2.3.4) becomes two hex groups.
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseIPv4(tail);
    if (!v4) return null;
    text = `${text.slice(0, lastColon + 1)}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const restGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const missing = 8 - headGroups.length - restGroups.length;
  if (rest === undefined ? missing !== 0 : missing < 1) return null;
  return [...headGroups, ...Array<string>(rest === undefined ? 0 : missing).fill('0'), ...restGroups].map(
    (group) => Number.parseInt(group, 16),
  );
}

function classifyIPv4([a, b, c, d]: number[]): AddressClass {
  const address = `${a}.${b}.${c}.${d}`;
  if (METADATA_V4.has(address)) return 'metadata';
  if (a === 0) return 'unspecified'; // 0.0.0.0/8: "this network", reaches the local host on Linux
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 100 && b! >= 64 && b! <= 127) return 'cgnat';
  if (a === 169 && b === 254) return 'link-local';
  if (a! >= 224 && a! <= 239) return 'multicast';
  if (a! >= 240) return 'reserved'; // 240/4 and the broadcast address
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return 'reserved'; // IETF assignments, TEST-NET-1
  if (a === 192 && b === 88 && c === 99) return 'reserved'; // 6to4 relay anycast
  if (a === 198 && (b === 18 || b === 19)) return 'reserved'; // benchmarking
  if ((a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) return 'reserved'; // TEST-NET-2/3
  return 'public';
}

const embeddedIPv4 = (high: number, low: number): number[] => [high >> 8, high & 0xff, low >> 8, low & 0xff];

function classifyIPv6(groups: number[]): AddressClass {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (METADATA_V6.has(groups.map((group) => group.toString(16)).join(':'))) return 'metadata';
  const firstFiveZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (firstFiveZero && g5 === 0xffff) return classifyIPv4(embeddedIPv4(g6, g7)); // ::ffff:a.b.c.d
  if (firstFiveZero && g5 === 0) {
    if (g6 === 0 && g7 === 0) return 'unspecified';
    if (g6 === 0 && g7 === 1) return 'loopback';
    return 'reserved'; // IPv4-compatible (::a.b.c.d), deprecated
  }
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return classifyIPv4(embeddedIPv4(g6, g7)); // NAT64 well-known prefix
  }
  if (g0 === 0x2002) return classifyIPv4(embeddedIPv4(g1, g2)); // 6to4
  if ((g0 & 0xfe00) === 0xfc00) return 'private'; // unique local fc00::/7
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  // Global unicast is 2000::/3; within it, IETF assignments (Teredo, ORCHID…) and documentation are not.
  if ((g0 & 0xe000) !== 0x2000) return 'reserved';
  if (g0 === 0x2001 && g1 < 0x200) return 'reserved';
  if (g0 === 0x2001 && g1 === 0xdb8) return 'reserved';
  return 'public';
}

/** Classifies an IP address (IPv4, or IPv6 with or without brackets); anything else is `invalid`. */
export function classifyAddress(address: string): AddressClass {
  const v4 = parseIPv4(address);
  if (v4) return classifyIPv4(v4);
  const v6 = parseIPv6(address);
  return v6 ? classifyIPv6(v6) : 'invalid';
}

/** Whether a delivery may connect to the address under the policy. */
export function isAllowedAddress(address: string, policy: UrlPolicy): boolean {
  const kind = classifyAddress(address);
  return kind === 'public' || (kind === 'loopback' && policy.allowLoopback);
}

/** Thrown when a subscriber URL or the address it resolves to may not be reached; the message says why. */
export class UrlRefusedError extends Error {}

/** Resolves a host name to every address it has (the DNS check's input; tests inject their own). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

/** The system resolver (getaddrinfo, as connections use), every address. */
export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    );
  });

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * Why an address is refused, naming the rule and never the address: the
 * address a name resolves to would map a tenant's view of internal DNS.
 */
function refusal(kind: AddressClass, literal: boolean): UrlRefusedError {
  const what = kind === 'metadata' ? 'a cloud metadata' : `a ${kind}`;
  return new UrlRefusedError(
    literal
      ? `the host is ${what} address, which webhooks may not reach`
      : `the host resolves to ${what} address, which webhooks may not reach`,
  );
}

/**
 * Checks a subscriber URL when it is saved: absolute https (http only to
 * loopback when the policy allows), no credentials, and a host whose every
 * address is allowed. Returns the normalized URL; throws UrlRefusedError.
 */
export async function checkWebhookUrl(
  raw: string,
  policy: UrlPolicy,
  resolve: Resolver = systemResolver,
): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRefusedError('must be an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UrlRefusedError('must use https');
  if (url.protocol === 'http:' && !policy.allowLoopback) throw new UrlRefusedError('must use https');
  if (url.username || url.password) throw new UrlRefusedError('must not contain credentials');
  const host = hostOf(url);
  const literal = isIP(host) !== 0;
  let addresses: string[];
  if (literal) addresses = [host];
  else {
    try {
      addresses = (await resolve(host)).map((entry) => entry.address);
    } catch {
      throw new UrlRefusedError(`host ${host} does not resolve`);
    }
    if (addresses.length === 0) throw new UrlRefusedError(`host ${host} does not resolve`);
  }
  for (const address of addresses) {
    if (!isAllowedAddress(address, policy)) throw refusal(classifyAddress(address), literal);
  }
  // http is a local-stack convenience for a receiver on this machine, nothing else.
  if (url.protocol === 'http:' && !addresses.every((address) => classifyAddress(address) === 'loopback')) {
    throw new UrlRefusedError('must use https (http only reaches this machine, in the local stack)');
  }
  return url.href;
}

/**
 * A `lookup` for http(s).request that resolves with `resolve` and fails the
 * connection when any address is not allowed: the check happens at connect
 * time, on the addresses actually used.
 */
export function guardedLookup(policy: UrlPolicy, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = addresses.filter((entry) => family === 0 || entry.family === family);
        const refused = addresses.find((entry) => !isAllowedAddress(entry.address, policy));
        if (refused) {
          const error = refusal(classifyAddress(refused.address), false) as NodeJS.ErrnoException;
          error.code = 'EADDRREFUSED';
          callback(error, '', 0);
          return;
        }
        if (usable.length === 0) {
          const error = new Error(`host ${hostname} has no usable address`) as NodeJS.ErrnoException;
          error.code = 'ENOTFOUND';
          callback(error, '', 0);
          return;
        }
        if (options.all) callback(null, usable);
        else callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

/**
 * Why a request to `url` may not be sent under the policy, or null: https
 * (http only where the policy allows loopback), and an IP literal (connected
 * to without a lookup, so checked here) of an allowed class, and loopback for
 * http. `address` tells an address refusal from a scheme refusal.
 */
export function requestUrlRefusal(url: URL, policy: UrlPolicy): { address: boolean; reason: string } | null {
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowLoopback)) {
    return { address: false, reason: 'not https' };
  }
  const host = hostOf(url);
  if (isIP(host) === 0) return null;
  if (!isAllowedAddress(host, policy)) {
    return { address: true, reason: `the host is a ${classifyAddress(host)} address` };
  }
  if (url.protocol === 'http:' && classifyAddress(host) !== 'loopback') {
    return { address: false, reason: 'not https' };
  }
  return null;
}

/** For http: a name must resolve to loopback addresses only, every one of them. */
function loopbackOnly(resolve: Resolver): Resolver {
  return async (hostname) => {
    const addresses = await resolve(hostname);
    const outside = addresses.find((entry) => classifyAddress(entry.address) !== 'loopback');
    if (outside) {
      const error = new Error(
        `http reaches loopback only, and ${hostname} resolves to a ${classifyAddress(outside.address)} address`,
      ) as NodeJS.ErrnoException;
      error.code = 'EADDRREFUSED';
      throw error;
    }
    return addresses;
  };
}

/**
 * The lookup the socket of a request to `url` connects with: the policy's for
 * https; for http, loopback only (a name that resolves, or rebinds, anywhere
 * else fails the connection before a byte is sent).
 */
export function connectLookup(
  url: URL,
  policy: UrlPolicy,
  resolve: Resolver = systemResolver,
): LookupFunction {
  return url.protocol === 'http:'
    ? guardedLookup({ allowLoopback: true }, loopbackOnly(resolve))
    : guardedLookup(policy, resolve);
}
