import { applyImport, type ImportOptions, type ImportReport, validateImport } from '#admin/import.ts';
import type { ImportDocument } from '#schemas/import.ts';

/** How many of an invalid fixture's problems the thrown error names: the first ones locate the mistake. */
const PROBLEMS_SHOWN = 5;

/**
 * The document a test's fixture parses to. A fixture that does not validate
 * is the test's own mistake, not an outcome under test: this throws with its
 * first problems (path and message) instead of letting the test go on.
 */
export function validImport(raw: unknown): ImportDocument {
  const validated = validateImport(raw);
  if (!validated.ok) {
    const shown = validated.errors.slice(0, PROBLEMS_SHOWN);
    const more = validated.errors.length - shown.length;
    throw new Error(
      `The test's import document is invalid: ${JSON.stringify(shown)}${more > 0 ? ` and ${more} more` : ''}`,
    );
  }
  return validated.document;
}

/**
 * Imports a fixture into an organization as the operator's import does:
 * validated first (throwing with the first problems when invalid), then
 * applied with `options` (path, emitEvents). Returns the import's report.
 */
export async function importFor(
  orgId: number,
  raw: unknown,
  options: ImportOptions = {},
): Promise<ImportReport> {
  return applyImport(orgId, validImport(raw), undefined, options);
}
