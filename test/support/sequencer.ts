import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Starts the longest test files first, whatever their tier. Vitest's own
 * sequencer queues the tiers one after the other (e2e, infra, integration,
 * unit), so a long integration file (the full demo seed) only starts once
 * every e2e file has, and the run waits for it at the end. A file's weight
 * is its duration in the last run (Vitest's cache), at least the estimate
 * below: a fresh clone has no cache, and Vitest counts no time spent in a
 * file's `beforeAll` (where the bundles and synthesized stacks are built).
 * Ties go to the larger file.
 */

/** Seconds each slow file takes on two cores beside another file (a quiet machine's full run). */
const ESTIMATES: Record<string, number> = {
  'test/e2e/bad-input.property.test.ts': 103,
  'test/e2e/provider-enrollment.test.ts': 49,
  'test/e2e/provider-pacing.test.ts': 24,
  'test/integration/counters.property.test.ts': 48,
  'test/e2e/local-stack-process.test.ts': 42,
  'test/e2e/restart.test.ts': 30,
  'test/integration/demo-seed.test.ts': 20,
  'test/e2e/dashboard-browser.test.ts': 20,
  'test/e2e/faults.test.ts': 17,
  'test/e2e/webhooks.test.ts': 17,
  'test/infra/bundles.test.ts': 17,
  'test/e2e/provider-webhooks.test.ts': 15,
  'test/e2e/push-hardening.test.ts': 15,
  'test/e2e/raw-operations.test.ts': 15,
  'test/integration/provider-events.test.ts': 11,
  'test/infra/nag.test.ts': 10,
  'test/infra/reference-functions.test.ts': 7,
};

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const path = (spec: TestSpecification) => relative(root, spec.moduleId);
    const weight = (spec: TestSpecification) =>
      Math.max(
        this.ctx.cache.getFileTestResults(`${spec.project.name}:${path(spec)}`)?.duration ?? 0,
        (ESTIMATES[path(spec)] ?? 0) * 1000,
      );
    const size = (spec: TestSpecification) =>
      this.ctx.cache.getFileStats(`${spec.project.name}:${path(spec)}`)?.size ?? 0;
    return [...files].sort((a, b) => weight(b) - weight(a) || size(b) - size(a));
  }
}
