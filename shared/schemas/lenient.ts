import * as z from 'zod/mini';
import { _catch } from 'zod/v4/core';

/**
 * Core's builder of a catch schema, typed as zod/mini's `catch` is: its own
 * type names object schemas only, but it wraps any schema alike.
 */
const catchSchema = _catch as unknown as <T extends z.core.SomeType>(
  Class: typeof z.ZodMiniCatch,
  innerType: T,
  catchValue: undefined,
) => z.ZodMiniCatch<T>;

/**
 * `schema`, reading a value it refuses as absent (`undefined`) instead of
 * failing: a lenient field of an untrusted payload (a provider's webhook or
 * API answer), so that one odd field never hides the rest. It builds exactly
 * what `z.catch(schema, undefined)` builds, through zod's core: zod/mini's
 * `catch` reaches zod's util module through a namespace object, which keeps
 * the whole module (about 9 KiB) in every bundle that calls it.
 */
export const lenient = <T extends z.core.SomeType>(schema: T): z.ZodMiniCatch<T> =>
  catchSchema(z.ZodMiniCatch, schema, undefined);
