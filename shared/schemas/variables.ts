import '#definitions/zod-english.ts';
import * as z from 'zod/mini';
import { addTransformIssue } from './transform-issue.ts';

// Each schema is built in a pure-annotated closure: a bundle keeps only those its function uses
// (esbuild cannot tell that zod's builders have no side effects; docs/architecture.md, Bundles).

/**
 * Snippet variables: the values a sequence's templates fill in (`{{first_name}}`),
 * as a raw push and the import set them on an assignment.
 *
 * A name is a letter followed by letters, digits or underscores. Names such as
 * `constructor` or `toString` are legitimate and kept as given, so the parsed
 * variables are a Map all the way to the DynamoDB marshaller (which tells a
 * plain object from other values by its `constructor` property) and to every
 * reader: no name is ever looked up on a prototype. `__proto__` cannot be a
 * name: it fails the pattern, and is refused explicitly because zod's record
 * and the marshaller both drop that key without a word.
 */

export const VARIABLE_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const VARIABLE_NAME_RULE = 'variable names are a letter, then up to 63 letters, digits or underscores';

export const MAX_VARIABLES = 50;
export const MAX_VARIABLE_BYTES = 10 * 1024;
/**
 * A contact's variables are stored on its assignment, and a push updates up to
 * 100 assignments in one transaction: 16 kB each (beside the contact's details)
 * keeps an item far below DynamoDB's 400 KB and such a transaction below its
 * 4 MB. Fifty values of 10 kB would fit neither.
 */
export const MAX_VARIABLES_TOTAL_BYTES = 16 * 1024;

/** Parsed snippet variables: name → value. */
export type SnippetVariables = ReadonlyMap<string, string>;

const variablesBytes = (variables: Record<string, string>): number =>
  Object.entries(variables).reduce(
    (total, [name, value]) => total + Buffer.byteLength(name) + Buffer.byteLength(value),
    0,
  );

const variableRecord = /* @__PURE__ */ (() =>
  z
    .record(
      z.string().check(z.regex(VARIABLE_NAME_PATTERN, VARIABLE_NAME_RULE)),
      z
        .string()
        .check(
          z.refine(
            (value) => Buffer.byteLength(value) <= MAX_VARIABLE_BYTES,
            `must be at most ${MAX_VARIABLE_BYTES} bytes`,
          ),
        ),
      // A name that fails the pattern is reported with the rule, not zod's bare "Invalid key in record".
      { error: (issue) => (issue.code === 'invalid_key' ? VARIABLE_NAME_RULE : undefined) },
    )
    .check(
      z.refine((value) => Object.keys(value).length <= MAX_VARIABLES, `at most ${MAX_VARIABLES} variables`),
      z.refine(
        (value) => variablesBytes(value) <= MAX_VARIABLES_TOTAL_BYTES,
        `at most ${MAX_VARIABLES_TOTAL_BYTES} bytes of names and values in all`,
      ),
    ))();

/** Snippet variables as a client sends them (a JSON object), parsed into a Map. */
export const snippetVariables = /* @__PURE__ */ (() =>
  z
    .pipe(
      // Classic zod's `z.preprocess`: a transform piped into the record.
      z.pipe(
        z.transform((input: unknown, context) => {
          // zod's record skips an own `__proto__` key before checking names: refuse it here, naming it.
          if (typeof input === 'object' && input !== null && Object.hasOwn(input, '__proto__')) {
            addTransformIssue(context, {
              code: 'custom',
              message: VARIABLE_NAME_RULE,
              path: ['__proto__'],
              input,
            });
          }
          return input;
        }),
        variableRecord,
      ),
      z.transform(
        (variables: Record<string, string>): SnippetVariables => new Map(Object.entries(variables)),
      ),
    )
    .check(
      z.meta({
        description: `Snippet variables for the sequence's templates: at most ${MAX_VARIABLES}, names of a letter then up to 63 letters, digits or underscores (${VARIABLE_NAME_PATTERN.source}), each value at most ${MAX_VARIABLE_BYTES} bytes, ${MAX_VARIABLES_TOTAL_BYTES} bytes of names and values in all (UTF-8).`,
      }),
    ))();
