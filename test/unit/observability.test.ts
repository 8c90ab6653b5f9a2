import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { METRICS_NAMESPACE } from '#definitions/metrics.ts';

/**
 * The metrics every function publishes: CloudWatch embedded-metric records on
 * stdout, one per invocation that counted something, holding counts only.
 */

let written: string[];

beforeEach(() => {
  vi.resetModules();
  // The suite turns metrics off (vitest.config.ts); this test is about them.
  vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
  written = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    written.push(String(chunk));
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const records = () =>
  written
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line.includes('"_aws"'))
    .map((line) => JSON.parse(line) as Record<string, unknown> & { _aws: { CloudWatchMetrics: unknown[] } });

describe('observed handlers', () => {
  it("publish the invocation's counters in the service's namespace, and not the response", async () => {
    const { count, observed } = await import('#platform/observability.ts');
    const handler = observed(async () => {
      count('WebhookDelivered');
      count('WebhookDelivered');
      count('ContactsPushed', 40);
      return { body: 'Hello Ada, the secret plan' };
    });
    await handler({});
    const [record, ...others] = records();
    expect(others).toEqual([]);
    expect(record).toMatchObject({
      _aws: {
        CloudWatchMetrics: [
          {
            Namespace: METRICS_NAMESPACE,
            Metrics: expect.arrayContaining([
              { Name: 'WebhookDelivered', Unit: 'Count' },
              { Name: 'ContactsPushed', Unit: 'Count' },
            ]),
          },
        ],
      },
      service: 'outreach-public-api',
      // One data point per count; CloudWatch's Sum adds them up.
      WebhookDelivered: [1, 1],
      ContactsPushed: 40,
    });
    expect(written.join('')).not.toContain('secret plan');
  });

  it('publish nothing (not even a warning) for an invocation that counted nothing, and also publish when failing', async () => {
    const { count, observed } = await import('#platform/observability.ts');
    await observed(async () => 'quiet')({});
    expect(written).toEqual([]);
    const failing = observed(async () => {
      count('ReplyRetried');
      throw new Error('boom');
    });
    await expect(failing({})).rejects.toThrow('boom');
    expect(records()).toHaveLength(1);
    expect(records()[0]).toMatchObject({ ReplyRetried: 1 });
  });

  it('count nothing for zero', async () => {
    const { count, observed } = await import('#platform/observability.ts');
    await observed(async () => count('ContactsSkipped', 0))({});
    expect(written).toEqual([]);
  });
});
