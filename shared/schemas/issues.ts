import type * as z from 'zod/mini';

/**
 * How a value that failed its zod schema is described: each issue names the
 * field at fault the way the request carried it (`contacts[3].email`). The
 * HTTP edge answers an invalid request with every problem (`problemsOf`,
 * `describeProblems`); the raw push reports each invalid contact, and the
 * dashboard each refused form, with the first (`describeIssue`).
 */

/** Where a validated value came from: how a field of it, and the whole of it, are named in messages and paths. */
export interface InputLocation {
  field: string;
  whole: string;
  /** The first segment of a problem's `path` (`body` in `body.contacts[0].email`). */
  root: 'path' | 'query' | 'body';
}

export const PATH_INPUT: InputLocation = { field: 'path parameter', whole: 'path parameters', root: 'path' };
export const QUERY_INPUT: InputLocation = { field: 'query parameter', whole: 'query string', root: 'query' };
export const BODY_INPUT: InputLocation = { field: 'body field', whole: 'request body', root: 'body' };

/** One problem of a request: the value at fault (`body.contacts[0].email`, `query.take`, `body`) and what is wrong with it. */
export interface InputProblem {
  path: string;
  message: string;
}

/** How many problems an answer lists at most; the message says how many more there were. */
export const MAX_LISTED_PROBLEMS = 20;

/** A zod path as the request carried it: `contacts[3].email` (empty for the value itself). */
function fieldName(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
}

/** The path of a field of a location (`body.contacts[3].email`), or of the whole of it (`body`). */
export function problemPath(location: InputLocation, name: string): string {
  if (!name) return location.root;
  return name.startsWith('[') ? `${location.root}${name}` : `${location.root}.${name}`;
}

/** One zod issue as a problem: its path, and the message naming the offending field. */
function problemOf(location: InputLocation, issue: z.core.$ZodIssue): InputProblem {
  const name = fieldName(issue.path);
  return {
    path: problemPath(location, name),
    message: name
      ? `Invalid ${location.field} '${name}': ${issue.message}`
      : `Invalid ${location.whole}: ${issue.message}`,
  };
}

/** Every zod issue of a value as a problem, in zod's order (at least one). */
export function problemsOf(location: InputLocation, issues: readonly z.core.$ZodIssue[]): InputProblem[] {
  if (issues.length === 0) return [{ path: location.root, message: `Invalid ${location.whole}` }];
  return issues.map((issue) => problemOf(location, issue));
}

/** Formats the first zod issue as a message naming the offending field. */
export function describeIssue(
  location: InputLocation,
  error: { readonly issues: readonly z.core.$ZodIssue[] },
): string {
  const issue = error.issues[0];
  return issue ? problemOf(location, issue).message : `Invalid ${location.whole}`;
}

/**
 * The problems an answer lists (the first MAX_LISTED_PROBLEMS) and its one
 * message: theirs joined by `; `, ending `; and N more problems` when some
 * were left out. One problem's message is its own.
 */
export function describeProblems(problems: readonly InputProblem[]): {
  message: string;
  listed: InputProblem[];
} {
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS);
  const more = problems.length - listed.length;
  const messages = listed.map((problem) => problem.message);
  if (more > 0) messages.push(`and ${more} more problem${more === 1 ? '' : 's'}`);
  return { message: messages.join('; '), listed };
}
