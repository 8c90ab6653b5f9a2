/**
 * The one structured logger: a JSON line per record on stdout, in the shape
 * Powertools' logger writes (level, message, timestamp, service,
 * sampling_rate, xray_trace_id, then the record's keys), so CloudWatch Logs
 * Insights queries and metric filters read it alike; written here because
 * those few lines were 20 KiB of every bundle. Log records carry ids, counts
 * and error classes; never API keys, secrets, or message bodies.
 *
 * The level is POWERTOOLS_LOG_LEVEL (then AWS_LAMBDA_LOG_LEVEL), INFO when
 * neither is set; SILENT writes nothing (the tests).
 */

const LEVELS = { TRACE: 6, DEBUG: 8, INFO: 12, WARN: 16, ERROR: 20, CRITICAL: 24, SILENT: 28 } as const;
type LevelName = keyof typeof LEVELS;

const SERVICE = 'outreach-public-api';

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

function configuredLevel(): number {
  const name = (process.env.POWERTOOLS_LOG_LEVEL ?? process.env.AWS_LAMBDA_LOG_LEVEL ?? 'INFO').toUpperCase();
  return LEVELS[name as LevelName] ?? LEVELS.INFO;
}

/** The invocation's trace id, as Lambda passes it. */
function traceId(): string | undefined {
  const header = process.env._X_AMZN_TRACE_ID;
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

  private write(level: LevelName, message: string, attributes: LogAttributes = {}): void {
    // Read per record: the level is the environment's at the moment (tests and the local stack set it late).
    if (LEVELS[level] < configuredLevel()) return;
    const record = {
      level,
      message,
      timestamp: new Date().toISOString(),
      service: process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE,
      sampling_rate: 0,
      xray_trace_id: traceId(),
      ...this.persistentKeys,
      ...attributes,
    };
    process.stdout.write(`${JSON.stringify(record)}\n`);
  }
}

export const logger = new StructuredLogger();
