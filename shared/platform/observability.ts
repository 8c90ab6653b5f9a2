import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { METRICS_NAMESPACE, METRICS_SERVICE } from '#definitions/metrics.ts';

/**
 * Metrics and traces (Powertools), beside the logger (logger.ts). Metrics are
 * CloudWatch embedded-metric records written to the function's log: counts of
 * what the service did, never contents. Traces are X-Ray segments for each
 * invocation and each AWS call; both are inert outside Lambda (the local
 * stack and tests set POWERTOOLS_METRICS_DISABLED, and the tracer only runs
 * where Lambda's environment says so).
 */

export const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: METRICS_SERVICE });

// Outgoing HTTP is not patched: the webhook client pins the resolved address itself (ssrf.ts).
export const tracer = new Tracer({ serviceName: 'outreach-public-api', captureHTTPsRequests: false });

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
  | 'ProviderRateLimited'
  | 'ProviderLeadStopped'
  | 'ReplySentThroughProvider';

/** Counts `value` occurrences of `name` in this invocation (published when it ends). */
export function count(name: CountMetric, value = 1): void {
  if (value > 0) metrics.addMetric(name, MetricUnit.Count, value);
}

/**
 * Publishes the invocation's counters, if it counted anything (an empty
 * publish only logs a warning), on success and on error alike.
 */
const publishMetrics = (): middy.MiddlewareObj => {
  const publish = () => {
    if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  };
  return { after: publish, onError: publish };
};

/**
 * Traces and meters a handler. The trace never records the response: it holds
 * contact data and message bodies.
 */
export function observability<Event, Result>(): middy.MiddlewareObj<Event, Result>[] {
  return [
    captureLambdaHandler(tracer, { captureResponse: false }) as middy.MiddlewareObj<Event, Result>,
    publishMetrics() as middy.MiddlewareObj<Event, Result>,
  ];
}

/**
 * A Lambda handler (queue consumer, stream relay, authorizer) with traces and
 * metrics. The context is optional as for middy: the local stack's event
 * sources invoke consumers with the event alone.
 */
export function observed<Event, Result>(
  handler: (event: Event, context: Context) => Promise<Result>,
): (event: Event, context?: Context) => Promise<Result> {
  const wrapped = middy<Event, Result>().use(observability<Event, Result>()).handler(handler);
  return (event, context) => wrapped(event, context ?? ({} as Context));
}
