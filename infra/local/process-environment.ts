/**
 * `npm start`'s own defaults, set before anything loads (it imports this
 * module first): the log level a terminal wants (WARN: requests are not
 * logged one by one), which the configuration reads from the environment, and
 * the AWS SDK's notice about Node 20 (this machine's runtime by design; Lambda
 * runs 24), which the SDK reads itself. The metrics switch is a default of
 * every local stack (stack.ts). A value already set wins.
 */
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
