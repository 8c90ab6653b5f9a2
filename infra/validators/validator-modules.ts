import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as z from 'zod/mini';
import { PROJECT_ROOT } from '../paths.ts';
import { type NamedTransform, SchemaCompiler } from './compile-schema.ts';

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

/** The schemas of shared/schemas/ parsed on a function's static path, by module. */
const COMPILED_SCHEMAS: Record<string, string[]> = {
  'import.ts': ['providerEvent'],
  'provider-webhook-message.ts': ['providerWebhookMessage'],
  'provider-work-message.ts': ['providerWorkMessage'],
};

/** The modules whose exported functions a compiled transform may call, by import alias. */
const TRANSFORM_MODULES = ['#store/item-transforms.ts', '#schemas/transforms.ts'];

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
      modules.set(file, { alias, schemas });
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
          const schema = exports[name];
          if (!isSchema(schema)) throw new Error(`${alias} exports no schema named ${name}`);
          return [name, schema] as const;
        }),
      );
      modules.set(file, { alias, schemas });
    }
    return modules;
  },
};

async function namedTransforms(): Promise<Map<unknown, NamedTransform>> {
  const transforms = new Map<unknown, NamedTransform>();
  for (const module of TRANSFORM_MODULES) {
    for (const [name, value] of Object.entries(await load(module))) {
      if (typeof value === 'function') transforms.set(value, { name, module });
    }
  }
  return transforms;
}

/** The text of each of a set's modules, by file name. */
export async function validatorSources(set: ValidatorSet): Promise<Map<string, string>> {
  const transforms = await namedTransforms();
  const sources = new Map<string, string>();
  for (const [file, { alias, schemas }] of await set.modules()) {
    const compiler = new SchemaCompiler(transforms);
    const validators = [...schemas].map(([name, schema]) => {
      const node = compiler.node(schema, `${alias} ${name}`);
      const source = set.withSource ? `, () => import('${alias}').then((module) => module.${name})` : '';
      return `export const ${name} = /* @__PURE__ */ compiledValidator<z.output<typeof ${name}Schema>>(${node}${source});`;
    });
    const transformImports = new Map<string, string[]>();
    for (const { name, module } of compiler.usedTransforms.values()) {
      transformImports.set(module, [...(transformImports.get(module) ?? []), name]);
    }
    sources.set(
      file,
      [
        '// Generated by `npm run build` (infra/validators/validator-modules.ts) from',
        `// ${alias}: do not edit. test/unit/compiled-validators.test.ts keeps it equal to`,
        '// a fresh generation and checks each validator against its schema.',
        "import type * as z from 'zod/mini';",
        "import { compiledValidator, type SchemaNode } from '#schemas/compiled-validator.ts';",
        ...[...transformImports].map(([module, names]) => `import { ${names.join(', ')} } from '${module}';`),
        `import type { ${[...schemas.keys()].map((name) => `${name} as ${name}Schema`).join(', ')} } from '${alias}';`,
        '',
        ...compiler.declarations(),
        '',
        ...validators,
        '',
      ].join('\n'),
    );
  }
  return sources;
}

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
