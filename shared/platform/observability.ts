import type { Context } from 'aws-lambda';
import { METRICS_NAMESPACE, METRICS_SERVICE } from '#definitions/metrics.ts';
import { observabilitySettings } from './config.ts';
import { type Middleware, withMiddlewares } from './middleware.ts';
import { traceInvocation } from './xray.ts';

/**
 * Metrics and traces (xray.ts), beside the logger (logger.ts). Metrics are
 * CloudWatch embedded-metric records written to the function's log, one per
 * invocation that counted something, in the shape Powertools' Metrics writes
 * (namespace, a `service` dimension), without its 14 KiB in every bundle:
 * counts of what the service did, never contents. Traces are X-Ray
 * subsegments for each invocation and each AWS call; both are inert outside
 * Lambda (the local stack and tests turn metrics off in the configuration,
 * POWERTOOLS_METRICS_DISABLED, and traces are only sent for a sampled
 * invocation with a daemon beside it).
 */

/** The service name traces are annotated with. */
const TRACE_SERVICE = 'outreach-public-api';

/** The counters the service emits; each name is one CloudWatch metric. */
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

/** The invocation's counts so far, by metric. */
const counts = new Map<CountMetric, number>();

/** Counts `value` occurrences of `name` in this invocation (published when it ends). */
export function count(name: CountMetric, value = 1): void {
  if (value > 0) counts.set(name, (counts.get(name) ?? 0) + value);
}

/** Writes the invocation's counts as one embedded-metric record, unless metrics are off (locally, in tests). */
function publishCounts(): void {
  if (counts.size === 0) return;
  const names = [...counts.keys()];
  const values = Object.fromEntries(counts);
  counts.clear();
  if (!observabilitySettings().metrics) return;
  const record = {
    _aws: {
      Timestamp: Date.now(),
      CloudWatchMetrics: [
        {
          Namespace: METRICS_NAMESPACE,
          Dimensions: [['service']],
          Metrics: names.map((name) => ({ Name: name, Unit: 'Count' })),
        },
      ],
    },
    service: METRICS_SERVICE,
    ...values,
  };
  process.stdout.write(`${JSON.stringify(record)}\n`);
}

/** Publishes the invocation's counters, if it counted anything, on success and on error alike. */
const publishMetrics = <Event, Result>(): Middleware<Event, Result> => ({
  after: publishCounts,
  onError: publishCounts,
});

/**
 * The invocation's trace subsegment, closed when the handler returns or throws.
 * It never records the event or the response: they hold contact data and
 * message bodies. Outgoing HTTP is not traced: the webhook client pins the
 * resolved address itself (ssrf.ts).
 */
const traceHandler = <Event, Result>(): Middleware<Event, Result> => {
  let close: ((failed: boolean) => void) | undefined;
  return {
    before: () => {
      close = traceInvocation(TRACE_SERVICE);
    },
    after: () => close?.(false),
    onError: () => close?.(true),
  };
};

/** Traces and meters a handler. */
export function observability<Event, Result>(): Middleware<Event, Result>[] {
  return [traceHandler(), publishMetrics()];
}

/**
 * A Lambda handler (queue consumer, stream relay, authorizer) with traces and
 * metrics. The context is optional: the local stack's event sources invoke
 * consumers with the event alone.
 */
export function observed<Event, Result>(
  handler: (event: Event, context: Context) => Promise<Result>,
): (event: Event, context?: Context) => Promise<Result> {
  const wrapped = withMiddlewares(observability<Event, Result>(), handler);
  return (event, context) => wrapped(event, context ?? ({} as Context));
}
