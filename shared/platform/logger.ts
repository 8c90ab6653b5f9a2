import { LOG_LEVELS, type LogLevel } from '#definitions/log-levels.ts';
import { invocationTraceHeader, observabilitySettings } from './config.ts';

/**
 * The one structured logger: a JSON line per record on stdout, in the shape
 * Powertools' logger writes (level, message, timestamp, service,
 * sampling_rate, xray_trace_id, then the record's keys), so CloudWatch Logs
 * Insights queries and metric filters read it alike; written here because
 * those few lines were 20 KiB of every bundle. Log records carry ids, counts
 * and error classes; never API keys, secrets, or message bodies.
 *
 * The level and the service name are the configuration's (config.ts:
 * POWERTOOLS_LOG_LEVEL, then AWS_LAMBDA_LOG_LEVEL, INFO when neither is set;
 * SILENT writes nothing, as in the tests).
 */

/** How severe a level is: its place in LOG_LEVELS, least severe first. */
const severity = (level: LogLevel) => LOG_LEVELS.indexOf(level);

/** Values a record's keys may hold: what JSON.stringify writes faithfully. */
export type LogValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | LogValue[]
  | { [key: string]: LogValue };
export type LogAttributes = Record<string, LogValue>;

/** The invocation's trace id, as Lambda passes it (per invocation, so read from the environment each time). */
function traceId(): string | undefined {
  const header = invocationTraceHeader();
  return header ? /(?:^|;)Root=([^;]+)/.exec(header)?.[1] : undefined;
}

class StructuredLogger {
  /** Keys added to every record until reset (the request's ids). */
  private persistentKeys: LogAttributes = {};

  appendKeys(keys: LogAttributes): void {
    Object.assign(this.persistentKeys, keys);
  }

  resetKeys(): void {
    this.persistentKeys = {};
  }

  info(message: string, attributes?: LogAttributes): void {
    this.write('INFO', message, attributes);
  }

  warn(message: string, attributes?: LogAttributes): void {
    this.write('WARN', message, attributes);
  }

  error(message: string, attributes?: LogAttributes): void {
    this.write('ERROR', message, attributes);
  }

  private write(level: LogLevel, message: string, attributes: LogAttributes = {}): void {
    // Read per record: the settings are the configuration of the moment (tests install others as they go).
    const { logLevel, serviceName } = observabilitySettings();
    if (severity(level) < severity(logLevel)) return;
    const record = {
      level,
      message,
      timestamp: new Date().toISOString(),
      service: serviceName,
      sampling_rate: 0,
      xray_trace_id: traceId(),
      ...this.persistentKeys,
      ...attributes,
    };
    process.stdout.write(`${JSON.stringify(record)}\n`);
  }
}

export const logger = new StructuredLogger();
