import { STAGE_THROTTLE } from '#definitions/rate-limits.ts';
import { tableName } from '#platform/config.ts';
import { type LocalStack, type LocalStackOptions, startLocalStack } from '../../infra/local/stack.ts';
import { recordExchange } from './contract.ts';
import { dynamodbEndpoint } from './dynamodb-endpoint.ts';
import { recordTableActions } from './table-actions.ts';

/**
 * Starts the local stack in this test worker on a free port, on the run's
 * DynamoDB Local and the file's own table (see setup.ts). Every response it
 * sends is checked against the OpenAPI document (contract.ts); the e2e setup
 * fails the test during which one does not match. Its provider emulators play
 * only what a test asks (manual playback) unless `providerEmulators` says otherwise. With `endpointsDir`, the
 * stack writes its endpoints file there, where `outreach-admin` children of
 * the test find it (OUTREACH_LOCAL_DIR, which stopping the stack removes).
 */
export async function startTestStack(
  options: {
    endpointsDir?: string;
    providerEmulators?: LocalStackOptions['providerEmulators'];
    authorizerCacheSeconds?: number;
    /** The local OpenID provider (for tests that sign in or add members): off unless asked. */
    openIdProvider?: boolean;
    /** Origins that may call `/public/v1` from a browser (CORS): none unless asked. */
    corsAllowedOrigins?: readonly string[];
    /** Provider rate limits in place of the documented ones (LocalStackOptions.providerRateLimits). */
    providerRateLimits?: LocalStackOptions['providerRateLimits'];
  } = {},
): Promise<LocalStack> {
  recordTableActions();
  if (options.endpointsDir) process.env.OUTREACH_LOCAL_DIR = options.endpointsDir;
  const stack = await startLocalStack({
    port: 0,
    dynamodbEndpoint: dynamodbEndpoint(),
    tableName: tableName(),
    onResponse: recordExchange,
    writeEndpointsFile: options.endpointsDir !== undefined,
    // Every client of a test calls from 127.0.0.1; the per-address bucket has its own test (gateway-hardening).
    clientAddressThrottle: STAGE_THROTTLE,
    // Tests drive the provider emulators' playback themselves (their control API), unless they ask.
    providerEmulators: options.providerEmulators ?? { playback: 'manual' },
    authorizerCacheSeconds: options.authorizerCacheSeconds,
    openIdProvider: options.openIdProvider ?? false,
    corsAllowedOrigins: options.corsAllowedOrigins,
    providerRateLimits: options.providerRateLimits,
    // A test machine busy with other work can be many times slower than Lambda: a request is bounded by
    // its test's timeout, not by API Gateway's 29 seconds (a 1,000-contact push took 30 s on a loaded machine).
    invocationTimeoutMs: 300_000,
  });
  if (!options.endpointsDir) return stack;
  return {
    ...stack,
    async stop() {
      await stack.stop();
      delete process.env.OUTREACH_LOCAL_DIR;
    },
  };
}
