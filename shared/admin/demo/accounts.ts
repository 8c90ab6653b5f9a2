import type { CampaignTemplate } from './campaign-templates.ts';
import type { DemoCampaigns } from './campaigns.ts';
import { type AccountDraft, DAY, HOUR, iso, slug } from './drafts.ts';
import type { Random } from './random.ts';

const COMPANY_PREFIXES = [
  'Amber',
  'Aspen',
  'Atlas',
  'Beacon',
  'Birch',
  'Bright',
  'Cedar',
  'Cobalt',
  'Copper',
  'Crest',
  'Delta',
  'Ember',
  'Fern',
  'Flint',
  'Granite',
  'Harbor',
  'Helix',
  'Indigo',
  'Iron',
  'Juniper',
  'Kestrel',
  'Lumen',
  'Maple',
  'Meridian',
  'Nimbus',
  'Nova',
  'Oak',
  'Onyx',
  'Orbit',
  'Pine',
  'Prism',
  'Quartz',
  'Raven',
  'Ridge',
  'Sable',
  'Sierra',
  'Summit',
  'Tidal',
  'Vertex',
  'Willow',
];
const TLDS = ['com', 'com', 'com', 'io', 'co', 'ai', 'de', 'co.uk'];

type Qualification = NonNullable<AccountDraft['campaigns']>[number];

/** The accounts and, by account id, the campaigns each is qualified into (its own first). */
export interface DemoAccounts {
  accounts: AccountDraft[];
  campaignsOf: Map<number, number[]>;
}

/** `count` accounts with distinct names and domains, each qualified into its own campaign and sometimes a second one. */
export function demoAccounts(
  random: Random,
  catalog: DemoCampaigns,
  count: number,
  nextId: () => number,
  now: number,
): DemoAccounts {
  const accounts: AccountDraft[] = [];
  const campaignsOf = new Map<number, number[]>();
  const names = new Set<string>();
  const domains = new Set<string>();
  for (let index = 0; index < count; index++) {
    const primary = catalog.ids[index % catalog.ids.length]!;
    const template = catalog.templateOf(primary);
    let name: string;
    let domain: string;
    do {
      name = `${random.pick(COMPANY_PREFIXES)} ${random.pick(template.companySuffixes)}`;
      domain = `${slug(name).replace(/-/g, '')}.${random.pick(TLDS)}`;
    } while (names.has(name) || domains.has(domain));
    names.add(name);
    domains.add(domain);
    const qualified = [primary];
    if (random.chance(0.3)) qualified.push(random.pick(catalog.ids.filter((id) => id !== primary)));
    const id = nextId();
    campaignsOf.set(id, qualified);
    accounts.push({
      id,
      name,
      domain,
      website: `https://www.${domain}`,
      'linkedin-url': `https://www.linkedin.com/company/${slug(name)}`,
      campaigns: qualified.map((campaignId, rank) =>
        qualification(random, catalog.templateOf(campaignId), campaignId, rank, now),
      ),
    });
  }
  return { accounts, campaignsOf };
}

/**
 * An account's qualification in a campaign: the campaign's first signal and
 * some of the others, and a score near their mean (lower in a second campaign).
 */
function qualification(
  random: Random,
  template: CampaignTemplate,
  campaignId: number,
  rank: number,
  now: number,
): Qualification {
  const signals = template.signals
    .filter((_, signalIndex) => signalIndex === 0 || random.chance(0.6))
    .map((signal) => {
      const age = random.int(1, 120);
      return {
        name: signal.name,
        updated: iso(now - age * DAY - random.int(0, 23) * HOUR),
        freshness: age <= 14 ? 'fresh' : age <= 60 ? 'recent' : 'stale',
        score: random.int(15, 100),
        contextual: random.pick(signal.context),
      };
    });
  const mean = signals.reduce((sum, signal) => sum + signal.score, 0) / signals.length;
  const score = Math.round((mean * (rank === 0 ? 1 : 0.7) + random.int(-50, 50) / 10) * 10) / 10;
  return { campaign_id: campaignId, score: Math.max(1, Math.min(100, score)), signals };
}
