import { isDeepStrictEqual } from 'node:util';
import * as z from 'zod/mini';

/**
 * Converts a zod/mini schema into the source text of a `SchemaNode`
 * (shared/schemas/compiled-validator.ts), which the compiled validator checks
 * values against with zod's semantics. Only what that interpreter implements
 * converts; anything else (a URL format, a refinement or a transform that is
 * not a named function of the modules given) fails the build with the
 * schema's path, so a schema never silently validates less than it says.
 */

type Def = z.core.$ZodTypeDef & Record<string, unknown>;
type Schema = z.core.$ZodType;

/**
 * A function a transform may apply or a refinement test (`z.refine`,
 * `z.custom`): the compiled node names it, and imports it from its module
 * (none for a global such as `Number`).
 */
export interface NamedFunction {
  name: string;
  module?: string;
}

/** The globals a schema may transform with, known without a module. */
const GLOBAL_FUNCTIONS: ReadonlyMap<unknown, NamedFunction> = new Map([[Number, { name: 'Number' }]]);

/** The text of zod's own `z.trim()` overwrite: an overwrite check with this function is a trim. */
const TRIM_SOURCE = String((z.trim()._zod.def as unknown as { tx: unknown }).tx);

export class UncompilableSchemaError extends Error {
  override readonly name = 'UncompilableSchemaError';
}

const literal = (value: unknown): string => {
  if (value instanceof RegExp) return value.toString();
  if (value === undefined) return 'undefined';
  return JSON.stringify(value);
};

const defOf = (schema: Schema): Def => schema._zod.def as Def;

/** A check's def: its kind and parameters. */
const checkDef = (check: z.core.$ZodCheck): Record<string, unknown> =>
  check._zod.def as unknown as Record<string, unknown>;

/** The checks a schema runs: its own (a format schema is a check itself) and those added with `.check()`. */
function checksOf(schema: Schema): z.core.$ZodCheck[] {
  const def = defOf(schema);
  const own = schema._zod.traits.has('$ZodCheck') ? [schema as unknown as z.core.$ZodCheck] : [];
  return [...own, ...((def.checks as z.core.$ZodCheck[] | undefined) ?? [])];
}

/** Metadata checks change nothing a value is checked against. */
const IGNORED_CHECKS = new Set(['meta', 'describe']);

/** Whether a check is a refinement (`z.refine`, or a `z.custom` schema itself): the node's rules check it. */
const isRule = (check: z.core.$ZodCheck) => checkDef(check).check === 'custom';

/** The checks a node of the schema's kind checks itself: all but metadata and refinements. */
const kindChecks = (schema: Schema) =>
  checksOf(schema).filter((check) => !isRule(check) && !IGNORED_CHECKS.has(checkDef(check).check as string));

export class SchemaCompiler {
  /** The named functions the compiled nodes use, by name, to import. */
  readonly usedFunctions = new Map<string, NamedFunction>();
  /**
   * Every node converted, once each, by its text: the module declares each as a
   * constant and nodes name one another, so a node that many schemas share
   * (a number, a nullable text defaulting to null) is written once.
   */
  private readonly declared = new Map<string, string>();

  constructor(private readonly functions: ReadonlyMap<unknown, NamedFunction>) {}

  /** The constants of the nodes converted so far, each after those it names. */
  declarations(): string[] {
    return [...this.declared].map(([text, name]) => `const ${name}: SchemaNode = ${text};`);
  }

  /** The name of the node of `schema`; `path` names it in errors. */
  node(schema: Schema, path: string): string {
    return this.declare(this.nodeText(schema, path));
  }

  /** The name of the constant a node's text is declared as. */
  private declare(text: string): string {
    let name = this.declared.get(text);
    if (name === undefined) {
      name = `n${this.declared.size}`;
      this.declared.set(text, name);
    }
    return name;
  }

  private refuse(path: string, what: string): never {
    throw new UncompilableSchemaError(
      `${path}: ${what} cannot be compiled (infra/validators/compile-schema.ts)`,
    );
  }

  /** A string's checks, or an array's (`lengthsOnly`: its bounds, the only checks an array has here). */
  private stringChecks(schema: Schema, path: string, lengthsOnly = false): string[] {
    const checks: string[] = [];
    for (const check of kindChecks(schema)) {
      const def = checkDef(check);
      if (lengthsOnly && def.check !== 'min_length' && def.check !== 'max_length')
        this.refuse(path, `the array check ${String(def.check)}`);
      if (def.check === 'min_length') checks.push(`{ minLength: ${def.minimum} }`);
      else if (def.check === 'max_length') checks.push(`{ maxLength: ${def.maximum} }`);
      else if (def.check === 'length_equals')
        checks.push(`{ minLength: ${def.length} }`, `{ maxLength: ${def.length} }`);
      else if (def.check === 'string_format' && def.format === 'starts_with')
        checks.push(`{ startsWith: ${literal(def.prefix)} }`);
      else if (def.check === 'string_format' && PATTERN_FORMATS.has(def.format as string) && def.pattern)
        checks.push(`{ pattern: ${literal(def.pattern)} }`);
      else if (def.check === 'overwrite' && String(def.tx) === TRIM_SOURCE) checks.push('{ trim: true }');
      else this.refuse(path, `the string check ${String(def.check)} ${String(def.format ?? '')}`);
    }
    return checks;
  }

  private numberChecks(schema: Schema, path: string): { integer: boolean; checks: string[] } {
    let integer = false;
    const checks: string[] = [];
    for (const check of kindChecks(schema)) {
      const def = checkDef(check);
      if (def.check === 'number_format' && def.format === 'safeint') integer = true;
      else if (def.check === 'greater_than')
        checks.push(`{ min: ${literal(def.value)}, inclusive: ${Boolean(def.inclusive)} }`);
      else if (def.check === 'less_than')
        checks.push(`{ max: ${literal(def.value)}, inclusive: ${Boolean(def.inclusive)} }`);
      else this.refuse(path, `the number check ${String(def.check)} ${String(def.format ?? '')}`);
    }
    return { integer, checks };
  }

  private noChecks(schema: Schema, path: string): void {
    if (kindChecks(schema).length > 0) this.refuse(path, `a check on ${defOf(schema).type}`);
  }

  /** The name a function is imported by, or a refusal: only named functions compile. */
  private named(fn: unknown, path: string, what: string): string {
    const named = GLOBAL_FUNCTIONS.get(fn) ?? this.functions.get(fn);
    if (!named) this.refuse(path, `${what} that is not a named function of the modules given`);
    if (named.module) this.usedFunctions.set(named.name, named);
    return named.name;
  }

  /**
   * The source text of the node of `schema`: its kind's node, wrapped in a
   * `refined` node when it has refinements. The rules run after the kind's
   * checks, so none may come before an overwrite (which would change what
   * it sees).
   */
  private nodeText(schema: Schema, path: string): string {
    const checks = checksOf(schema);
    const rules = checks.filter(isRule);
    if (rules.length === 0) return this.kindText(schema, path);
    if (checks.findLastIndex((check) => checkDef(check).check === 'overwrite') > checks.findIndex(isRule))
      this.refuse(path, 'a refinement before an overwrite');
    const names = rules.map((rule) => this.named(checkDef(rule).fn, path, 'a refinement'));
    return `{ kind: 'refined', inner: ${this.declare(this.kindText(schema, path))}, rules: [${names.join(', ')}] }`;
  }

  /** The source text of the node of `schema`'s kind, its refinements aside. */
  private kindText(schema: Schema, path: string): string {
    const def = defOf(schema);
    if (def.coerce && def.type !== 'number') this.refuse(path, `a coerced ${def.type}`);
    switch (def.type) {
      case 'string': {
        const checks = this.stringChecks(schema, path);
        return checks.length ? `{ kind: 'string', checks: [${checks.join(', ')}] }` : `{ kind: 'string' }`;
      }
      case 'number': {
        const { integer, checks } = this.numberChecks(schema, path);
        const parts = [
          `kind: 'number'`,
          ...(def.coerce ? ['coerce: true'] : []),
          ...(integer ? ['integer: true'] : []),
        ];
        if (checks.length) parts.push(`checks: [${checks.join(', ')}]`);
        return `{ ${parts.join(', ')} }`;
      }
      case 'boolean':
        this.noChecks(schema, path);
        return `{ kind: 'boolean' }`;
      case 'unknown':
      case 'any':
        this.noChecks(schema, path);
        return `{ kind: 'unknown' }`;
      case 'literal':
      case 'enum': {
        this.noChecks(schema, path);
        const values = [...(schema._zod.values ?? [])];
        if (!values.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v)))
          this.refuse(path, 'a literal that is not a string, number, boolean or null');
        return `{ kind: 'values', values: ${literal(values)} }`;
      }
      case 'nullable':
      case 'optional':
        this.noChecks(schema, path);
        return `{ kind: '${def.type}', inner: ${this.node(def.innerType as Schema, path)} }`;
      case 'default':
      case 'prefault': {
        this.noChecks(schema, path);
        const value = def.defaultValue;
        // A default computed per parse (a function) or not plain data cannot be written into the node.
        if (
          !isDeepStrictEqual(value, def.defaultValue) ||
          !isDeepStrictEqual(JSON.parse(JSON.stringify(value) ?? 'null'), value ?? null)
        )
          this.refuse(path, `a ${def.type} that is not constant JSON`);
        return `{ kind: '${def.type}', inner: ${this.node(def.innerType as Schema, path)}, value: ${literal(value)} }`;
      }
      case 'object': {
        this.noChecks(schema, path);
        const shape = def.shape as Record<string, Schema>;
        const catchall = def.catchall as Schema | undefined;
        const strict = catchall !== undefined && defOf(catchall).type === 'never';
        const fields = Object.entries(shape).map(
          ([key, field]) => `${JSON.stringify(key)}: ${this.node(field, `${path}.${key}`)}`,
        );
        const rest = strict
          ? ', strict: true'
          : catchall
            ? `, catchall: ${this.node(catchall, `${path}{}`)}`
            : '';
        return `{ kind: 'object', shape: { ${fields.join(', ')} }${rest} }`;
      }
      case 'array': {
        const checks = this.stringChecks(schema, path, true);
        const element = this.node(def.element as Schema, `${path}[]`);
        return `{ kind: 'array', element: ${element}${checks.length ? `, checks: [${checks.join(', ')}]` : ''} }`;
      }
      case 'set':
        this.noChecks(schema, path);
        return `{ kind: 'set', element: ${this.node(def.valueType as Schema, `${path}[]`)} }`;
      case 'record': {
        this.noChecks(schema, path);
        const key = def.keyType as Schema;
        if (key._zod.values || def.mode === 'loose')
          this.refuse(path, 'a record with enumerated or loose keys');
        return `{ kind: 'record', key: ${this.node(key, `${path}{key}`)}, value: ${this.node(def.valueType as Schema, `${path}{}`)} }`;
      }
      case 'union': {
        this.noChecks(schema, path);
        const options = def.options as Schema[];
        if (def.discriminator === undefined) {
          if (def.inclusive === false) this.refuse(path, 'an exclusive union');
          return `{ kind: 'union', options: [${options.map((o, i) => this.node(o, `${path}|${i}`)).join(', ')}] }`;
        }
        if (def.unionFallback) this.refuse(path, 'a discriminated union with fallback');
        const key = def.discriminator as string;
        const branches = options.map((option, i) => {
          const values = option._zod.propValues?.[key];
          if (!values) this.refuse(path, `an option without literal values of ${key}`);
          return `{ values: ${literal([...values])}, node: ${this.node(option, `${path}|${i}`)} }`;
        });
        return `{ kind: 'discriminated', key: ${JSON.stringify(key)}, options: [${branches.join(', ')}] }`;
      }
      case 'pipe':
        this.noChecks(schema, path);
        return `{ kind: 'pipe', in: ${this.node(def.in as Schema, path)}, out: ${this.node(def.out as Schema, path)} }`;
      case 'transform': {
        this.noChecks(schema, path);
        return `{ kind: 'transform', apply: ${this.named(def.transform, path, 'a transform')} }`;
      }
      case 'custom':
        // `z.custom(test)`: any value, which its own check (a rule, above) tests.
        this.noChecks(schema, path);
        return `{ kind: 'unknown' }`;
      case 'intersection': {
        this.noChecks(schema, path);
        const [left, right] = [def.left as Schema, def.right as Schema];
        // zod refuses a key only when both sides do, which a side failing on its own would not say.
        if (rejectsKeys(left) || rejectsKeys(right))
          this.refuse(
            path,
            'an intersection of a side that refuses keys (strict object, checked record keys)',
          );
        return `{ kind: 'intersection', left: ${this.node(left, `${path}&0`)}, right: ${this.node(right, `${path}&1`)} }`;
      }
      default:
        return this.refuse(path, `the type ${def.type}`);
    }
  }
}

/** Whether a schema may refuse a key for itself: a strict object, or a record whose keys are more than strings. */
function rejectsKeys(schema: Schema): boolean {
  const def = defOf(schema);
  if (def.type === 'optional' || def.type === 'nullable') return rejectsKeys(def.innerType as Schema);
  if (def.type === 'object')
    return def.catchall !== undefined && defOf(def.catchall as Schema).type === 'never';
  if (def.type === 'record') {
    const key = def.keyType as Schema;
    return defOf(key).type !== 'string' || checksOf(key).length > 0;
  }
  return def.type !== 'unknown' && def.type !== 'any' && def.type !== 'custom';
}

/** String formats whose check is their pattern alone (zod's `$ZodStringFormat` without a check of its own). */
const PATTERN_FORMATS = new Set([
  'regex',
  'email',
  'lowercase',
  'uppercase',
  'uuid',
  'guid',
  'datetime',
  'date',
]);
