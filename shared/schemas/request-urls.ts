import '#definitions/zod-english.ts';
import * as z from 'zod/mini';
import { urlRequestProblem } from './refinements.ts';

/**
 * What the request alone shows wrong with a URL (`urlRequestProblem`), as a problem of the request
 * beside its others: the deployment's checks (its policy, the host's addresses) follow once the
 * request is valid. A URL already refused for its length is not judged again.
 */
export const requestUrlChecked = (maxLength: number) =>
  z.superRefine((value: string, context) => {
    if (value.length === 0 || value.length > maxLength) return;
    const problem = urlRequestProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem, input: value });
  });
