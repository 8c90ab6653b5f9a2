import type * as z from 'zod/mini';
import type { TransformContext } from './transform-issue.ts';

/**
 * Validators compiled at build time from zod schemas: `npm run build`
 * converts a schema into a `SchemaNode` (infra/validators/compile-schema.ts),
 * and `compiledValidator` checks values against it with zod's semantics for
 * that subset: the same values pass, and a passing value comes out the same
 * (defaults put in, unknown keys dropped, transforms applied). The zod schema
 * stays the single source: test/unit/compiled-validators.test.ts keeps every
 * generated module equal to a fresh conversion and compares both on generated
 * values.
 *
 * Why: a module on a function's static path that imports zod makes its entry
 * import zod's core with everything the function's lazy chunks use of zod
 * (esbuild places modules whole), and builds its schemas at import. A node is
 * plain data and this interpreter about 5 KiB minified (docs/architecture.md,
 * Bundles).
 *
 * A failure names the first mismatch only: enough for what the service wrote
 * itself (items), where a mismatch is a fault. Where a refusal is explained to
 * someone, `refusal` words it with the zod schema, loaded then.
 */

type Primitive = string | number | boolean | null;

export type StringCheck =
  | { readonly minLength: number }
  | { readonly maxLength: number }
  | { readonly pattern: RegExp }
  | { readonly startsWith: string }
  /** `z.trim()`: replaces the value with itself trimmed, for the checks after it and the output. */
  | { readonly trim: true };

export type NumberCheck =
  | { readonly min: number; readonly inclusive: boolean }
  | { readonly max: number; readonly inclusive: boolean };

export type LengthCheck = { readonly minLength: number } | { readonly maxLength: number };

/** A refinement (`z.refine`, `z.custom`): a named function of a zod-free module, true when the value passes. */
export type Rule = (value: never) => unknown;

export type SchemaNode =
  | { readonly kind: 'string'; readonly checks?: readonly StringCheck[] }
  | {
      readonly kind: 'number';
      /** `z.coerce.number()`: the input goes through `Number()` first. */
      readonly coerce?: true;
      readonly integer?: true;
      readonly checks?: readonly NumberCheck[];
    }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'values'; readonly values: readonly Primitive[] }
  | { readonly kind: 'nullable'; readonly inner: SchemaNode }
  | { readonly kind: 'optional'; readonly inner: SchemaNode }
  | { readonly kind: 'default'; readonly inner: SchemaNode; readonly value: unknown }
  | {
      readonly kind: 'object';
      readonly shape: Readonly<Record<string, SchemaNode>>;
      readonly strict?: true;
      /** What keys beyond the shape's are checked with and kept (`z.looseObject`: anything). */
      readonly catchall?: SchemaNode;
    }
  | { readonly kind: 'array'; readonly element: SchemaNode; readonly checks?: readonly LengthCheck[] }
  | { readonly kind: 'set'; readonly element: SchemaNode }
  | { readonly kind: 'record'; readonly key: SchemaNode; readonly value: SchemaNode }
  | { readonly kind: 'union'; readonly options: readonly SchemaNode[] }
  | {
      readonly kind: 'discriminated';
      readonly key: string;
      readonly options: readonly { readonly values: readonly unknown[]; readonly node: SchemaNode }[];
    }
  | { readonly kind: 'pipe'; readonly in: SchemaNode; readonly out: SchemaNode }
  | { readonly kind: 'transform'; readonly apply: (value: never, context: TransformContext) => unknown }
  /** The inner node's checks, then these rules on its output. */
  | { readonly kind: 'refined'; readonly inner: SchemaNode; readonly rules: readonly Rule[] }
  /** `z.prefault`: an absent value is taken to be `value`, and checked as if given. */
  | { readonly kind: 'prefault'; readonly inner: SchemaNode; readonly value: unknown }
  /** Both nodes accept the value; the output is their outputs merged, as zod's `mergeValues`. */
  | { readonly kind: 'intersection'; readonly left: SchemaNode; readonly right: SchemaNode };

/** A value that does not match its compiled schema: the first mismatch's path and what was expected there. */
export class ValueMismatchError extends Error {
  override readonly name = 'ValueMismatchError';
  constructor(
    readonly path: readonly (string | number)[],
    readonly expected: string,
  ) {
    super(`Expected ${expected} at /${path.join('/')}`);
  }
}

export interface CompiledValidator<T, I = T> {
  /** The schema's output and input types, for the type checker: no value carries them. */
  readonly '~types'?: { readonly output: T; readonly input: I };
  /** The value as the schema outputs it; throws `ValueMismatchError` when it does not match. */
  parse(value: unknown): T;
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: ValueMismatchError };
  /**
   * Why the schema refuses a value, in zod's own words: loads the zod schema it
   * was compiled from (a chunk of its own, with zod), so only a refusal that
   * is explained to someone pays for it. Only validators compiled with their
   * source have it (shared/schemas/compiled/).
   */
  refusal(value: unknown): Promise<z.core.$ZodError>;
}

/** The zod schema a validator was compiled from, loaded on demand. */
export type SchemaSource = () => Promise<z.ZodMiniType>;

/** Thrown inside a run to stop at the first mismatch (zod collects them all; only pass or fail matters here). */
class Mismatch {
  constructor(
    readonly path: (string | number)[],
    readonly expected: string,
  ) {}
}

const fail = (path: (string | number)[], expected: string): never => {
  throw new Mismatch(path, expected);
};

/** zod's optin: whether an absent key is allowed, and whether the schema puts a value in for it. */
function optIn(node: SchemaNode): 'optional' | 'defaulted' | undefined {
  switch (node.kind) {
    case 'optional':
      return optIn(node.inner) === 'defaulted' ? 'defaulted' : 'optional';
    case 'default':
    case 'prefault':
      return 'defaulted';
    case 'nullable':
    case 'refined':
      return optIn(node.inner);
    case 'pipe':
      return optIn(node.in);
    case 'transform':
      return 'optional';
    case 'union': {
      const ins = node.options.map(optIn);
      return ins.includes('defaulted')
        ? 'defaulted'
        : ins.some((i) => i !== undefined)
          ? 'optional'
          : undefined;
    }
    default:
      return undefined;
  }
}

/** zod's optout: whether the output may lack the key. */
function optOut(node: SchemaNode): 'optional' | undefined {
  switch (node.kind) {
    case 'optional':
      return 'optional';
    case 'default':
    case 'nullable':
    case 'refined':
      return optOut(node.inner);
    case 'pipe':
      return optOut(node.out);
    case 'union':
      return node.options.some((o) => optOut(o) === 'optional') ? 'optional' : undefined;
    default:
      return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** zod's `isPlainObject` (records): an object of `Object`'s prototype, or of none. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  const maker = value.constructor;
  if (maker === undefined || typeof maker !== 'function') return true;
  const prototype: unknown = maker.prototype;
  return isObject(prototype) && Object.hasOwn(prototype, 'isPrototypeOf');
}

/** zod's copy of a default value, so that no two outputs share one object. */
function shallowCopy(value: unknown): unknown {
  if (isPlainObject(value)) return { ...value };
  if (Array.isArray(value)) return [...value];
  return value;
}

type Bound = Exclude<StringCheck, { trim: true }> | NumberCheck;

/** Whether a value meets one check; `size` is a string's or an array's length, or the number itself. */
function meets(check: Bound, value: unknown, size: number): boolean {
  if ('minLength' in check) return size >= check.minLength;
  if ('maxLength' in check) return size <= check.maxLength;
  if ('min' in check) return check.inclusive ? size >= check.min : size > check.min;
  if ('max' in check) return check.inclusive ? size <= check.max : size < check.max;
  if ('startsWith' in check) return (value as string).startsWith(check.startsWith);
  // zod resets a pattern before testing, so a global or sticky one tests from the start.
  check.pattern.lastIndex = 0;
  return check.pattern.test(value as string);
}

const failCheck = (path: (string | number)[], check: Bound): never =>
  fail(
    path,
    JSON.stringify(check, (_, v) => (v instanceof RegExp ? String(v) : v)),
  );

function checkAll(value: unknown, size: number, checks: readonly Bound[], path: (string | number)[]): void {
  const failed = checks.find((check) => !meets(check, value, size));
  if (failed) failCheck(path, failed);
}

/** A string through its checks in order: a `trim` changes what the checks after it, and the output, see. */
function checkedString(input: string, checks: readonly StringCheck[], path: (string | number)[]): string {
  let value = input;
  for (const check of checks) {
    if ('trim' in check) value = value.trim();
    else if (!meets(check, value, value.length)) failCheck(path, check);
  }
  return value;
}

/**
 * zod's `mergeValues`, which an intersection's output is: equal values are
 * one, plain objects merge key by key, arrays of one length element by
 * element; any other pair cannot merge.
 */
function merged(
  a: unknown,
  b: unknown,
): { valid: true; data: unknown } | { valid: false; at: PropertyKey[] } {
  if (a === b) return { valid: true, data: a };
  if (a instanceof Date && b instanceof Date && +a === +b) return { valid: true, data: a };
  if (isPlainObject(a) && isPlainObject(b)) {
    const bKeys = Object.keys(b);
    const output: Record<string, unknown> = { ...a, ...b };
    // A spread copies an own `__proto__` key as data; zod drops it from the merge.
    Reflect.deleteProperty(output, '__proto__');
    for (const key of Object.keys(a).filter((k) => bKeys.includes(k))) {
      if (key === '__proto__') continue;
      const shared = merged(a[key], b[key]);
      if (!shared.valid) return { valid: false, at: [key, ...shared.at] };
      output[key] = shared.data;
    }
    return { valid: true, data: output };
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return { valid: false, at: [] };
    const output: unknown[] = [];
    for (const [index, element] of a.entries()) {
      const shared = merged(element, b[index]);
      if (!shared.valid) return { valid: false, at: [index, ...shared.at] };
      output.push(shared.data);
    }
    return { valid: true, data: output };
  }
  return { valid: false, at: [] };
}

/** zod's coercion to a number: `Number()`, or the input as it was where that throws (a symbol). */
function coerced(input: unknown): unknown {
  try {
    return Number(input);
  } catch {
    return input;
  }
}

/** The object's output, key by key as zod's `handlePropertyResult` decides. */
function runObject(
  node: Extract<SchemaNode, { kind: 'object' }>,
  input: Record<string, unknown>,
  path: (string | number)[],
): Record<string, unknown> {
  const output: Record<string, unknown> = {};
  for (const key of Object.keys(node.shape)) {
    if (key === '__proto__') continue;
    const field = node.shape[key] as SchemaNode;
    const present = key in input;
    const optin = optIn(field);
    const optional = optOut(field) === 'optional';
    if (!present && optional && optin === 'optional') continue;
    let value: unknown;
    try {
      value = run(field, input[key], [...path, key]);
    } catch (mismatch) {
      if (mismatch instanceof Mismatch && optin !== undefined && optional && !present) continue;
      throw mismatch;
    }
    if (!present && optin === undefined) fail([...path, key], 'a value');
    if (value !== undefined) output[key] = value;
    else if (present || (optin === 'defaulted' && !optional)) output[key] = undefined;
  }
  if (node.strict) {
    for (const key in input) if (!Object.hasOwn(node.shape, key)) fail([...path, key], 'no such key');
  }
  if (node.catchall) {
    // zod walks every enumerable key (`for…in`), and never copies a `__proto__` into the output.
    for (const key in input) {
      if (Object.hasOwn(node.shape, key) || key === '__proto__') continue;
      output[key] = run(node.catchall, input[key], [...path, key]);
    }
  }
  return output;
}

function runRecord(
  node: Extract<SchemaNode, { kind: 'record' }>,
  input: unknown,
  path: (string | number)[],
): Record<string, unknown> {
  if (!isPlainObject(input)) return fail(path, 'an object');
  const output: Record<string, unknown> = {};
  for (const key of Reflect.ownKeys(input)) {
    if (key === '__proto__' || !Object.prototype.propertyIsEnumerable.call(input, key)) continue;
    if (typeof key === 'symbol') return fail(path, 'string keys');
    const outKey = run(node.key, key, [...path, key]) as string;
    if (outKey === '__proto__') continue;
    output[outKey] = run(node.value, input[key], [...path, key]);
  }
  return output;
}

function run(node: SchemaNode, input: unknown, path: (string | number)[]): unknown {
  switch (node.kind) {
    case 'string':
      if (typeof input !== 'string') return fail(path, 'a string');
      return checkedString(input, node.checks ?? [], path);
    case 'number':
      if (node.coerce) input = coerced(input);
      if (typeof input !== 'number' || !Number.isFinite(input)) return fail(path, 'a number');
      if (node.integer && !Number.isSafeInteger(input)) return fail(path, 'a safe integer');
      checkAll(input, input, node.checks ?? [], path);
      return input;
    case 'boolean':
      return typeof input === 'boolean' ? input : fail(path, 'a boolean');
    case 'unknown':
      return input;
    case 'values':
      return node.values.includes(input as Primitive)
        ? input
        : fail(path, `one of ${JSON.stringify(node.values)}`);
    case 'nullable':
      return input === null ? null : run(node.inner, input, path);
    case 'optional':
      if (input !== undefined) return run(node.inner, input, path);
      if (optIn(node.inner) !== 'defaulted') return undefined;
      try {
        return run(node.inner, undefined, path);
      } catch (mismatch) {
        if (mismatch instanceof Mismatch) return undefined;
        throw mismatch;
      }
    case 'default': {
      if (input === undefined) return shallowCopy(node.value);
      const output = run(node.inner, input, path);
      return output === undefined ? shallowCopy(node.value) : output;
    }
    case 'object':
      if (!isObject(input)) return fail(path, 'an object');
      return runObject(node, input, path);
    case 'array':
      if (!Array.isArray(input)) return fail(path, 'an array');
      checkAll(input, input.length, node.checks ?? [], path);
      return input.map((element, index) => run(node.element, element, [...path, index]));
    case 'set': {
      if (!(input instanceof Set)) return fail(path, 'a set');
      const output = new Set<unknown>();
      for (const element of input) output.add(run(node.element, element, path));
      return output;
    }
    case 'record':
      return runRecord(node, input, path);
    case 'union': {
      for (const option of node.options) {
        try {
          return run(option, input, path);
        } catch (mismatch) {
          if (!(mismatch instanceof Mismatch)) throw mismatch;
        }
      }
      return fail(path, 'one of the union');
    }
    case 'discriminated': {
      if (!isObject(input)) return fail(path, 'an object');
      const tag = input[node.key];
      const option = node.options.find((o) => o.values.includes(tag));
      return option ? run(option.node, input, path) : fail([...path, node.key], 'a known discriminator');
    }
    case 'pipe':
      return run(node.out, run(node.in, input, path), path);
    case 'transform': {
      const context: TransformContext = { value: input, issues: [] };
      const output = node.apply(input as never, context);
      return context.issues.length > 0 ? fail(path, 'a value its transform takes') : output;
    }
    case 'refined': {
      const output = run(node.inner, input, path);
      for (const rule of node.rules) if (!rule(output as never)) fail(path, `a value ${rule.name} accepts`);
      return output;
    }
    case 'prefault':
      // zod gives each parse its own copy of the value, as of a default.
      return run(node.inner, input === undefined ? shallowCopy(node.value) : input, path);
    case 'intersection': {
      // zod runs both sides; either failing fails the value. Two that pass must merge, or zod throws.
      const both = merged(run(node.left, input, path), run(node.right, input, path));
      if (!both.valid) throw new Error(`Unmergable intersection. Error path: ${JSON.stringify(both.at)}`);
      return both.data;
    }
  }
}

/** A validator for a node `npm run build` wrote; `T` and `I` are the source schema's output and input types. */
export function compiledValidator<T, I = T>(
  node: SchemaNode,
  source?: SchemaSource,
): CompiledValidator<T, I> {
  const safeParse = (value: unknown) => {
    try {
      return { success: true as const, data: run(node, value, []) as T };
    } catch (mismatch) {
      if (mismatch instanceof Mismatch)
        return { success: false as const, error: new ValueMismatchError(mismatch.path, mismatch.expected) };
      throw mismatch;
    }
  };
  return {
    parse(value) {
      const result = safeParse(value);
      if (result.success) return result.data;
      throw result.error;
    },
    safeParse,
    async refusal(value) {
      if (!source) throw new Error('This validator was compiled without its source schema');
      const { error } = (await source()).safeParse(value);
      // The two agree (test/unit/compiled-validators.test.ts); a value both accept has no refusal.
      if (!error) throw new Error('The schema accepts the value its compiled validator refused');
      return error;
    },
  };
}
