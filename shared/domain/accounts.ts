import type { AccountInput } from '#schemas/import.ts';
import type { Account, Signal } from '#schemas/resources.ts';
import { type AccountRecord, accounts, type QualificationRecord } from '#store/accounts.ts';
import { campaigns } from '#store/campaigns.ts';
import { retryOnConflict } from '#store/conflicts.ts';
import { type TransactItem, TransactionConflictError, transact } from '#store/transactions.ts';
import { getCampaign } from './campaigns.ts';
import { AccountNotFound, AlreadyTaken, QualificationTargetMissing } from './errors.ts';
import type { NewOpportunity } from './webhook-events.ts';

/**
 * Accounts (companies), org-wide, and their qualifications into campaigns.
 * An account and its qualifications share one partition, so one Query reads
 * all of them. A qualification sits in its campaign's ranking index unless the
 * account is excluded; the campaign keeps how many accounts it lists.
 */

/** An account and its qualification into a campaign, as stored (shared/store/accounts.ts). */
export type { AccountRecord, QualificationRecord };

/** The Account resource. */
export function toAccount(
  record: Omit<AccountRecord, 'excluded'>,
  signals: Signal[] = record.signals,
): Account {
  return {
    id: record.accountId,
    ...(record.name !== undefined && { name: record.name }),
    domain: record.domain,
    ...(record.website !== undefined && { website: record.website }),
    ...(record.linkedinUrl !== undefined && { 'linkedin-url': record.linkedinUrl }),
    score: record.score,
    signals,
  };
}

/** Reads an account and its qualifications in one Query; null when it does not exist. */
export async function getAccountWithQualifications(
  orgId: number,
  accountId: number,
): Promise<{ account: AccountRecord; qualifications: QualificationRecord[] } | null> {
  return accounts.getWithQualifications(orgId, accountId);
}

/** The id of the organization's account with a (normalized) domain, or null. */
export async function accountIdByDomain(orgId: number, domain: string): Promise<number | null> {
  return accounts.idByDomain(orgId, domain);
}

/** Signals by name, keeping the highest-scoring one of each name. */
function mergeSignals(lists: Signal[][]): Signal[] {
  const byName = new Map<string, Signal>();
  for (const signal of lists.flat()) {
    const existing = byName.get(signal.name);
    if (!existing || signal.score > existing.score) byName.set(signal.name, signal);
  }
  return [...byName.values()];
}

/**
 * Creates or updates an account (domain already normalized) with its campaign
 * qualifications, in one transaction; a campaign's account count grows by its
 * newly listed qualifications. `excluded` says whether the domain is on the
 * exclusion list, in which case nothing is listed.
 *
 * With `emitEvents`, a newly listed qualification is marked as a new
 * opportunity in the same transaction, and the marked ones are returned for
 * emitNewOpportunities to announce in batches; a mark left by an interrupted
 * run is returned again, so re-running the import loses no event.
 */
export async function upsertAccount(
  orgId: number,
  input: AccountInput & { domain: string },
  excluded: boolean,
  options: { emitEvents?: boolean } = {},
): Promise<{ newOpportunities: NewOpportunity[] }> {
  // A transaction cancelled by a concurrent one on the same items is tried again, reading afresh, at once.
  return retryOnConflict(
    async () => {
      const existing = await getAccountWithQualifications(orgId, input.id);
      const { writes, newOpportunities } = accountWrites(orgId, input, excluded, existing, options);
      try {
        await transact(writes);
        return { newOpportunities };
      } catch (error) {
        if (!(error instanceof TransactionConflictError)) throw error;
        if (error.failed.has('domain-taken')) {
          throw new AlreadyTaken(`Domain ${input.domain} already belongs to another account`);
        }
        if (error.failed.has('campaign-not-found')) {
          throw new QualificationTargetMissing(
            `Account ${input.id} is qualified into a campaign that does not exist`,
          );
        }
        throw error;
      }
    },
    { attempts: 6, baseDelayMs: 0 },
  );
}

/**
 * The writes that create or update an account (domain already normalized)
 * with its campaign qualifications, given what is stored of it (`existing`,
 * null for a new account): the domain claim first (it fails when another
 * account holds the domain), the account, then each qualification with its
 * campaign's account count (each campaign must exist). With `emitEvents`,
 * the qualifications marked as new opportunities are returned too.
 */
export function accountWrites(
  orgId: number,
  input: AccountInput & { domain: string },
  excluded: boolean,
  existing: { account: AccountRecord; qualifications: QualificationRecord[] } | null,
  options: { emitEvents?: boolean } = {},
): { writes: TransactItem[]; newOpportunities: NewOpportunity[] } {
  const known = new Map(
    existing?.qualifications.map((qualification) => [qualification.campaignId, qualification]),
  );
  const isExcluded = excluded || existing?.account.excluded === true;
  const score = input.score ?? Math.max(0, ...input.campaigns.map((campaign) => campaign.score));
  const signals = input.signals ?? mergeSignals(input.campaigns.map((campaign) => campaign.signals));
  const writes: TransactItem[] = [
    accounts.claimDomain(orgId, input.domain, input.id),
    accounts.put(orgId, {
      accountId: input.id,
      name: input.name,
      domain: input.domain,
      website: input.website,
      linkedinUrl: input['linkedin-url'],
      score,
      signals,
      excluded: isExcluded,
    }),
  ];
  const newOpportunities: NewOpportunity[] = [];
  for (const campaign of input.campaigns) {
    const previous = known.get(campaign.campaign_id);
    const listed = !isExcluded;
    const newlyListed = listed && !previous?.listed;
    const qualification: QualificationRecord = {
      campaignId: campaign.campaign_id,
      accountId: input.id,
      score: campaign.score,
      signals: campaign.signals,
      listed,
      newOpportunity:
        listed && (previous?.newOpportunity === true || (newlyListed && options.emitEvents === true)),
    };
    writes.push(accounts.putQualification(orgId, qualification));
    if (qualification.newOpportunity && options.emitEvents) {
      newOpportunities.push({
        campaignId: campaign.campaign_id,
        account: toAccount(
          {
            accountId: input.id,
            name: input.name,
            domain: input.domain,
            website: input.website,
            linkedinUrl: input['linkedin-url'],
            score: campaign.score,
            signals: campaign.signals,
          },
          campaign.signals,
        ),
      });
    }
    writes.push(
      campaigns.counters(orgId, campaign.campaign_id, newlyListed ? { accountsCount: 1 } : {}, {
        mustExist: true,
      })!,
    );
  }
  return { writes, newOpportunities };
}

/**
 * Marks the account with this domain excluded and takes it out of every
 * campaign's ranking, lowering each campaign's account count. Nothing happens
 * when no account has the domain or it is already excluded.
 */
export async function excludeAccountByDomain(orgId: number, domain: string): Promise<void> {
  const accountId = await accountIdByDomain(orgId, domain);
  if (accountId === null) return;
  const state = await getAccountWithQualifications(orgId, accountId);
  if (!state || state.account.excluded) return;
  const writes: TransactItem[] = [accounts.markExcluded(orgId, accountId)];
  for (const qualification of state.qualifications.filter((candidate) => candidate.listed)) {
    writes.push(
      accounts.unlist(orgId, qualification.campaignId, accountId),
      campaigns.counters(orgId, qualification.campaignId, { accountsCount: -1 })!,
    );
  }
  try {
    await transact(writes);
  } catch (error) {
    // Excluded concurrently by another request: the outcome is the same.
    if (!(error instanceof TransactionConflictError && error.failed.has('account-excluded-already')))
      throw error;
  }
}

/**
 * A page of the campaign's qualified accounts, highest score first (ties by
 * id), each with its score and signals in this campaign. Excluded accounts are
 * not in the ranking index, so they never appear. Reads: the campaign and
 * the first `from + take` ranking entries at once (neither needs the other:
 * the ranking's key is the organization's, so another organization's
 * campaign has none, and its CampaignNotFound is thrown all the same), then
 * one BatchGetItem for the accounts: two round trips, not three. A page past
 * the campaign's accounts answers none without the BatchGetItem.
 */
export async function listCampaignAccounts(
  orgId: number,
  campaignId: number,
  options: { from: number; take: number },
): Promise<Account[]> {
  const [campaign, firstOfRanking] = await Promise.all([
    getCampaign(orgId, campaignId),
    accounts.firstOfRanking(orgId, campaignId, options.from + options.take),
  ]);
  if (options.from >= campaign.accountsCount) return [];
  const ranking = firstOfRanking.slice(options.from);
  const listed = await accounts.getListed(
    orgId,
    ranking.map((qualification) => qualification.accountId),
  );
  return ranking.flatMap((qualification) => {
    const record = listed.get(qualification.accountId);
    const { score, signals } = qualification;
    return record ? [toAccount({ ...record, score, signals })] : [];
  });
}

/**
 * Looks an account up by domain, by id, or both (then they must name the same
 * account). With a campaign, only the signals named in that campaign's signal
 * list are kept. Anything not found, including another organization's account
 * or campaign, is an AccountNotFound.
 */
export async function lookupAccount(
  orgId: number,
  query: { domain?: string; id?: number; campaignId?: number },
): Promise<Account> {
  const [accountId, campaign] = await Promise.all([
    query.domain !== undefined ? accountIdByDomain(orgId, query.domain) : Promise.resolve(query.id ?? null),
    query.campaignId !== undefined ? getCampaign(orgId, query.campaignId) : Promise.resolve(null),
  ]);
  const what = query.domain !== undefined ? `with domain ${query.domain}` : `${query.id}`;
  if (accountId === null || (query.id !== undefined && query.id !== accountId)) {
    throw new AccountNotFound(what);
  }
  const record = await accounts.get(orgId, accountId);
  if (!record) throw new AccountNotFound(what);
  const wanted = campaign ? new Set(campaign.signals) : null;
  return toAccount(
    record,
    wanted ? record.signals.filter((signal) => wanted.has(signal.name)) : record.signals,
  );
}
