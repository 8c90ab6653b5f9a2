import { configuredUrlPolicy } from '#platform/ssrf.ts';
import { loadProviderClient } from '#providers/clients.ts';
import {
  ProviderApiError,
  type ProviderCampaign,
  type ProviderCampaignPage,
  type ProviderClient,
  type ProviderHttp,
} from '#providers/contract.ts';
import { PROVIDER_FACTS } from '#providers/registry.ts';
import { providerHttp } from '#providers/transport.ts';
import type { ProviderConnectionRecord } from '#store/provider-connections.ts';
import {
  ProviderCampaignCursorInvalid,
  ProviderCampaignsUnreachable,
  ProviderConnectionKeyRefused,
} from './errors.ts';
import { providerApiKeyOf } from './provider-connections.ts';

/*
 * A connection's campaigns as the provider lists them (docs/providers.md,
 * Linking sequences). The one part of linking that calls a provider, in a
 * module of its own that the use cases import with `import()`: the client, its
 * transport, the SSRF rules and the opening of the key are read by the
 * functions that list or link, and only when they do (docs/architecture.md,
 * Bundles).
 */

/** Campaigns per page of the API's listing: the providers' own page size (Smartlead, which does not page, is cut into pages of it). */
export const CAMPAIGN_PAGE_SIZE = 100;
/** How long a warm function reuses a provider's page of campaigns, and how many pages it keeps. */
const CACHE_MS = 60_000;
const CACHE_PAGES = 200;
/** Pages of the provider's list a link reads at most to find its campaign (10,000 campaigns). */
const MAX_PAGES_SEARCHED = 100;
/** Longest provider cursor a listing cursor carries (the providers' are offsets and campaign ids). */
const MAX_PROVIDER_CURSOR = 200;
/** Farthest position within one provider page (Smartlead answers its whole list as one). */
const MAX_OFFSET = 100_000;

/** Where a page of the listing starts: the provider's own cursor (null: its first page), and how far into that provider page. */
interface Position {
  providerCursor: string | null;
  offset: number;
}

/** A page of the listing, and the cursor of the next (null on the last). */
export interface CampaignListing {
  campaigns: ProviderCampaign[];
  next: string | null;
}

const cache = new Map<string, { until: number; page: ProviderCampaignPage }>();

/**
 * A page of the connection's campaigns from `cursor` (null: the first), in the
 * provider's own order. A provider's page is kept for a minute per warm
 * function, so paging through Smartlead's single list, or showing the
 * dashboard's picker again, asks the provider once. A `cursor` no page gave is
 * ProviderCampaignCursorInvalid; the provider refusing the stored key is
 * ProviderConnectionKeyRefused; a provider that cannot be reached (or is busy)
 * is ProviderCampaignsUnreachable.
 */
export async function listProviderCampaigns(
  connection: ProviderConnectionRecord,
  cursor: string | null,
): Promise<CampaignListing> {
  const position = cursor === null ? { providerCursor: null, offset: 0 } : positionOf(cursor);
  const key = [
    connection.orgId,
    connection.connectionId,
    connection.apiKey.wrappedKey,
    position.providerCursor ?? '',
  ].join('\n');
  let page = cachedPage(key);
  if (!page) {
    page = await providerPage(connection, await openCampaignSession(connection), position.providerCursor);
    remember(key, page);
  }
  const end = position.offset + CAMPAIGN_PAGE_SIZE;
  const next: Position | null =
    end < page.campaigns.length
      ? { providerCursor: position.providerCursor, offset: end }
      : page.next === null
        ? null
        : { providerCursor: page.next, offset: 0 };
  return {
    campaigns: page.campaigns.slice(position.offset, end),
    next: next && cursorOf(next),
  };
}

/**
 * The campaign `campaignId` of the connection's provider, read fresh from the
 * provider's list (never from the listing's cache: a campaign made a moment ago
 * is found, one removed is not), page by page; null when the list does not have
 * it. The errors are the listing's. `session`: the connection's, opened
 * beforehand (openCampaignSession), else opened here.
 */
export async function findProviderCampaign(
  connection: ProviderConnectionRecord,
  campaignId: string,
  session: CampaignSession | Promise<CampaignSession> = openCampaignSession(connection),
): Promise<ProviderCampaign | null> {
  const opened = await session;
  let providerCursor: string | null = null;
  for (let read = 0; read < MAX_PAGES_SEARCHED; read += 1) {
    const page: ProviderCampaignPage = await providerPage(connection, opened, providerCursor);
    const found = page.campaigns.find((campaign) => campaign.id === campaignId);
    if (found) return found;
    if (page.next === null) return null;
    providerCursor = page.next;
  }
  return null;
}

/** What reading a connection's campaigns needs: the provider's client, its transport and the opened key. */
export interface CampaignSession {
  client: ProviderClient;
  http: ProviderHttp;
  apiKey: string;
}

/**
 * The connection's session. Its three parts load at once, none waiting on
 * another: the health tracking's module and the provider's client (chunks of
 * their own, loaded on first use) and the key (KMS on Lambda). A caller with
 * other reads to make opens it before them, so that it opens while they wait.
 */
export async function openCampaignSession(connection: ProviderConnectionRecord): Promise<CampaignSession> {
  const { defaultBaseUrl, displayName } = PROVIDER_FACTS[connection.provider];
  // No pacing slot: these reads are a person's, few and cached; a provider that is busy answers 429 (docs/providers.md).
  const http = providerHttp(connection.baseUrl ?? defaultBaseUrl, { policy: configuredUrlPolicy() });
  const [health, client, apiKey] = await Promise.all([
    // Each answer says whether the stored key still works, as enrollment's do: the same health tracking,
    // loaded as enrollment loads it (docs/architecture.md, Bundles).
    import('./connection-health.ts'),
    loadProviderClient(connection.provider),
    providerApiKeyOf(connection),
  ]);
  return { client, http: health.healthTrackedHttp(http, connection, displayName), apiKey };
}

/** One page of the provider's list, its errors as the domain names them. */
async function providerPage(
  connection: ProviderConnectionRecord,
  session: CampaignSession,
  providerCursor: string | null,
): Promise<ProviderCampaignPage> {
  const { displayName } = PROVIDER_FACTS[connection.provider];
  try {
    return await session.client.listCampaigns(session.http, { apiKey: session.apiKey }, providerCursor);
  } catch (error) {
    if (!(error instanceof ProviderApiError)) throw error;
    const status = error.status;
    if (error.kind === 'refused' && (status === 401 || status === 403)) {
      throw new ProviderConnectionKeyRefused(displayName, connection.connectionId, status);
    }
    // The first page took the key; a later one refused is refused for the cursor it was asked from.
    if (error.kind === 'refused' && providerCursor !== null && (status === null || status < 500)) {
      throw new ProviderCampaignCursorInvalid();
    }
    throw new ProviderCampaignsUnreachable(displayName);
  }
}

function cachedPage(key: string): ProviderCampaignPage | null {
  const kept = cache.get(key);
  if (!kept) return null;
  if (kept.until > Date.now()) return kept.page;
  cache.delete(key);
  return null;
}

function remember(key: string, page: ProviderCampaignPage): void {
  cache.delete(key);
  cache.set(key, { until: Date.now() + CACHE_MS, page });
  // A Map iterates in insertion order: the first key is the oldest page.
  while (cache.size > CACHE_PAGES) cache.delete(cache.keys().next().value as string);
}

/** The opaque cursor of a position: base64url of `{p, o}`. */
function cursorOf(position: Position): string {
  return Buffer.from(JSON.stringify({ p: position.providerCursor, o: position.offset })).toString(
    'base64url',
  );
}

/** The position a cursor names; ProviderCampaignCursorInvalid when it is none this listing gave. */
function positionOf(cursor: string): Position {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new ProviderCampaignCursorInvalid();
  }
  if (typeof decoded !== 'object' || decoded === null) throw new ProviderCampaignCursorInvalid();
  const { p, o } = decoded as Record<string, unknown>;
  const providerCursor =
    p === null ||
    (typeof p === 'string' && p.length >= 1 && p.length <= MAX_PROVIDER_CURSOR && /^[\x21-\x7e]+$/.test(p))
      ? p
      : undefined;
  const offset =
    typeof o === 'number' && Number.isInteger(o) && o >= 0 && o <= MAX_OFFSET && o % CAMPAIGN_PAGE_SIZE === 0
      ? o
      : undefined;
  if (providerCursor === undefined || offset === undefined) throw new ProviderCampaignCursorInvalid();
  return { providerCursor, offset };
}

/** What a link to a campaign that takes no leads now answers beside the link: null when it takes them. */
export function notTakingLeadsWarning(
  connection: ProviderConnectionRecord,
  campaign: ProviderCampaign,
): string | null {
  if (campaign.acceptsLeads) return null;
  const { displayName } = PROVIDER_FACTS[connection.provider];
  return `${displayName} campaign ${campaign.id} takes no leads now (${campaign.status || 'no status'}): leads enrolled in it wait until it does`;
}

/** The connection's provider as messages name it. */
export const providerName = (connection: ProviderConnectionRecord): string =>
  PROVIDER_FACTS[connection.provider].displayName;
