import { Logger } from '@aws-lambda-powertools/logger';
import { METRICS_SERVICE } from '#definitions/metrics.ts';

/**
 * The one structured logger: Powertools Logger, a JSON line per record
 * (level, message, timestamp, service, sampling_rate, xray_trace_id, the
 * invocation's Lambda context once `injectLambdaContext` ran, then the
 * record's keys), which CloudWatch Logs Insights queries and metric filters
 * read. Log records carry ids, counts and error classes; never API keys,
 * secrets, or message bodies: no call passes one, and the event is never
 * logged (observability.ts turns `logEvent` off whatever the environment says).
 *
 * Powertools reads its level from its own variables, as config.ts reads
 * them: POWERTOOLS_LOG_LEVEL, then AWS_LAMBDA_LOG_LEVEL, INFO when neither
 * is set; SILENT writes nothing (the tests), WARN is `npm start`'s. The
 * service is the metrics' `service` dimension, so logs and metrics name it alike.
 */
export const logger = new Logger({ serviceName: METRICS_SERVICE });
