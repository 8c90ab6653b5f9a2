import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet } from './batch.ts';
import * as keys from './item-keys.ts';
import {
  type AccountRecord,
  accountItem,
  domainItem,
  type ListedAccountRecord,
  listedAccountItem,
  type QualificationRecord,
  qualificationItem,
} from './item-schemas/accounts.ts';
import { queryAll, queryFirst } from './query.ts';
import { type TableSource, tableContext } from './table-context.ts';
import type { TransactItem } from './transactions.ts';

export type { AccountRecord, ListedAccountRecord, QualificationRecord };

/** The attributes of an account item that getListed reads: the fields of listedAccountItem. */
const LISTED_ACCOUNT_ATTRIBUTES = Object.keys(listedAccountItem.def.shape);

// The store is built in a pure-annotated call: a bundle keeps it only if its function uses it
// (esbuild cannot tell that a call has no side effects; docs/architecture.md, Bundles).

/**
 * Accounts (companies), org-wide, and their qualifications into campaigns.
 * An account and its qualifications share one partition, so one Query reads
 * all of them; a domain item makes the domain unique and finds its account. A
 * qualification sits in its campaign's ranking index (gsi1) unless the
 * account is excluded: a sparse index, so excluded accounts never appear.
 */

export function accountStore(table: TableSource = tableContext) {
  return {
    /** An account and its qualifications, read consistently in one Query; null when it does not exist. */
    async getWithQualifications(
      orgId: number,
      accountId: number,
    ): Promise<{ account: AccountRecord; qualifications: QualificationRecord[] } | null> {
      const { pk } = keys.account(orgId, accountId);
      const items = await queryAll(
        {
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          ConsistentRead: true,
        },
        table(),
      );
      const account = items.find((item) => item.sk === 'ACCOUNT');
      if (!account) return null;
      return {
        account: accountItem.parse(account),
        qualifications: items
          .filter((item) => item.sk !== 'ACCOUNT')
          .map((item) => qualificationItem.parse(item)),
      };
    },

    /** The id of the organization's account with a (normalized) domain, or null. */
    async idByDomain(orgId: number, domain: string): Promise<number | null> {
      const { name, client } = table();
      const { Item } = await client.send(
        new GetCommand({ TableName: name, Key: keys.accountDomain(orgId, domain) }),
      );
      const parsed = domainItem.safeParse(Item);
      return parsed.success ? parsed.data.accountId : null;
    },

    async get(orgId: number, accountId: number): Promise<AccountRecord | null> {
      const { name, client } = table();
      const { Item } = await client.send(
        new GetCommand({ TableName: name, Key: keys.account(orgId, accountId) }),
      );
      return Item ? accountItem.parse(Item) : null;
    },

    /**
     * Accounts by id as a list shows them (BatchGetItem), without the account's own signals, the
     * largest part of its item, which a list replaces with the campaign's; missing ones are absent.
     */
    async getListed(orgId: number, accountIds: number[]): Promise<Map<number, ListedAccountRecord>> {
      const items = await batchGet(
        accountIds.map((id) => keys.account(orgId, id)),
        { attributes: LISTED_ACCOUNT_ATTRIBUTES },
        table(),
      );
      return new Map(
        items.map((item) => {
          const account = listedAccountItem.parse(item);
          return [account.accountId, account];
        }),
      );
    },

    /** The first `limit` entries of a campaign's ranking: highest score first, ties by id. */
    async firstOfRanking(orgId: number, campaignId: number, limit: number): Promise<QualificationRecord[]> {
      const items = await queryFirst(
        'gsi1',
        keys.campaignAccountsIndex(orgId, campaignId).gsi1pk,
        limit,
        'ascending',
        table(),
      );
      return items.map((item) => qualificationItem.parse(item));
    },

    /** The put that gives a domain to an account; it fails when another account holds the domain. */
    claimDomain(orgId: number, domain: string, accountId: number): TransactItem {
      return {
        Put: {
          TableName: table().name,
          Item: { ...keys.accountDomain(orgId, domain), type: 'accountDomain', orgId, accountId },
          ConditionExpression: 'attribute_not_exists(pk) OR accountId = :id',
          ExpressionAttributeValues: { ':id': accountId },
        },
        condition: 'domain-taken',
      };
    },

    /** The put of an account (created or replaced). */
    put(orgId: number, account: AccountRecord): TransactItem {
      return {
        Put: {
          TableName: table().name,
          Item: {
            ...keys.account(orgId, account.accountId),
            type: 'account',
            orgId,
            accountId: account.accountId,
            name: account.name,
            domain: account.domain,
            website: account.website,
            linkedinUrl: account.linkedinUrl,
            score: account.score,
            signals: account.signals,
            excluded: account.excluded,
          },
        },
      };
    },

    /** The put of a qualification (created or replaced), in its campaign's ranking when listed. */
    putQualification(orgId: number, qualification: QualificationRecord): TransactItem {
      const { campaignId, accountId } = qualification;
      return {
        Put: {
          TableName: table().name,
          Item: {
            ...keys.campaignAccount(orgId, campaignId, accountId),
            ...(qualification.listed &&
              keys.campaignAccountRanking(orgId, campaignId, qualification.score, accountId)),
            type: 'campaignAccount',
            orgId,
            campaignId,
            accountId,
            score: qualification.score,
            signals: qualification.signals,
            ...(qualification.newOpportunity && { newOpportunity: true }),
          },
        },
      };
    },

    /** The update that marks an account excluded; it fails when it is excluded already. */
    markExcluded(orgId: number, accountId: number): TransactItem {
      return {
        Update: {
          TableName: table().name,
          Key: keys.account(orgId, accountId),
          UpdateExpression: 'SET excluded = :true',
          ConditionExpression: 'excluded = :false',
          ExpressionAttributeValues: { ':true': true, ':false': false },
        },
        condition: 'account-excluded-already',
      };
    },

    /** The update that takes a qualification out of its campaign's ranking. */
    unlist(orgId: number, campaignId: number, accountId: number): TransactItem {
      return {
        Update: {
          TableName: table().name,
          Key: keys.campaignAccount(orgId, campaignId, accountId),
          UpdateExpression: 'REMOVE gsi1pk, gsi1sk',
        },
      };
    },

    /**
     * The update that clears a qualification's new-opportunity mark; it fails
     * when the mark is gone (announced by a concurrent run) or the
     * qualification is no longer listed.
     */
    clearNewOpportunity(orgId: number, campaignId: number, accountId: number): TransactItem {
      return {
        Update: {
          TableName: table().name,
          Key: keys.campaignAccount(orgId, campaignId, accountId),
          UpdateExpression: 'REMOVE newOpportunity',
          ConditionExpression: 'newOpportunity = :true AND attribute_exists(gsi1pk)',
          ExpressionAttributeValues: { ':true': true },
        },
        condition: 'opportunity-gone',
        subject: accountId,
      };
    },
  };
}

/** The accounts of the configured table. */
export const accounts = /* @__PURE__ */ accountStore();
