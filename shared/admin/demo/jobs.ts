import type { DemoAccounts } from './accounts.ts';
import type { DemoCampaigns } from './campaigns.ts';
import { DAY, HOUR, iso, type JobDraft, slug } from './drafts.ts';
import type { Random } from './random.ts';

const LOCATIONS = ['Remote', 'New York, NY', 'London, UK', 'Berlin, DE', 'Austin, TX', 'Toronto, CA'];

/**
 * Job openings for fifteen of the accounts' domains, for the titles their
 * first campaign hires for; some closed (not seen for two weeks). Returns them
 * and the domains that have any.
 */
export function demoJobs(
  random: Random,
  { accounts, campaignsOf }: DemoAccounts,
  catalog: DemoCampaigns,
  now: number,
): { list: JobDraft[]; domains: Set<string> } {
  const chosen = random.shuffle(accounts).slice(0, 15);
  const list: JobDraft[] = [];
  for (const account of chosen) {
    const template = catalog.templateOf(campaignsOf.get(account.id)![0]!);
    const openings = random.int(2, 8);
    for (let index = 1; index <= openings; index++) {
      const title = random.pick(template.jobTitles);
      const firstSeen = now - random.int(2, 90) * DAY - random.int(0, 23) * HOUR;
      const closedAt = firstSeen + random.int(1, 20) * DAY;
      const closed = random.chance(0.25) && closedAt < now - 15 * DAY;
      const lastSeen = closed
        ? closedAt
        : Math.max(firstSeen, now - random.int(0, 2) * DAY - random.int(0, 23) * HOUR);
      const signal = random.pick(template.signals);
      list.push({
        id: `job-${slug(account.domain)}-${index}`,
        domain: account.domain,
        title,
        url: `https://${account.domain}/careers/${slug(title)}-${index}`,
        first_seen_at: iso(firstSeen),
        last_seen_at: iso(lastSeen),
        status: closed ? 'closed' : 'open',
        location: random.pick(LOCATIONS),
        description: `${account.name} is hiring a ${title}. ${random.pick(signal.context)}.`,
      });
    }
  }
  return { list, domains: new Set(chosen.map((account) => account.domain)) };
}
