/**
 * What a transform is handed beside its input: zod's parse payload (zod/mini
 * gives a transform the bare payload). An issue added to it fails the value.
 */
export interface TransformContext {
  value: unknown;
  issues: unknown[];
}

/**
 * An issue a transform reports about its input, as classic zod's transform
 * context did with `addIssue`: a `custom` issue whose `input` is the value
 * being transformed unless given. What the transform returns after it is
 * discarded (zod stops at the issue).
 */
export function addTransformIssue(
  context: TransformContext,
  issue: { code: 'custom'; message: string; path?: PropertyKey[]; input?: unknown },
): void {
  context.issues.push({ ...issue, input: 'input' in issue ? issue.input : context.value });
}
