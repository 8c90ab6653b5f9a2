import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as z from 'zod/mini';
import { PROJECT_ROOT } from '../paths.ts';
import { type NamedFunction, SchemaCompiler } from './compile-schema.ts';

/**
 * The modules of compiled validators (shared/schemas/compiled-validator.ts)
 * that `npm run build` writes, each under its schema's name, so that what a
 * function parses at run time needs no zod (docs/architecture.md, Bundles):
 * - shared/store/item-validators/: every schema of each module of
 *   shared/store/item-schemas/, in a module of the same name, which the stores
 *   read items with;
 * - shared/schemas/compiled/: the schemas of shared/schemas/ named in
 *   COMPILED_SCHEMAS, in a module named as theirs, each able to load its zod
 *   schema to word a refusal (`refusal`).
 * The schemas stay the single source: test/unit/compiled-validators.test.ts
 * keeps the generated modules equal to a fresh generation and compares each
 * validator with its schema.
 */

const SHARED = resolve(PROJECT_ROOT, 'shared');

/**
 * The schemas of shared/schemas/ parsed on a function's static path, by
 * module. `endpoint.part` names a part of an endpoint's schemas
 * (shared/schemas/endpoint.ts): the generated module exports the endpoint as
 * an object of validators, which the HTTP edge takes in place of the schemas
 * (shared/api/http/endpoint.ts).
 */
const COMPILED_SCHEMAS: Record<string, string[]> = {
  'import.ts': ['providerEvent'],
  'mcp-messages.ts': [
    'jsonRpcMessage',
    'initializeRequest',
    'listToolsRequest',
    'callToolRequest',
    'taskAugmentedParams',
  ],
  'provider-webhook-message.ts': ['providerWebhookMessage'],
  'provider-work-message.ts': ['providerWorkMessage'],
  'raw.ts': [
    'rawContact',
    'pushContactsEndpoint.path',
    'pushContactsEndpoint.body',
    'pushContactsEndpoint.response',
  ],
};

/** The modules whose exported functions a compiled transform may call or a refinement test with, by import alias. */
const FUNCTION_MODULES = ['#store/item-transforms.ts', '#schemas/transforms.ts', '#schemas/refinements.ts'];

type Schema = z.core.$ZodType;

interface SchemaModule {
  /** The alias the generated module imports its schemas' types (and sources) from. */
  alias: string;
  schemas: Map<string, Schema>;
}

export interface ValidatorSet {
  /** Where its modules are written. */
  folder: string;
  /** Whether its validators load their schema to word a refusal. */
  withSource: boolean;
  /** The schemas each module compiles, by module file name. */
  modules(): Promise<Map<string, SchemaModule>>;
}

const fileOf = (alias: string) => resolve(SHARED, alias.replace(/^#(\w+)\//, '$1/'));
const load = async (alias: string) =>
  (await import(pathToFileURL(fileOf(alias)).href)) as Record<string, unknown>;
const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && '_zod' in value;

export const ITEM_VALIDATORS: ValidatorSet = {
  folder: resolve(SHARED, 'store/item-validators'),
  withSource: false,
  async modules() {
    const modules = new Map<string, SchemaModule>();
    const owner = new Map<string, string>();
    for (const file of readdirSync(resolve(SHARED, 'store/item-schemas')).sort()) {
      const alias = `#store/item-schemas/${file}`;
      const schemas = new Map<string, Schema>();
      for (const [name, value] of Object.entries(await load(alias)).sort(([a], [b]) => a.localeCompare(b))) {
        if (!isSchema(value)) continue;
        // The stores import validators by name, from the module of their store's name.
        const other = owner.get(name);
        if (other)
          throw new Error(`Two item-schemas modules export a schema named ${name}: ${other}, ${file}`);
        owner.set(name, file);
        schemas.set(name, value);
      }
      // A helper of the schemas (counter-fields.ts) has no validators of its own.
      if (schemas.size > 0) modules.set(file, { alias, schemas });
    }
    return modules;
  },
};

export const SCHEMA_VALIDATORS: ValidatorSet = {
  folder: resolve(SHARED, 'schemas/compiled'),
  withSource: true,
  async modules() {
    const modules = new Map<string, SchemaModule>();
    for (const [file, names] of Object.entries(COMPILED_SCHEMAS)) {
      const alias = `#schemas/${file}`;
      const exports = await load(alias);
      const schemas = new Map(
        names.map((name) => {
          const schema = name
            .split('.')
            .reduce<unknown>((value, key) => (value as Record<string, unknown>)?.[key], exports);
          if (!isSchema(schema)) throw new Error(`${alias} exports no schema named ${name}`);
          return [name, schema] as const;
        }),
      );
      modules.set(file, { alias, schemas });
    }
    return modules;
  },
};

async function namedFunctions(): Promise<Map<unknown, NamedFunction>> {
  const functions = new Map<unknown, NamedFunction>();
  for (const module of FUNCTION_MODULES) {
    for (const [name, value] of Object.entries(await load(module))) {
      if (typeof value === 'function') functions.set(value, { name, module });
    }
  }
  return functions;
}

/**
 * The export of each validator: a schema's under its name, an endpoint's
 * parts in one object under the endpoint's. Typed with the schema's output
 * and input (what a response's producer gives).
 */
function exportsOf(validators: [name: string, text: string][]): string[] {
  const lines: string[] = [];
  const endpoints = new Map<string, string[]>();
  for (const [name, text] of validators) {
    const [endpoint, part] = name.split('.') as [string, string | undefined];
    if (part === undefined) lines.push(`export const ${name} = ${text};`);
    else endpoints.set(endpoint, [...(endpoints.get(endpoint) ?? []), `  ${part}: ${text},`]);
  }
  for (const [endpoint, parts] of endpoints) lines.push(`export const ${endpoint} = {`, ...parts, '};');
  return lines;
}

/** The text of each of a set's modules, by file name. */
export async function validatorSources(set: ValidatorSet): Promise<Map<string, string>> {
  const functions = await namedFunctions();
  const sources = new Map<string, string>();
  for (const [file, { alias, schemas }] of await set.modules()) {
    const compiler = new SchemaCompiler(functions);
    const validators = [...schemas].map(([name, schema]): [string, string] => {
      const node = compiler.node(schema, `${alias} ${name}`);
      const source = set.withSource ? `, () => import('${alias}').then((module) => module.${name})` : '';
      const [root = name, part] = name.split('.');
      // An endpoint's part also carries its input type: what an operation gives its response to shape.
      const type = `typeof ${root}Schema${part ? `['${part}']` : ''}`;
      const types = part ? `z.output<${type}>, z.input<${type}>` : `z.output<${type}>`;
      return [name, `/* @__PURE__ */ compiledValidator<${types}>(${node}${source})`];
    });
    const functionImports = new Map<string, string[]>();
    for (const { name, module } of compiler.usedFunctions.values()) {
      if (module) functionImports.set(module, [...(functionImports.get(module) ?? []), name]);
    }
    const roots = [...new Set([...schemas.keys()].map((name) => name.split('.')[0]))];
    sources.set(
      file,
      [
        '// Generated by `npm run build` (infra/validators/validator-modules.ts) from',
        `// ${alias}: do not edit. test/unit/compiled-validators.test.ts keeps it equal to`,
        '// a fresh generation and checks each validator against its schema.',
        "import type * as z from 'zod/mini';",
        "import { compiledValidator, type SchemaNode } from '#schemas/compiled-validator.ts';",
        ...[...functionImports].map(([module, names]) => `import { ${names.join(', ')} } from '${module}';`),
        `import type { ${roots.map((name) => `${name} as ${name}Schema`).join(', ')} } from '${alias}';`,
        '',
        ...compiler.declarations(),
        '',
        ...exportsOf(validators),
        '',
      ].join('\n'),
    );
  }
  return sources;
}

/** Writes every set's modules afresh; the first step of `npm run build`. */
export async function writeValidatorModules(): Promise<string[]> {
  const folders: string[] = [];
  for (const set of [ITEM_VALIDATORS, SCHEMA_VALIDATORS]) {
    const sources = await validatorSources(set);
    rmSync(set.folder, { recursive: true, force: true });
    mkdirSync(set.folder, { recursive: true });
    for (const [file, source] of sources) writeFileSync(resolve(set.folder, file), source);
    folders.push(set.folder);
  }
  return folders;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const folder of await writeValidatorModules()) console.log(`Wrote ${folder}`);
}
