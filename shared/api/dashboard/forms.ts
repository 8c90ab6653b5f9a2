import * as z from 'zod/mini';
import { InputInvalid } from '#domain/errors.ts';
import { BODY_INPUT, describeIssue } from '#schemas/issues.ts';
import { idParam } from '#schemas/params.ts';

/**
 * A form's values through the same zod schemas as the API's bodies: the
 * dashboard refuses exactly what the API refuses, in the same words.
 */
export function parseForm<T extends z.core.$ZodType>(schema: T, value: unknown): z.output<T> {
  const result = z.safeParse(schema, value);
  if (!result.success) throw new InputInvalid(describeIssue(BODY_INPUT, result.error));
  return result.data;
}

/** An id in a page's path or a form (`/dashboard/webhooks/{id}`); InputInvalid otherwise. */
export function idOf(raw: string | undefined, what: string): number {
  const result = idParam.safeParse(raw);
  if (!result.success) throw new InputInvalid(`${what} must be a positive whole number`);
  return result.data;
}
