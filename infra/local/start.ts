import './process-environment.ts';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { DemoSeed } from '#admin/seed.ts';
import { JavaMissingError, startDynamoDbLocal } from './dynamodb-local.ts';
import { portFree } from './port.ts';

/**
 * `npm start`: runs the whole service locally and prints the base URL and the
 * demo organization's API key. Options: `--port N` (or PORT, default 3000),
 * `--data-dir DIR` (or DATA_DIR; in memory when absent). PROVIDER_EMULATOR_PLAYBACK=manual keeps
 * the provider emulators from playing enrolled leads back on their own.
 */

/** The demo organization's dashboard admin at the local OpenID provider. */
const DEMO_ADMIN_EMAIL = 'admin@demo.example';

const { values } = parseArgs({
  options: { port: { type: 'string' }, 'data-dir': { type: 'string' } },
  allowPositionals: false,
});
const port = Number(values.port ?? process.env.PORT ?? 3000);
const dataDirOption = values['data-dir'] ?? process.env.DATA_DIR;
const dataDir = dataDirOption ? resolve(dataDirOption) : undefined;

if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(
    `Invalid port ${JSON.stringify(values.port ?? process.env.PORT)}: use --port N or PORT=N with 0-65535.`,
  );
  process.exit(1);
}

try {
  // A busy port is said at once, before DynamoDB Local's JVM has started for nothing (startLocalStack checks
  // it again, for its other callers).
  if (port !== 0) await portFree(port);
  // DynamoDB Local's JVM is the slowest part to start: it starts first, and the stack's code loads meanwhile.
  const dynamodbLocal = startDynamoDbLocal({ dataDir });
  // The stack waits for it (and stops it); a failure to start (no Java) is reported from there.
  dynamodbLocal.catch(() => undefined);
  const stackModules = Promise.all([import('./stack.ts'), import('#admin/progress.ts')]);
  stackModules.catch(() => undefined);
  const { demoOrganizationId, prepareDemo, seedDemo } = await import('#admin/seed.ts');
  // A store in memory starts empty: its demo document is built and checked before the table exists, while
  // the stack's own modules (the emulators') are still loading.
  const preparedDemo = dataDir ? undefined : prepareDemo();
  const [{ startLocalStack }, { progressReporter }] = await stackModules;
  // What only follows the stack's start (the dashboard's admin, the emulators' connections): loaded with
  // the rest of the stack's code, once the seed writes its items (or at once, without a seed).
  const importFollowUps = () =>
    Promise.all([
      import('#admin/identity-directory.ts'),
      import('#use-cases/add-member.ts'),
      import('./demo-providers.ts'),
    ]);
  let followUps: ReturnType<typeof importFollowUps> | undefined;
  const loadFollowUps = () => {
    if (!followUps) {
      followUps = importFollowUps();
      // Awaited once the stack has started; a failure before then must not go unhandled meanwhile.
      followUps.catch(() => undefined);
    }
    return followUps;
  };
  // On an empty store the demo is seeded while the rest of the stack starts (its routes, queues' pollers,
  // gateway and OpenID provider need nothing of it).
  let seeded: { demo: DemoSeed; seconds: string } | undefined;
  const stack = await startLocalStack({
    port,
    dataDir,
    dynamodbLocal,
    writeEndpointsFile: true,
    mailDir: dataDir ? resolve(dataDir, 'mail') : undefined,
    // The emulators play enrolled leads back on their own (README "Watch the loop"), unless told to wait.
    providerEmulators: {
      playback: process.env.PROVIDER_EMULATOR_PLAYBACK === 'manual' ? 'manual' : 'compressed',
    },
    async whileStarting({ freshStore, waitsOnTable }) {
      if (!freshStore) {
        loadFollowUps();
        return;
      }
      console.log('Empty store: importing the demo organization…');
      const progress = progressReporter();
      const seedStartedAt = performance.now();
      const demo = await seedDemo({
        onProgress: progress.update,
        onWriting() {
          waitsOnTable();
          loadFollowUps();
        },
        prepared: preparedDemo,
      }).finally(() => progress.done());
      seeded = { demo, seconds: ((performance.now() - seedStartedAt) / 1000).toFixed(1) };
    },
  });
  const [{ identityDirectory }, { addMember }, { connectDemoToEmulators }] = await loadFollowUps();
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the local stack`);
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  const details: string[] = [];
  const demoOrgId = seeded?.demo.orgId ?? (await demoOrganizationId());
  // The dashboard's admin and the emulators' connections are independent: made at once.
  const [admin, linked] = await Promise.all([
    // A person to sign in to the dashboard with, at the local OpenID provider (docs/dashboard.md).
    seeded &&
      addMember({
        orgId: seeded.demo.orgId,
        email: DEMO_ADMIN_EMAIL,
        role: 'admin',
        actor: 'operator',
        directory: identityDirectory(),
      }),
    demoOrgId === null ? null : connectDemoToEmulators(demoOrgId, stack.apiUrl, stack.providerApiUrls),
  ]);
  if (seeded) {
    const { demo, seconds } = seeded;
    const { report } = demo;
    const count = (value: number) => value.toLocaleString('en-US');
    details.push(`  Demo org:     ${demo.orgId}`);
    details.push(
      `  Demo data:    ${count(report.campaigns)} campaigns, ${count(report.accounts)} accounts, ${count(report.contacts)} contacts, ${count(report.assignmentsCreated)} assignments, ${count(report.eventsApplied)} provider events, ${count(report.jobs)} jobs (${count(demo.records)} records imported in ${seconds} s)`,
    );
    details.push(`  API key:      ${demo.apiKey}`);
    details.push(`  Try:          curl -H 'x-api-key: ${demo.apiKey}' ${stack.apiUrl}/public/v1/auth`);
    details.push(`  Dashboard:    ${stack.apiUrl}/dashboard`);
    details.push(
      `  Sign in as:   ${DEMO_ADMIN_EMAIL} with one-time password ${admin?.oneTimePassword ?? '(set before)'} (you choose a new one)`,
    );
  } else {
    details.push(
      `  Demo org:     ${demoOrgId ?? 'none'} (existing data; keys are stored hashed and cannot be shown again)`,
    );
    details.push(`  New key:      npx outreach-admin key create --org ${demoOrgId ?? '<ORG_ID>'}`);
    details.push(
      `  Dashboard:    ${stack.apiUrl}/dashboard (members: npx outreach-admin member list --org ${demoOrgId ?? '<ORG_ID>'})`,
    );
  }
  if (linked) {
    details.push(
      `  Providers:    ${linked.connections} connections to the local provider emulators, ${linked.linkedSequences} sequences linked (README "Watch the loop")`,
    );
  }
  // Their ports follow the API's (PORT+1 … PORT+4) or are free ones (--port 0): said, not guessed.
  const emulators = Object.entries(stack.providerApiUrls).map(
    ([provider, url]) => `    ${provider.padEnd(11)} ${url}`,
  );
  const lines = [
    `Outreach Campaign Public API (local) ready in ${(performance.now() / 1000).toFixed(1)} s`,
    `  Base URL:     ${stack.apiUrl}/public/v1`,
    `  Data:         ${dataDir ?? 'in memory (use --data-dir DIR to keep it)'}`,
    ...details,
    "  Emulators:    the providers' APIs; a control API below /_emulator/ on each port (docs/providers.md#local-emulators)",
    ...emulators,
  ];
  console.log(lines.join('\n'));
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    console.error(`Port ${port} is already in use: stop the other process or start with --port N (PORT=N).`);
  } else if (error instanceof JavaMissingError) {
    console.error(error.message);
  } else {
    console.error(`Local stack failed to start: ${(error as Error).message}`);
  }
  process.exit(1);
}
