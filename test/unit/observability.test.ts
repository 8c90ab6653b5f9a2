import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Configuration, configuration, useConfiguration } from '#platform/config.ts';
import { logger } from '#platform/logger.ts';
import { count, observed } from '#platform/observability.ts';

/**
 * The service's own log and metric records (shared/platform/logger.ts,
 * observability.ts): the JSON lines CloudWatch reads, in Powertools' shapes.
 */

const environment = { ...process.env };
const installed = configuration();

/** Installs the test's configuration with these observability settings (the tests' own turn logs and metrics off). */
const observing = (settings: Partial<Configuration['observability']>) =>
  useConfiguration({ ...installed, observability: { ...installed.observability, ...settings } });

afterEach(() => {
  process.env = { ...environment };
  useConfiguration(installed);
  vi.restoreAllMocks();
  logger.resetKeys();
});

/** The JSON lines written to stdout while `fn` runs. */
async function linesOf(fn: () => unknown): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  await fn();
  vi.restoreAllMocks();
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the logger', () => {
  it('writes a JSON record with the level, service, trace id and the persistent and given keys', async () => {
    observing({ logLevel: 'INFO' });
    process.env._X_AMZN_TRACE_ID = 'Root=1-abc-def;Parent=123;Sampled=1';
    const [record] = await linesOf(() => {
      logger.appendKeys({ requestId: 'r-1' });
      logger.warn('Webhook dispatch failed; will retry', { attempt: 2 });
    });
    expect(record).toMatchObject({
      level: 'WARN',
      message: 'Webhook dispatch failed; will retry',
      service: 'outreach-public-api',
      xray_trace_id: '1-abc-def',
      requestId: 'r-1',
      attempt: 2,
    });
    expect(new Date(record!.timestamp as string).toISOString()).toBe(record!.timestamp);
  });

  it('drops records under the configured level, and everything when SILENT', async () => {
    observing({ logLevel: 'WARN' });
    expect(await linesOf(() => logger.info('quiet'))).toEqual([]);
    expect(await linesOf(() => logger.error('loud'))).toHaveLength(1);
    observing({ logLevel: 'SILENT' });
    expect(await linesOf(() => logger.error('loud'))).toEqual([]);
  });

  it('forgets the persistent keys at reset', async () => {
    observing({ logLevel: 'INFO' });
    logger.appendKeys({ orgId: 7 });
    logger.resetKeys();
    const [record] = await linesOf(() => logger.info('next request'));
    expect(record).not.toHaveProperty('orgId');
  });
});

describe('the metrics', () => {
  const handler = observed(async (event: { counts: number }) => {
    count('ContactsPushed', event.counts);
    count('ContactsPushed');
    count('ContactsSkipped', 0);
    if (event.counts < 0) throw new Error('failed');
    return 'done';
  });

  it('publishes one embedded-metric record per invocation with the summed counts', async () => {
    observing({ metrics: true });
    const records = await linesOf(() => handler({ counts: 2 }));
    expect(records).toEqual([
      {
        _aws: {
          Timestamp: expect.any(Number),
          CloudWatchMetrics: [
            {
              Namespace: 'OutreachPublicApi',
              Dimensions: [['service']],
              Metrics: [{ Name: 'ContactsPushed', Unit: 'Count' }],
            },
          ],
        },
        service: 'outreach-public-api',
        ContactsPushed: 3,
      },
    ]);
    // The next invocation starts from zero.
    const [next] = await linesOf(() => handler({ counts: 1 }));
    expect(next).toMatchObject({ ContactsPushed: 2 });
  });

  it('publishes when the handler throws too, and nothing when metrics are off', async () => {
    observing({ metrics: true });
    const failed = await linesOf(() => handler({ counts: -1 }).catch(() => undefined));
    expect(failed).toEqual([expect.objectContaining({ ContactsPushed: 1 })]);
    observing({ metrics: false });
    expect(await linesOf(() => handler({ counts: 5 }))).toEqual([]);
  });
});
