/**
 * The settings of the local process that libraries read from the environment
 * themselves, when the service's modules create their logger, metrics and
 * clients (as they are imported): Powertools' log level and metrics switch,
 * and the AWS SDK's notice about Node 20 (this machine's runtime by design;
 * Lambda runs 24). Only these go through the environment; the service's own
 * settings are a configuration object the stack installs (stack.ts). A value
 * already set wins. `npm start` imports this module before any other.
 */
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
// Metrics are CloudWatch records in Lambda's log; locally they would only fill the terminal.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
