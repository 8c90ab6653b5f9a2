import { onTestFailed, onTestFinished } from 'vitest';

/**
 * Polls until `check` holds, instead of sleeping a fixed time: `check` holds
 * when it returns anything but `false` without throwing (its `expect`s pass),
 * and its value is returned. There is no deadline of its own: the test's (or
 * hook's) timeout bounds it, so a loaded machine only makes it slower, never
 * wrong. When the test fails while it is still waiting, the last reason it was
 * waiting for is printed beside the failure.
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  options: { what?: string; intervalMs?: number } = {},
): Promise<Exclude<T, false>> {
  const interval = options.intervalMs ?? 50;
  let finished = false;
  let settled = false;
  let reason = 'not yet checked';
  try {
    onTestFinished(() => {
      finished = true;
    });
    onTestFailed(() => {
      if (!settled) console.error(`waitFor(${options.what ?? 'a condition'}) was still waiting: ${reason}`);
    });
  } catch {
    // Called from a hook rather than a test: the hook's timeout bounds it.
  }
  for (;;) {
    try {
      const value = await check();
      if (value !== false) {
        settled = true;
        return value as Exclude<T, false>;
      }
      reason = 'the check returned false';
    } catch (error) {
      reason = error instanceof Error ? error.message : String(error);
    }
    if (finished)
      throw new Error(`waitFor(${options.what ?? 'a condition'}) gave up with its test: ${reason}`);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
