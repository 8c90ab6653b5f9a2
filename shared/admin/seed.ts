import { createApiKey } from '#domain/api-keys.ts';
import { createOrganization } from '#domain/organizations.ts';
import { configuration } from '#platform/config.ts';
import type { ImportDocument } from '#schemas/import.ts';
import { allocateIds } from '#store/ids.ts';
import { organizations } from '#store/organizations.ts';
import { DEMO_ID_ENTITIES, type DemoIdEntity, type DemoOptions, demoDocument } from './demo.ts';
import { applyImport, type ImportReport, type ProgressListener, validateImport } from './import.ts';
import { WRITING_ITEMS_PHASE } from './import-paths.ts';
import { provisionOrganizationRateLimit } from './rate-limits.ts';

/** The demo organization, a fresh API key for it, and what its import wrote. */
export interface DemoSeed {
  orgId: number;
  apiKey: string;
  report: ImportReport;
  /** Records in the imported document (every item of every section). */
  records: number;
}

export interface SeedOptions {
  /** The moment the demo history leads up to; now by default, so the demo always looks recent. */
  now?: Date;
  seed?: number;
  onProgress?: ProgressListener;
  /**
   * Called once, when the import begins writing the items it computed: from then on the seed waits
   * on the table far more than it computes (npm start loads the rest of its stack meanwhile).
   */
  onWriting?: () => void;
  /** The document prepared ahead (`prepareDemo`); its moment and seed win over `now` and `seed`. */
  prepared?: PreparedDemo;
}

/**
 * The demo document at the ids a new store hands out first (every id block
 * starting at 1), built and validated ahead of the seed: `npm start` prepares
 * it while DynamoDB Local starts, and the seed uses it when the blocks it
 * allocates start there (an empty store), else builds its own.
 */
export interface PreparedDemo {
  options: DemoOptions;
  document: ImportDocument;
}

export function prepareDemo(options: Pick<SeedOptions, 'now' | 'seed'> = {}): PreparedDemo {
  const demoOptions = demoOptionsOf(options);
  return { options: demoOptions, document: validatedDemo(demoOptions) };
}

const demoOptionsOf = (options: Pick<SeedOptions, 'now' | 'seed'>): DemoOptions => ({
  now: options.now ?? new Date(),
  seed: options.seed,
  // The configured size (OUTREACH_DEMO_ACCOUNTS: the test suite starts stacks with a small demo); else the full one.
  accounts: configuration().admin.demoAccounts,
});

function validatedDemo(options: DemoOptions): ImportDocument {
  const result = validateImport(demoDocument(options));
  if (!result.ok) {
    // The generator is tested to produce a valid document; this guards against a regression.
    const first = result.errors[0]!;
    throw new Error(
      `The demo document is invalid (${result.errors.length} errors; ${first.path}: ${first.message})`,
    );
  }
  return result.document;
}

/**
 * Builds the demo organization: the organization, an API key, and the demo
 * document (shared/admin/demo.ts) imported through the operator import's bulk
 * path, which leaves every item and aggregate as the transactional path (and
 * so live traffic) would, in a fraction of the time: the organization was
 * created a moment ago, so none of the document's items can exist in it. The
 * document gets fresh id blocks, so seeding twice gives two organizations
 * with distinct ids. The store then records it as the demo.
 */
export async function seedDemo(options: SeedOptions = {}): Promise<DemoSeed> {
  const { prepared } = options;
  const demoOptions = prepared?.options ?? demoOptionsOf(options);
  const created = createOrganization('Demo Organization');
  // The ids per entity type (counted while the organization is written) size the blocks allocated for them.
  const counts = idCounts(prepared?.document ?? demoDocument(demoOptions));
  const firstIds: Partial<Record<DemoIdEntity, number>> = {};
  const [{ orgId }] = await Promise.all([
    created,
    ...DEMO_ID_ENTITIES.map(async (entity) => {
      const [first] = await allocateIds(entity, counts[entity]);
      if (first !== undefined) firstIds[entity] = first;
    }),
  ]);
  const atPreparedIds = DEMO_ID_ENTITIES.every((entity) => (firstIds[entity] ?? 1) === 1);
  const document =
    prepared && atPreparedIds ? prepared.document : validatedDemo({ ...demoOptions, firstIds });
  let writing = false;
  const onProgress: ProgressListener = (phase, done, total) => {
    if (phase === WRITING_ITEMS_PHASE && !writing) {
      writing = true;
      options.onWriting?.();
    }
    options.onProgress?.(phase, done, total);
  };
  // The key and the data need nothing of each other.
  const [{ apiKey }, report] = await Promise.all([
    provisionOrganizationRateLimit(orgId).then(() => createApiKey(orgId)),
    applyImport(orgId, document, onProgress, { path: 'bulk', organizationIsNew: true }),
  ]);
  // Last: a store names its demo only once the demo is complete.
  await organizations.markDemoSeed(orgId);
  const records = Object.values(document).reduce((total, section) => total + section.length, 0);
  return { orgId, apiKey, report, records };
}

/** The ids each entity type takes in the document. */
function idCounts(document: {
  campaigns?: readonly { sequences: readonly unknown[] }[];
  accounts?: readonly unknown[];
  contacts?: readonly unknown[];
  assignments?: readonly unknown[];
  messages?: readonly unknown[];
  events?: readonly object[];
}): Record<DemoIdEntity, number> {
  const campaigns = document.campaigns ?? [];
  return {
    campaign: campaigns.length,
    sequence: campaigns.reduce((total, campaign) => total + campaign.sequences.length, 0),
    account: document.accounts?.length ?? 0,
    contact: document.contacts?.length ?? 0,
    assignment: document.assignments?.length ?? 0,
    message:
      (document.messages?.length ?? 0) +
      (document.events ?? []).filter((event) => 'message' in event && event.message !== undefined).length,
  };
}

/** The demo organization's id, if the store was seeded. */
export async function demoOrganizationId(): Promise<number | null> {
  return organizations.demoSeed();
}
