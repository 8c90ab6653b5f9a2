import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/support/sequencer.ts';

/**
 * Test tiers, each runnable alone (`npx vitest run --project unit`):
 * unit (aws-sdk-client-mock, no I/O), integration (DynamoDB Local),
 * e2e (real HTTP against the local stack), infra (CDK template and cdk-nag).
 * The tiers that need DynamoDB Local get one per worker (test/support/global-setup.ts);
 * each of their test files gets a table of its own (test/support/setup.ts).
 */
// The AWS SDK warns about Node 20, this machine's runtime by design (Lambda runs 24).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
// Metrics are CloudWatch records on stdout; only the test of the metrics themselves turns them on.
const quiet = {
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  POWERTOOLS_LOG_LEVEL: 'SILENT',
  POWERTOOLS_METRICS_DISABLED: 'true',
};
const withDynamoDb = { setupFiles: ['test/support/setup.ts'], env: quiet };

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    // Vitest runs `availableParallelism - 1` files at once by default: one at a time on 2 cores. Two at
    // once, each with its own DynamoDB Local, halves the waiting; three made DynamoDB Local's transactions
    // slow enough on a loaded machine to time request-count tests out. VITEST_MAX_WORKERS overrides it.
    maxWorkers: 2,
    // The longest files first, whatever their tier, so that none is left to run alone at the end.
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // One module graph for the whole tier: its files mock the AWS clients per test and restore what
          // they change (environment, configuration, spies) after each, and importing the service's modules
          // afresh for every file was half the tier's time (189 s isolated, 112 s not, on a loaded machine;
          // the same 902 tests pass).
          isolate: false,
          env: { ...quiet, TABLE_NAME: 'unit-test-table', AWS_REGION: 'us-east-1' },
          // Linting the document and compiling generated types take seconds, more on a loaded machine.
          testTimeout: 60_000,
        },
      },
      {
        test: {
          ...withDynamoDb,
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // One module graph per worker, as the unit tier has: the setup file still runs before each file and
          // installs the file's own table in the configuration, which every client follows (perConfiguration).
          // Importing the service's modules afresh for every file was most of a file's setup: on one loaded
          // machine, 164 s of the tier's Node CPU isolated, 115 s not; the same 492 tests pass.
          isolate: false,
          // No local stack, so no relay reading the table's stream (test/support/setup.ts).
          env: { ...quiet, TEST_TABLE_STREAM: 'off' },
          testTimeout: 30_000,
        },
      },
      {
        test: {
          ...withDynamoDb,
          // Every response of a stack started with startTestStack is checked against the OpenAPI document.
          setupFiles: [...withDynamoDb.setupFiles, 'test/support/contract-setup.ts'],
          // Stacks started by e2e tests (and their child processes) seed a small demo: 20 accounts, not 220.
          env: { ...quiet, OUTREACH_DEMO_ACCOUNTS: '20' },
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // One module graph per worker, as the other tiers have: each file still starts a stack of its own on a
          // table of its own, and the service's module-level caches are keyed by what makes them safe to share
          // (the table, the issuer, a connection's wrapped key). Importing the service and compiling the contract
          // validators afresh for every file, and warming V8 up again each time, was over a third of the tier's
          // Node CPU: 466 s isolated, 287 s not (38 files; the same 901 tests pass).
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      // Synthesizing the stack (a function per route) takes a while in the beforeAll hook too.
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          env: quiet,
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
