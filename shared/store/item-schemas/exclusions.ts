import * as z from 'zod/mini';

// The item schemas of exclusions.ts: what its store reads (and checks) items with.

export const shardItem = z.object({ sk: z.string(), values: z.optional(z.set(z.string())) });

export const cooldownSetting = z.object({ cooldownDays: z._default(z.nullable(z.number()), null) });
