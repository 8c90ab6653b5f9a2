import '#definitions/zod-english.ts';
import * as z from 'zod/mini';
import {
  MAX_VARIABLE_BYTES,
  MAX_VARIABLES,
  MAX_VARIABLES_TOTAL_BYTES,
  VARIABLE_NAME_PATTERN,
  VARIABLE_NAME_RULE,
} from '#definitions/snippet-variables.ts';
import { withinVariableBytes, withinVariableCount, withinVariablesTotalBytes } from './refinements.ts';
import { variablesMap, variablesWithoutProto } from './transforms.ts';

// Pure-annotated closures: esbuild drops the schemas a function does not use
// (kept: 2.9 KiB in check-eligibility without them (with raw.ts)).

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
 * and the marshaller both drop that key without a word. The bounds are in
 * shared/definitions/snippet-variables.ts; the refinements and transforms are
 * named functions (refinements.ts, transforms.ts).
 */

/** Parsed snippet variables: name → value. */
export type SnippetVariables = ReadonlyMap<string, string>;

const variableRecord = /* @__PURE__ */ (() =>
  z
    .record(
      z.string().check(z.regex(VARIABLE_NAME_PATTERN, VARIABLE_NAME_RULE)),
      z.string().check(z.refine(withinVariableBytes, `must be at most ${MAX_VARIABLE_BYTES} bytes`)),
      // A name that fails the pattern is reported with the rule, not zod's bare "Invalid key in record".
      { error: (issue) => (issue.code === 'invalid_key' ? VARIABLE_NAME_RULE : undefined) },
    )
    .check(
      z.refine(withinVariableCount, `at most ${MAX_VARIABLES} variables`),
      z.refine(
        withinVariablesTotalBytes,
        `at most ${MAX_VARIABLES_TOTAL_BYTES} bytes of names and values in all`,
      ),
    ))();

/** Snippet variables as a client sends them (a JSON object), parsed into a Map. */
export const snippetVariables = /* @__PURE__ */ (() =>
  z
    .pipe(
      // Classic zod's `z.preprocess`: a transform piped into the record.
      z.pipe(z.transform(variablesWithoutProto), variableRecord),
      z.transform(variablesMap),
    )
    .check(
      z.meta({
        description: `Snippet variables for the sequence's templates: at most ${MAX_VARIABLES}, names of a letter then up to 63 letters, digits or underscores (${VARIABLE_NAME_PATTERN.source}), each value at most ${MAX_VARIABLE_BYTES} bytes, ${MAX_VARIABLES_TOTAL_BYTES} bytes of names and values in all (UTF-8).`,
      }),
    ))();
