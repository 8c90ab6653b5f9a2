/**
 * Logs and metrics would fill the bench's output and cost its figures CPU. The
 * bench imports this module first: Powertools' Logger reads the log level when
 * it is made, at the import of shared/platform/logger.ts, before the body of
 * bench/run.ts runs, and the configuration reads both when the local stack
 * loads it (config.ts). A setting given in the environment stays.
 */
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
