import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { lenient } from '#schemas/lenient.ts';

/** `lenient(schema)` is `z.catch(schema, undefined)` without zod/mini's `catch` (shared/schemas/lenient.ts). */

const inners = {
  text: () => z.optional(z.string()),
  id: () => z.optional(z.union([z.string(), z.number()])),
  flags: () => z.nullish(z.array(z.object({ on: lenient(z.optional(z.boolean())) }))),
};
const values = [undefined, null, 'text', 42, true, [], [{ on: true }, { on: 'yes' }], { on: 1 }];

describe('a lenient field', () => {
  it.each(Object.entries(inners))(
    '%s: reads what z.catch(schema, undefined) reads, and is described alike',
    (_, inner) => {
      const built = lenient(inner());
      const reference = z.catch(inner(), undefined);
      for (const value of values) expect(z.safeParse(built, value)).toEqual(z.safeParse(reference, value));
      for (const io of ['input', 'output'] as const) {
        expect(z.toJSONSchema(built, { io })).toEqual(z.toJSONSchema(reference, { io }));
      }
      expect(built).toBeInstanceOf(z.ZodMiniCatch);
      expect(built._zod.def.catchValue({} as never)).toBeUndefined();
      // The constant-catch mark z.catch puts on a value it is given, which zod's compiler reads.
      expect(Object.keys(built._zod.def.catchValue)).toEqual(Object.keys(reference._zod.def.catchValue));
    },
  );

  it('reads a value of another type as absent, and keeps a valid one', () => {
    const field = lenient(z.optional(z.number()));
    expect(z.parse(z.object({ count: field }), { count: 'many' })).toEqual({ count: undefined });
    expect(z.parse(z.object({ count: field }), { count: 3 })).toEqual({ count: 3 });
  });
});
