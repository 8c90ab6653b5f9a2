import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { logger } from '#platform/logger.ts';
import { count, lambdaHandler, metrics } from '#platform/observability.ts';
import { loggingAt, logRecordsOf, metricRecordsOf } from '../support/observability.ts';

/**
 * The service's log and metric records (Powertools Logger and Metrics, set up
 * in shared/platform/logger.ts and observability.ts): the JSON lines
 * CloudWatch reads, and what the service keeps out of them.
 */

const environment = { ...process.env };
const quietLevel = logger.getLevelName();

afterEach(() => {
  process.env = { ...environment };
  logger.setLogLevel(quietLevel);
  logger.resetKeys();
  vi.restoreAllMocks();
});

const lambdaContext = {
  awsRequestId: 'aws-request-1',
  functionName: 'get-campaign',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:eu-west-1:000000000000:function:get-campaign',
  memoryLimitInMB: '256',
} as Context;

describe('the logger', () => {
  it('writes a JSON record with the level, service, trace id and the persistent and given keys', async () => {
    loggingAt('INFO');
    process.env._X_AMZN_TRACE_ID = 'Root=1-abc-def;Parent=123;Sampled=1';
    const [record] = await logRecordsOf(() => {
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
    loggingAt('WARN');
    expect(await logRecordsOf(() => logger.info('quiet'))).toEqual([]);
    expect(await logRecordsOf(() => logger.error('loud'))).toHaveLength(1);
    loggingAt('SILENT');
    expect(await logRecordsOf(() => logger.error('loud'))).toEqual([]);
  });

  it('adds the Lambda context to an invocation’s records, never its event, and forgets its keys at its end', async () => {
    loggingAt('INFO');
    process.env.POWERTOOLS_LOGGER_LOG_EVENT = 'true';
    const handler = lambdaHandler(async (event: { apiKey: string }) => {
      logger.appendKeys({ orgId: 7 });
      logger.info('handled');
      return event.apiKey.length;
    });
    const records = await logRecordsOf(() => handler({ apiKey: 'secret-api-key' }, lambdaContext));
    expect(records).toEqual([
      expect.objectContaining({
        message: 'handled',
        orgId: 7,
        function_name: 'get-campaign',
        function_request_id: 'aws-request-1',
        cold_start: expect.any(Boolean),
      }),
    ]);
    expect(JSON.stringify(records)).not.toContain('secret-api-key');
    const [next] = await logRecordsOf(() => logger.info('next request'));
    expect(next).not.toHaveProperty('orgId');
  });
});

describe('the metrics', () => {
  const handler = lambdaHandler(async (event: { counts: number }) => {
    count('ContactsPushed', event.counts);
    count('ContactsPushed');
    count('ContactsSkipped', 0);
    if (event.counts < 0) throw new Error('failed');
    return 'done';
  });

  /** A metric's total in a record: a name counted more than once holds its values, which CloudWatch sums. */
  const total = (record: Record<string, unknown> | undefined, name: string) =>
    [record?.[name] ?? []].flat().reduce((sum: number, value) => sum + Number(value), 0);

  it('publishes one embedded-metric record per invocation with its counts, in the namespace and service', async () => {
    const records = await metricRecordsOf(() => handler({ counts: 2 }));
    expect(records).toEqual([
      expect.objectContaining({
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
      }),
    ]);
    expect(total(records[0], 'ContactsPushed')).toBe(3);
    // The next invocation starts from zero.
    const [next] = await metricRecordsOf(() => handler({ counts: 1 }));
    expect(total(next, 'ContactsPushed')).toBe(2);
  });

  it('publishes when the handler throws too, and nothing is counted while the configuration turns metrics off', async () => {
    const failed = await metricRecordsOf(() => handler({ counts: -1 }).catch(() => undefined));
    expect(failed).toHaveLength(1);
    expect(total(failed[0], 'ContactsPushed')).toBe(1);
    const added = vi.spyOn(metrics, 'addMetric');
    await handler({ counts: 5 });
    expect(added).not.toHaveBeenCalled();
  });
});
