import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type { MiddlewareObj } from '@middy/core';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { METRICS_NAMESPACE, METRICS_SERVICE } from '#definitions/metrics.ts';
import { observabilitySettings } from './config.ts';
import { logger } from './logger.ts';
import { traceInvocation } from './xray.ts';

/**
 * Every function's pipeline: @middy/core around its handler, with the logs
 * (Powertools Logger, logger.ts), the metrics (Powertools Metrics: CloudWatch
 * embedded-metric records in the function's log, one per invocation that
 * counted something, counts of what the service did, never contents) and the
 * traces (X-Ray subsegments, xray.ts) as middlewares, and middy's own early
 * timeout. Metrics are off locally and in the tests (POWERTOOLS_METRICS_DISABLED,
 * which Powertools reads itself and the configuration reads for `count`), and
 * traces are only sent for a sampled invocation with a daemon beside it.
 */

/** The service name traces are annotated with. */
const TRACE_SERVICE = 'outreach-public-api';

/** How long before the invocation's deadline middy gives up on the handler, so that the middlewares can still answer. */
const TIMEOUT_MARGIN_MS = 5;

/** The counters the service emits; each name is one CloudWatch metric (the alarms name some: infra/constructs/alarms.ts). */
export type CountMetric =
  | 'ApiKeyRejected'
  | 'ContactsPushed'
  | 'ContactsSkipped'
  | 'ContactsInvalid'
  | 'EligibilityChecked'
  | 'ReplySent'
  | 'ReplyRetried'
  | 'WebhookDelivered'
  | 'WebhookRetried'
  | 'WebhookGone'
  | 'WebhookDropped'
  | 'ProviderWebhookRejected'
  | 'ProviderEventRecorded'
  | 'ProviderEventDuplicate'
  | 'ProviderEventUnmatched'
  | 'EnrollmentSucceeded'
  | 'EnrollmentFailed'
  | 'EnrollmentDeferred'
  | 'EnrollmentWaiting'
  | 'ProviderRateLimited'
  | 'ProviderLeadStopped'
  | 'ProviderConnectionFailing'
  | 'ReplySentThroughProvider';

/** Debug records of the logger, for what Powertools Metrics would warn about. */
const debugRecord = (...content: unknown[]) => logger.debug(content.map(String).join(' '));

/**
 * The service's metrics. Powertools warns, at every invocation that counted
 * nothing, that it has no metric to publish: most requests count nothing, so
 * that notice is a debug record here rather than a warning per request.
 */
export const metrics = new Metrics({
  namespace: METRICS_NAMESPACE,
  serviceName: METRICS_SERVICE,
  logger: {
    debug: debugRecord,
    info: debugRecord,
    warn: debugRecord,
    error: (...content: unknown[]) => logger.error(content.map(String).join(' ')),
  },
});

/**
 * Counts `value` occurrences of `name` in this invocation (published when it
 * ends; a name counted twice is one record's values, which CloudWatch sums).
 * Nothing is counted while the configuration turns metrics off: an installed
 * configuration (the local stack's) turns them off without the environment.
 */
export function count(name: CountMetric, value = 1): void {
  if (value > 0 && observabilitySettings().metrics) metrics.addMetric(name, MetricUnit.Count, value);
}

/** What the trace middleware keeps of an invocation in middy's per-request `internal`. */
type Traced = {
  closeTrace?: (failed: boolean) => void;
};

/**
 * The invocation's trace subsegment, closed when the handler returns or
 * throws. It never records the event or the response: they hold contact data
 * and message bodies. Outgoing HTTP is not traced: the webhook client pins the
 * resolved address itself (ssrf.ts).
 */
const traceHandler = (): MiddlewareObj<unknown, unknown, Error, Context, Traced> => ({
  before: (request) => {
    request.internal.closeTrace = traceInvocation(TRACE_SERVICE);
  },
  after: (request) => {
    request.internal.closeTrace?.(false);
  },
  onError: (request) => {
    request.internal.closeTrace?.(true);
  },
});

/**
 * The logs, metrics and traces of every invocation: the Lambda context and
 * cold start in each log record, the keys a request added forgotten at its
 * end, the event never logged (it holds API keys and message bodies, whatever
 * POWERTOOLS_LOGGER_LOG_EVENT says), the counts published on success and on
 * error alike.
 */
const observability = (): MiddlewareObj[] => [
  injectLambdaContext(logger, { logEvent: false, resetKeys: true }),
  logMetrics(metrics),
  traceHandler() as MiddlewareObj,
];

/**
 * A Lambda handler as the service's functions export it. The context is
 * optional: the local stack's event sources and the tests invoke handlers
 * with the event alone (middy then gives them an empty one, without a deadline).
 */
export type LambdaHandler<Event, Result> = (event: Event, context?: Context) => Promise<Result>;

/** Middlewares of a handler beside the observability ones, typed by its event and result. */
export type HandlerMiddleware<Event, Result> = MiddlewareObj<Event, Result>;

/**
 * `handler` through @middy/core: the observability middlewares, then
 * `middlewares` in order (their `onError`s run first, so an error they answer
 * is logged and counted as answered), and middy's timeout, which fails the
 * handler with a `TimeoutError` TIMEOUT_MARGIN_MS before the invocation's
 * deadline (with Lambda's context only; the local stack's has one too).
 */
export function lambdaHandler<Event, Result>(
  handler: (event: Event, context: Context) => Promise<Result>,
  middlewares: readonly HandlerMiddleware<Event, Result>[] = [],
): LambdaHandler<Event, Result> {
  return middy<Event, Result>({ timeoutEarlyInMillis: TIMEOUT_MARGIN_MS })
    .use(observability())
    .use([...middlewares] as MiddlewareObj[])
    .handler(handler) as LambdaHandler<Event, Result>;
}
