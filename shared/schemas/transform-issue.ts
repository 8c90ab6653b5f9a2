import type * as z from 'zod/mini';

/**
 * An issue a transform reports about its input, as classic zod's transform
 * context did with `addIssue` (zod/mini hands a transform the bare parse
 * payload, without it): a `custom` issue whose `input` is the value being
 * transformed unless given. The transform returns `z.NEVER` after it.
 */
export function addTransformIssue(
  payload: z.core.ParsePayload,
  issue: { code: 'custom'; message: string; path?: PropertyKey[]; input?: unknown },
): void {
  payload.issues.push({ ...issue, input: 'input' in issue ? issue.input : payload.value });
}
