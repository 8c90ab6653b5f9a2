import * as z from 'zod/mini';

/**
 * Reading a command's flags and positionals. Anything that does not fit the
 * usage is a UsageError, which the CLI answers with the command's usage and
 * exit code 2. Values an API operation takes are validated by that
 * operation's own zod schema (`validatedFlags`), so the CLI holds them to the
 * same bounds as the API.
 */

export type Flags = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** Thrown for a command line that does not fit the usage; the CLI exits 2. */
export class UsageError extends Error {}

/** A flag that must be a whole number within bounds. */
export function wholeNumberFlag(name: string, raw: string, min: number, max: number): number {
  const value = /^[0-9]{1,6}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max))
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
  return value;
}

export function optionalString(flags: Flags, name: string): string | undefined {
  const value = flags[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} needs a value`);
  return value;
}

export function requiredString(flags: Flags, name: string): string {
  const value = flags[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

export function requiredId(flags: Flags, name: string): number {
  const value = Number(requiredString(flags, name));
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new UsageError(`--${name} must be a positive integer`);
  return value;
}

/** The positionals a command expects, exactly. */
export function expectPositionals(positionals: string[], names: string[]): string[] {
  if (positionals.length < names.length) throw new UsageError(`${names[positionals.length]} is required`);
  if (positionals.length > names.length)
    throw new UsageError(`Unexpected argument: ${positionals[names.length]}`);
  return positionals;
}

/**
 * Flag values validated by an API operation's zod schema (its query or body):
 * the schema's output, or a UsageError naming the flag of the first issue
 * (`--take must be at most 100`). `flagOf` names the flag of a field where the
 * two differ.
 */
export function validatedFlags<S extends z.core.$ZodType>(
  schema: S,
  values: Record<string, unknown>,
  flagOf: Record<string, string> = {},
): z.output<S> {
  const parsed = z.safeParse(schema, values);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path[0];
  const flag = field === undefined ? undefined : (flagOf[String(field)] ?? String(field));
  throw new UsageError(flag ? `--${flag} ${issue!.message}` : (issue?.message ?? 'Invalid flags'));
}
