/**
 * The bounds of snippet variables (shared/schemas/variables.ts), which their
 * schema's refinements (shared/schemas/refinements.ts) and its description
 * both name.
 */

/** A name: a letter, then up to 63 letters, digits or underscores. */
export const VARIABLE_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
export const VARIABLE_NAME_RULE = 'variable names are a letter, then up to 63 letters, digits or underscores';

export const MAX_VARIABLES = 50;
export const MAX_VARIABLE_BYTES = 10 * 1024;
/**
 * A contact's variables are stored on its assignment, and a push updates up to
 * 100 assignments in one transaction: 16 kB each (beside the contact's details)
 * keeps an item far below DynamoDB's 400 KB and such a transaction below its
 * 4 MB. Fifty values of 10 kB would fit neither.
 */
export const MAX_VARIABLES_TOTAL_BYTES = 16 * 1024;
