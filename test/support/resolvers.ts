import type { Resolver } from '#platform/ssrf.ts';

/** A resolver answering from a fixed table, as DNS would; a name it does not list has no address. */
export const resolverOf =
  (table: Record<string, string[]>): Resolver =>
  async (hostname) =>
    (table[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
