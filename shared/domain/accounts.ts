import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import type { AccountInput } from '#schemas/import.ts';
import type { Account, Signal } from '#schemas/resources.ts';
import { batchGet } from '#store/batch.ts';
import { keys } from '#store/keys.ts';
import { queryAll, queryFirst } from '#store/query.ts';
import { addCounters, type TransactItem, TransactionConflictError, transact } from '#store/transactions.ts';
import { getCampaign } from './campaigns.ts';
import { AccountNotFound, AlreadyTaken, QualificationTargetMissing } from './errors.ts';
import type { NewOpportunity } from './webhook-events.ts';

/**
 * Accounts (companies), org-wide, and their qualifications into campaigns.
 * An account and its qualifications share one partition, so one Query reads
 * all of them. A qualification sits in its campaign's ranking index unless the
 * account is excluded; the campaign keeps how many accounts it lists.
 */

/** An account as stored. */
export interface AccountRecord {
  accountId: number;
  name?: string;
  domain: string;
  website?: string;
  linkedinUrl?: string;
  score: number;
  signals: Signal[];
  excluded: boolean;
}

/** An account's qualification into a campaign. */
export interface QualificationRecord {
  campaignId: number;
  accountId: number;
  score: number;
  signals: Signal[];
  listed: boolean;
  /** Newly listed and not yet announced in a New Opportunities event (shared/domain/webhook-events.ts). */
  newOpportunity: boolean;
}

function toAccountRecord(item: Record<string, unknown>): AccountRecord {
  return {
    accountId: item.accountId as number,
    name: item.name as string | undefined,
    domain: item.domain as string,
    website: item.website as string | undefined,
    linkedinUrl: item.linkedinUrl as string | undefined,
    score: Number(item.score ?? 0),
    signals: (item.signals as Signal[]) ?? [],
    excluded: item.excluded === true,
  };
}

function toQualificationRecord(item: Record<string, unknown>): QualificationRecord {
  return {
    campaignId: item.campaignId as number,
    accountId: item.accountId as number,
    score: Number(item.score ?? 0),
    signals: (item.signals as Signal[]) ?? [],
    listed: typeof item.gsi1pk === 'string',
    newOpportunity: item.newOpportunity === true,
  };
}

/** The Account resource. */
export function toAccount(record: AccountRecord, signals: Signal[] = record.signals): Account {
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
  const { pk } = keys.account(orgId, accountId);
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': pk },
    ConsistentRead: true,
  });
  const accountItem = items.find((item) => item.sk === 'ACCOUNT');
  if (!accountItem) return null;
  return {
    account: toAccountRecord(accountItem),
    qualifications: items.filter((item) => item.sk !== 'ACCOUNT').map(toQualificationRecord),
  };
}

/** The id of the organization's account with a (normalized) domain, or null. */
export async function accountIdByDomain(orgId: number, domain: string): Promise<number | null> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName(), Key: keys.accountDomain(orgId, domain) }),
  );
  return typeof Item?.accountId === 'number' ? Item.accountId : null;
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

function qualificationItem(orgId: number, qualification: QualificationRecord) {
  return {
    ...keys.campaignAccount(orgId, qualification.campaignId, qualification.accountId),
    ...(qualification.listed &&
      keys.campaignAccountRanking(
        orgId,
        qualification.campaignId,
        qualification.score,
        qualification.accountId,
      )),
    type: 'campaignAccount',
    orgId,
    campaignId: qualification.campaignId,
    accountId: qualification.accountId,
    score: qualification.score,
    signals: qualification.signals,
    ...(qualification.newOpportunity && { newOpportunity: true }),
  };
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
  for (let attempt = 0; ; attempt++) {
    const existing = await getAccountWithQualifications(orgId, input.id);
    const known = new Map(
      existing?.qualifications.map((qualification) => [qualification.campaignId, qualification]),
    );
    const isExcluded = excluded || existing?.account.excluded === true;
    const score = input.score ?? Math.max(0, ...input.campaigns.map((campaign) => campaign.score));
    const signals = input.signals ?? mergeSignals(input.campaigns.map((campaign) => campaign.signals));
    const writes: TransactItem[] = [
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...keys.accountDomain(orgId, input.domain),
            type: 'accountDomain',
            orgId,
            accountId: input.id,
          },
          ConditionExpression: 'attribute_not_exists(pk) OR accountId = :id',
          ExpressionAttributeValues: { ':id': input.id },
        },
      },
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...keys.account(orgId, input.id),
            type: 'account',
            orgId,
            accountId: input.id,
            name: input.name,
            domain: input.domain,
            website: input.website,
            linkedinUrl: input['linkedin-url'],
            score,
            signals,
            excluded: isExcluded,
          },
        },
      },
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
      writes.push({ Put: { TableName: tableName(), Item: qualificationItem(orgId, qualification) } });
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
              excluded: false,
            },
            campaign.signals,
          ),
        });
      }
      writes.push(
        addCounters(keys.campaign(orgId, campaign.campaign_id), newlyListed ? { accountsCount: 1 } : {}, {
          mustExist: true,
        })!,
      );
    }
    try {
      await transact(writes);
      return { newOpportunities };
    } catch (error) {
      if (!(error instanceof TransactionConflictError)) throw error;
      if (error.failedConditions.includes(0)) {
        throw new AlreadyTaken(`Domain ${input.domain} already belongs to another account`);
      }
      if (error.failedConditions.length > 0) {
        throw new QualificationTargetMissing(
          `Account ${input.id} is qualified into a campaign that does not exist`,
        );
      }
      if (attempt >= 5) throw error;
    }
  }
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
  const writes: TransactItem[] = [
    {
      Update: {
        TableName: tableName(),
        Key: keys.account(orgId, accountId),
        UpdateExpression: 'SET excluded = :true',
        ConditionExpression: 'excluded = :false',
        ExpressionAttributeValues: { ':true': true, ':false': false },
      },
    },
  ];
  for (const qualification of state.qualifications.filter((candidate) => candidate.listed)) {
    writes.push(
      {
        Update: {
          TableName: tableName(),
          Key: keys.campaignAccount(orgId, qualification.campaignId, accountId),
          UpdateExpression: 'REMOVE gsi1pk, gsi1sk',
        },
      },
      addCounters(keys.campaign(orgId, qualification.campaignId), { accountsCount: -1 })!,
    );
  }
  try {
    await transact(writes);
  } catch (error) {
    // Excluded concurrently by another request: the outcome is the same.
    if (!(error instanceof TransactionConflictError && error.failedConditions.includes(0))) throw error;
  }
}

/**
 * A page of the campaign's qualified accounts, highest score first (ties by
 * id), each with its score and signals in this campaign. Excluded accounts are
 * not in the ranking index, so they never appear. Reads: the campaign, the
 * first `from + take` ranking entries, and one BatchGetItem for the accounts.
 */
export async function listCampaignAccounts(
  orgId: number,
  campaignId: number,
  options: { from: number; take: number },
): Promise<Account[]> {
  const campaign = await getCampaign(orgId, campaignId);
  if (options.from >= campaign.accountsCount) return [];
  const ranking = (
    await queryFirst(
      'gsi1',
      keys.campaignAccountsIndex(orgId, campaignId).gsi1pk,
      options.from + options.take,
      'ascending',
    )
  )
    .slice(options.from)
    .map(toQualificationRecord);
  const accounts = await getAccounts(
    orgId,
    ranking.map((qualification) => qualification.accountId),
  );
  return ranking.flatMap((qualification) => {
    const record = accounts.get(qualification.accountId);
    return record ? [toAccount({ ...record, score: qualification.score }, qualification.signals)] : [];
  });
}

/** Reads accounts by id. */
async function getAccounts(orgId: number, accountIds: number[]): Promise<Map<number, AccountRecord>> {
  const items = await batchGet(accountIds.map((id) => keys.account(orgId, id)));
  return new Map(items.map((item) => [item.accountId as number, toAccountRecord(item)]));
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
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName(), Key: keys.account(orgId, accountId) }),
  );
  if (!Item) throw new AccountNotFound(what);
  const record = toAccountRecord(Item);
  const wanted = campaign ? new Set(campaign.signals) : null;
  return toAccount(
    record,
    wanted ? record.signals.filter((signal) => wanted.has(signal.name)) : record.signals,
  );
}
