/**
 * Every key of the single table is composed here and nowhere else. Each item
 * type has a builder returning its full key set (pk/sk plus any GSI keys), so
 * an entity store (shared/store/<entity>.ts) spreads it into an item and never
 * spells a key by hand. The stores share this one module rather than each
 * declaring its own keys: several partitions belong to one entity and are
 * filled by others (a campaign's ranking, assignment and message indexes), and
 * the tenant rule below is checked in one place.
 *
 * Tenant rule: every organization-owned item's partition key starts with
 * `ORG#<orgId>`, so a read that takes the caller's organization cannot reach
 * another organization's data. docs/data-model.md lists the item types and the
 * access pattern each key serves.
 */

/** Fixed-width decimal so lexicographic order equals numeric order (ids are ≤ 2^53−1, 16 digits). */
export const sortableNumber = (value: number): string => value.toString().padStart(16, '0');

/**
 * Sort-key fragment that orders scores from highest to lowest: DynamoDB sorts
 * strings ascending, so the score is stored as (MAX − score) with fixed width.
 * Scores are finite numbers; six decimals are kept.
 */
export const descendingScore = (score: number): string => {
  const scaled = Math.round(score * 1e6);
  return (
    Number.MAX_SAFE_INTEGER - Math.max(-Number.MAX_SAFE_INTEGER, Math.min(scaled, Number.MAX_SAFE_INTEGER))
  )
    .toString()
    .padStart(17, '0');
};

/** `<ISO time>#<id>`: newest-first lists sort on this with ScanIndexForward=false. */
export const timeOrdered = (isoTime: string, id: number): string => `${isoTime}#${sortableNumber(id)}`;

const org = (orgId: number) => `ORG#${orgId}`;

export const apiKeysOfOrganization = (orgId: number) => ({ gsi1pk: `${org(orgId)}#APIKEYS` });
export const apiKeyLookup = (secretHash: string) => ({ pk: `APIKEY#${secretHash}`, sk: 'APIKEY' });
export const apiKeyInOrganization = (orgId: number, keyId: number) => ({
  ...apiKeysOfOrganization(orgId),
  gsi1sk: `APIKEY#${sortableNumber(keyId)}`,
});

export const campaign = (orgId: number, campaignId: number) => ({
  pk: org(orgId),
  sk: `CAMPAIGN#${sortableNumber(campaignId)}`,
});
/** Two digits: shard numbers stay below 100 (BatchGetItem's limit of keys bounds them anyway). */
const shardNumber = (shard: number) => shard.toString().padStart(2, '0');
const WRITER_SLOTS = 'WRITER#SLOTS';
const CAMPAIGN_SHARD = /^(CAMPAIGN#\d{16})#SHARD#\d{2}$/;
const ANALYTICS_SHARD = /^(ORG#\d+)#ANALYTICS#\d{2}$/;
export const campaignAccountsIndex = (orgId: number, campaignId: number) => ({
  gsi1pk: `${org(orgId)}#CAMPAIGN#${campaignId}#ACCOUNTS`,
});
export const campaignAssignmentsIndex = (orgId: number, campaignId: number) => ({
  gsi1pk: `${org(orgId)}#CAMPAIGN#${campaignId}#ASSIGNMENTS`,
});
export const campaignStatusIndex = (orgId: number, campaignId: number, status: string) => ({
  gsi2pk: `${org(orgId)}#CAMPAIGN#${campaignId}#STATUS#${status}`,
});
export const campaignMessagesIndex = (orgId: number, campaignId: number) => ({
  gsi1pk: `${org(orgId)}#CAMPAIGN#${campaignId}#MESSAGES`,
});
export const jobsOfDomainIndex = (orgId: number, domain: string) => ({
  gsi1pk: `${org(orgId)}#JOBS#${domain}`,
});
export const jobCursorIndex = (orgId: number, sequence: number) => ({
  gsi2pk: `${org(orgId)}#JOBSEQ#${sequence}`,
});

/** Monotonic id counter per entity type. */
export const counter = (entity: string) => ({ pk: `COUNTER#${entity}`, sk: 'COUNTER' });
/**
 * A writer slot (shared/store/writer-slots.ts): which process holds it, until
 * when. All slots share one partition, read with one Query; a process writes
 * its slot a few times a minute.
 */
export const writerSlot = (slot: number) => ({ pk: WRITER_SLOTS, sk: `SLOT#${shardNumber(slot)}` });
export const writerSlots = () => ({ pk: WRITER_SLOTS, skPrefix: 'SLOT#' });
/** Marks which organization the demo seed created, so a restarted local stack can name it. */
export const demoSeed = () => ({ pk: 'SEED#DEMO', sk: 'SEED' });
/** The organization record (settings such as the cooldown window). */
export const organization = (orgId: number) => ({ pk: org(orgId), sk: 'ORG' });
/** The organization's analytics counters, maintained at write time. */
export const analytics = (orgId: number) => ({ pk: org(orgId), sk: 'ANALYTICS' });
/**
 * One shard of the analytics counters: each in a partition of its own, so
 * their writes never add up in one partition; read with the base item in one
 * BatchGetItem (docs/scaling.md).
 */
export const analyticsShard = (orgId: number, shard: number) => ({
  pk: `${org(orgId)}#ANALYTICS#${shardNumber(shard)}`,
  sk: 'ANALYTICS',
});
/**
 * An API key, addressed by the hash of its secret so the authorizer resolves it
 * with one GetItem; gsi1 lists an organization's keys.
 */
export const apiKey = (secretHash: string, orgId: number, keyId: number) => ({
  ...apiKeyLookup(secretHash),
  ...apiKeyInOrganization(orgId, keyId),
});
export const campaignsOfOrganization = (orgId: number) => ({ pk: org(orgId), skPrefix: 'CAMPAIGN#' });
/**
 * One shard of a campaign's event counters. It sorts right after its
 * campaign in the organization's partition, so the campaign list (one Query)
 * and the campaign with its shards (one Query of the prefix below) read them
 * with the campaign (docs/scaling.md).
 */
export const campaignShard = (orgId: number, campaignId: number, shard: number) => ({
  pk: org(orgId),
  sk: `${campaign(orgId, campaignId).sk}#SHARD#${shardNumber(shard)}`,
});
/** Whether an item of an organization's partition is one of a campaign's counter shards. */
export const isCampaignShard = (key: { sk: string }): boolean => CAMPAIGN_SHARD.test(key.sk);
/** A campaign's item and its counter shards: nothing else in the partition starts with its sort key. */
export const campaignWithShards = (orgId: number, campaignId: number) => ({
  pk: org(orgId),
  skPrefix: campaign(orgId, campaignId).sk,
});
/**
 * The item whose counters a shard's add to (a campaign's, the analytics
 * item), or null for any other key: the bulk import adds shard writes to it
 * in memory (shared/store/bulk-writes.ts), since a sum reads the same.
 */
export const counterHome = (key: { pk: string; sk: string }): { pk: string; sk: string } | null => {
  const campaignShard = CAMPAIGN_SHARD.exec(key.sk);
  if (campaignShard) return { pk: key.pk, sk: campaignShard[1]! };
  const analyticsShard = ANALYTICS_SHARD.exec(key.pk);
  if (analyticsShard && key.sk === 'ANALYTICS') return { pk: analyticsShard[1]!, sk: 'ANALYTICS' };
  return null;
};
/** An account (company), org-wide. */
export const account = (orgId: number, accountId: number) => ({
  pk: `${org(orgId)}#ACCOUNT#${accountId}`,
  sk: 'ACCOUNT',
});
/** The one account of a normalized domain: uniqueness guard and lookup by domain. */
export const accountDomain = (orgId: number, domain: string) => ({
  pk: `${org(orgId)}#DOMAIN#${domain}`,
  sk: 'ACCOUNT',
});
/**
 * An account's qualification into a campaign (its score and signals there).
 * gsi1 orders a campaign's accounts by score, highest first, ties by id; an
 * excluded account's qualification drops its gsi1 keys (a sparse index).
 */
export const campaignAccount = (orgId: number, campaignId: number, accountId: number) => ({
  pk: `${org(orgId)}#ACCOUNT#${accountId}`,
  sk: `CAMPAIGN#${sortableNumber(campaignId)}`,
});
export const campaignAccountRanking = (
  orgId: number,
  campaignId: number,
  score: number,
  accountId: number,
) => ({
  ...campaignAccountsIndex(orgId, campaignId),
  gsi1sk: `${descendingScore(score)}#${sortableNumber(accountId)}`,
});
/**
 * A contact (person), org-wide. A contact with an email is keyed by it, so the
 * raw-push checks fetch a thousand contacts by email with BatchGetItem; one
 * without an email is keyed by id. The item also carries the contact's
 * eligibility summary (blocked flag, every assignment's sequence, channel and
 * status) that those checks read.
 */
export const contact = (orgId: number, contact: { id: number; email: string | null }) =>
  contact.email
    ? { pk: `${org(orgId)}#EMAIL#${contact.email.toLowerCase()}`, sk: 'CONTACT' }
    : { pk: `${org(orgId)}#CONTACT#${contact.id}`, sk: 'CONTACT' };
/**
 * gsi2 of a contact with a LinkedIn profile URL (normalized: shared/store/linkedin-urls.ts):
 * HeyReach's events name a lead by it. A sparse index: a contact without one has no gsi2 keys.
 * Contacts sharing a URL list by id, so the lowest id reads first.
 */
export const contactLinkedin = (orgId: number, normalizedUrl: string, contactId: number) => ({
  gsi2pk: `${org(orgId)}#LINKEDIN#${normalizedUrl}`,
  gsi2sk: `CONTACT#${sortableNumber(contactId)}`,
});
export const contactsByLinkedin = (orgId: number, normalizedUrl: string) => ({
  gsi2pk: `${org(orgId)}#LINKEDIN#${normalizedUrl}`,
});
/**
 * An assignment (a contact in a campaign's sequence). gsi1 lists a campaign's
 * assignments newest first; gsi2 the same per status (the contact filter).
 */
export const assignment = (orgId: number, assignmentId: number) => ({
  pk: `${org(orgId)}#ASSIGNMENT#${assignmentId}`,
  sk: 'ASSIGNMENT',
});
export const assignmentListing = (
  orgId: number,
  campaignId: number,
  status: string,
  createdAt: string,
  assignmentId: number,
) => ({
  ...campaignAssignmentsIndex(orgId, campaignId),
  gsi1sk: timeOrdered(createdAt, assignmentId),
  ...campaignStatusIndex(orgId, campaignId, status),
  gsi2sk: timeOrdered(createdAt, assignmentId),
});
/** A message; gsi1 lists a campaign's messages newest first across all its sequences, gsi2 its assignment's. */
export const message = (orgId: number, messageId: number) => ({
  pk: `${org(orgId)}#MESSAGE#${messageId}`,
  sk: 'MESSAGE',
});
export const messageListing = (
  orgId: number,
  campaignId: number,
  assignmentId: number,
  createdAt: string,
  messageId: number,
) => ({
  ...campaignMessagesIndex(orgId, campaignId),
  gsi1sk: timeOrdered(createdAt, messageId),
  ...assignmentMessagesIndex(orgId, assignmentId),
  gsi2sk: timeOrdered(createdAt, messageId),
});
/** gsi2 of a message: its assignment's thread (a contact's messages in one sequence), newest first. */
export const assignmentMessagesIndex = (orgId: number, assignmentId: number) => ({
  gsi2pk: `${org(orgId)}#ASSIGNMENT#${assignmentId}#MESSAGES`,
});
/** An OAuth client of the MCP connector, addressed by its client id; gsi1 lists an organization's clients. */
export const oauthClient = (clientId: string) => ({ pk: `OAUTHCLIENT#${clientId}`, sk: 'OAUTHCLIENT' });
export const oauthClientInOrganization = (orgId: number, clientId: string) => ({
  gsi1pk: `${org(orgId)}#OAUTHCLIENTS`,
  gsi1sk: `OAUTHCLIENT#${clientId}`,
});
export const oauthClientsOfOrganization = (orgId: number) => ({ gsi1pk: `${org(orgId)}#OAUTHCLIENTS` });
/** An access token, refresh token or authorization code, addressed by the hash of its value (expires by TTL). */
export const oauthGrant = (kind: 'token' | 'refresh' | 'code', valueHash: string) => ({
  pk: `OAUTH${kind.toUpperCase()}#${valueHash}`,
  sk: 'GRANT',
});
/**
 * The tokens descended from one authorization code (its access and refresh tokens, and every
 * pair a refresh rotated in): each names the family, so revoking this one item stops them all.
 */
export const oauthTokenFamily = (familyId: string) => ({ pk: `OAUTHFAMILY#${familyId}`, sk: 'FAMILY' });
/**
 * An organization's approval of an OAuth client (an assistant connected by a person, or an
 * operator client's binding): one per organization and client, in the organization's partition,
 * so the organization's list is one Query and another organization's client is not there.
 */
export const assistantGrant = (orgId: number, clientId: string) => ({
  pk: org(orgId),
  sk: `ASSISTANT#${clientId}`,
});
export const assistantGrantsOf = (orgId: number) => ({ pk: org(orgId), skPrefix: 'ASSISTANT#' });
/**
 * How many clients one source address registered (RFC 7591) in one hour of the clock (epoch
 * hours); an item per window, expiring by TTL.
 */
export const oauthRegistrationWindow = (sourceAddress: string, epochHour: number) => ({
  pk: `OAUTHREGISTER#${sourceAddress}#${epochHour}`,
  sk: 'OAUTHREGISTER',
});
/**
 * A client ID metadata document as last fetched (the client it describes, or why it was refused),
 * by the SHA-256 of its URL, the client id; expiring by TTL when the document's cache period ends.
 */
export const oauthMetadataDocument = (urlHash: string) => ({
  pk: `OAUTHMETADOC#${urlHash}`,
  sk: 'OAUTHMETADOC',
});
/**
 * How many metadata documents one source address made the service fetch in one minute of the
 * clock (epoch minutes); an item per window, expiring by TTL.
 */
export const oauthMetadataFetchWindow = (sourceAddress: string, epochMinute: number) => ({
  pk: `OAUTHMETAFETCH#${sourceAddress}#${epochMinute}`,
  sk: 'OAUTHMETAFETCH',
});
/**
 * How many requests an OAuth client sent to /mcp in one second of the clock
 * (epoch seconds); an item per window spreads a busy client over partitions.
 */
export const mcpRequestWindow = (clientId: string, epochSecond: number) => ({
  pk: `MCPRATE#${clientId}#${epochSecond}`,
  sk: 'MCPRATE',
});
/** A message waiting in the outbox for the stream relay (expires after a week). */
export const outbox = (orgId: number, outboxId: string) => ({
  pk: `${org(orgId)}#OUTBOX#${outboxId}`,
  sk: 'OUTBOX',
});
/** A claimed `Idempotency-Key` and the response it replays (expires after 24 hours). */
export const idempotency = (orgId: number, idempotencyKey: string) => ({
  pk: `${org(orgId)}#IDEMPOTENCY#${idempotencyKey}`,
  sk: 'IDEMPOTENCY',
});
/**
 * A bulk import under way (shared/store/bulk-writes.ts), by the digest of its document: written
 * before its items, deleted with the counters it adds, so an interrupted one is finished by
 * importing the same document again, never counted twice.
 */
export const bulkImport = (orgId: number, digest: string) => ({
  pk: `${org(orgId)}#BULKIMPORT#${digest}`,
  sk: 'BULKIMPORT',
});
/** Records that a provider event id was applied, so a replay changes nothing. */
export const providerEvent = (orgId: number, eventId: string) => ({
  pk: `${org(orgId)}#EVENT#${eventId}`,
  sk: 'EVENT',
});
/**
 * A job opening, addressed by its id. gsi1 lists a domain's jobs newest
 * `first_seen_at` first; gsi2 resolves a page cursor (the job's sequence number).
 */
export const job = (orgId: number, jobId: string) => ({ pk: `${org(orgId)}#JOB#${jobId}`, sk: 'JOB' });
export const jobListing = (orgId: number, domain: string, firstSeenAt: string, sequence: number) => ({
  ...jobsOfDomainIndex(orgId, domain),
  gsi1sk: timeOrdered(firstSeenAt, sequence),
  ...jobCursorIndex(orgId, sequence),
  gsi2sk: 'JOB',
});
/** One excluded email or domain, with what the caller said about it. */
export const exclusion = (orgId: number, kind: 'email' | 'domain', value: string) => ({
  pk: `${org(orgId)}#EXCLUSION#${kind.toUpperCase()}#${value}`,
  sk: 'EXCLUSION',
});
/**
 * The exclusion list in a fixed number of shard items (string sets), so the
 * raw-push checks read every exclusion they need in one BatchGetItem.
 */
export const exclusionShard = (orgId: number, kind: 'email' | 'domain', shard: number) => ({
  pk: `${org(orgId)}#EXCLUSIONS`,
  sk: `${kind.toUpperCase()}#${shard.toString().padStart(2, '0')}`,
});
/**
 * A webhook subscription. An organization's subscriptions share one
 * partition, so the relay's fan-out and the list read them with one Query.
 */
export const webhook = (orgId: number, webhookId: number) => ({
  pk: `${org(orgId)}#WEBHOOKS`,
  sk: `WEBHOOK#${sortableNumber(webhookId)}`,
});
export const webhooksOfOrganization = (orgId: number) => ({
  pk: `${org(orgId)}#WEBHOOKS`,
  skPrefix: 'WEBHOOK#',
});
/** How many subscriptions the organization has, kept with each create and delete to enforce the limit. */
export const webhookCount = (orgId: number) => ({ pk: `${org(orgId)}#WEBHOOKS`, sk: 'COUNT' });
/**
 * One delivery of a webhook event to a subscription (status, attempts, last
 * response). A subscription's deliveries share a partition, newest id last,
 * so the deliveries log is one Query read backwards.
 */
export const webhookDelivery = (orgId: number, webhookId: number, deliveryId: number) => ({
  pk: `${org(orgId)}#WEBHOOK#${webhookId}#DELIVERIES`,
  sk: `DELIVERY#${sortableNumber(deliveryId)}`,
});
export const webhookDeliveriesOf = (orgId: number, webhookId: number) => ({
  pk: `${org(orgId)}#WEBHOOK#${webhookId}#DELIVERIES`,
  skPrefix: 'DELIVERY#',
});
/**
 * A webhook event as fanned out: its payload and the deliveries made of it.
 * Written once by the relay (conditionally), so a relay retry reuses the same
 * deliveries instead of creating new ones.
 */
export const webhookEvent = (orgId: number, eventId: string) => ({
  pk: `${org(orgId)}#WEBHOOKEVENT#${eventId}`,
  sk: 'WEBHOOKEVENT',
});
/**
 * A provider connection (its sealed API key, its webhook URL's generation).
 * An organization's connections share a partition with their count, as its
 * webhook subscriptions do.
 */
export const providerConnection = (orgId: number, connectionId: number) => ({
  pk: `${org(orgId)}#PROVIDERCONNECTIONS`,
  sk: `CONNECTION#${sortableNumber(connectionId)}`,
});
export const providerConnectionsOf = (orgId: number) => ({
  pk: `${org(orgId)}#PROVIDERCONNECTIONS`,
  skPrefix: 'CONNECTION#',
});
export const providerConnectionCount = (orgId: number) => ({
  pk: `${org(orgId)}#PROVIDERCONNECTIONS`,
  sk: 'COUNT',
});
/** A provider event that matched nothing, kept 14 days (TTL) in its connection's partition, oldest first. */
export const unmatchedProviderEvent = (
  orgId: number,
  connectionId: number,
  receivedAt: string,
  eventKey: string,
) => ({
  pk: `${org(orgId)}#CONNECTION#${connectionId}#UNMATCHED`,
  sk: `${receivedAt}#${eventKey}`,
});
export const unmatchedProviderEventsOf = (orgId: number, connectionId: number) => ({
  pk: `${org(orgId)}#CONNECTION#${connectionId}#UNMATCHED`,
});
/**
 * Which sequence a provider's campaign id (a sequence's `external_id`) is:
 * provider webhooks name the campaign. One per provider and id; the
 * campaign's sequence is the truth, so a stale one is ignored.
 */
export const sequenceLink = (orgId: number, provider: string, externalId: string) => ({
  pk: `${org(orgId)}#SEQUENCELINK#${provider}#${externalId}`,
  sk: 'SEQUENCELINK',
});
/**
 * Which campaign holds a sequence: the import writes one per sequence, so a
 * route naming a sequence reads its campaign alone instead of every campaign
 * of the organization. The campaign's list of sequences is the truth: one
 * that no longer holds the sequence makes the home stale, and readers look
 * further.
 */
export const sequenceHome = (orgId: number, sequenceId: number) => ({
  pk: `${org(orgId)}#SEQUENCE#${sequenceId}`,
  sk: 'SEQUENCE',
});
/**
 * An enrollment the provider refused, newest last in the organization's list (`provider
 * failures`); the assignment itself keeps the outcome.
 */
export const enrollmentFailure = (orgId: number, failedAt: string, assignmentId: number) => ({
  pk: `${org(orgId)}#ENROLLMENTFAILURES`,
  sk: timeOrdered(failedAt, assignmentId),
});
export const enrollmentFailuresOf = (orgId: number) => ({ pk: `${org(orgId)}#ENROLLMENTFAILURES` });
/**
 * An assignment enrolled at a provider, under the domain of its contact's email and company:
 * excluding the domain finds the leads to stop without reading the contacts.
 */
export const enrolledUnderDomain = (orgId: number, domain: string, assignmentId: number) => ({
  pk: `${org(orgId)}#ENROLLED#DOMAIN#${domain}`,
  sk: sortableNumber(assignmentId),
});
export const enrolledUnderDomainOf = (orgId: number, domain: string) => ({
  pk: `${org(orgId)}#ENROLLED#DOMAIN#${domain}`,
});
/**
 * A person's membership of an organization (the dashboard): in the organization's partition,
 * listed per person on gsi1 so that sign-in finds their organizations with one Query. The person
 * is the OpenID provider's subject.
 */
export const membership = (orgId: number, subject: string) => ({
  pk: org(orgId),
  sk: `MEMBER#${subject}`,
  gsi1pk: `USER#${subject}#ORGS`,
  gsi1sk: `ORG#${sortableNumber(orgId)}`,
});
export const membersOf = (orgId: number) => ({ pk: org(orgId), skPrefix: 'MEMBER#' });
export const organizationsOfPerson = (subject: string) => ({ gsi1pk: `USER#${subject}#ORGS` });
/** A dashboard session, addressed by the hash of the cookie's value; it expires by TTL. */
export const dashboardSession = (sessionHash: string) => ({
  pk: `DASHSESSION#${sessionHash}`,
  sk: 'SESSION',
});
/** A sign-in under way (the OpenID state's hash): its PKCE verifier and nonce, for ten minutes. */
export const dashboardSignIn = (stateHash: string) => ({ pk: `DASHSIGNIN#${stateHash}`, sk: 'SIGNIN' });
/** One entry of an organization's audit log, newest first by time. */
export const auditEntry = (orgId: number, at: string, entryId: string) => ({
  pk: `${org(orgId)}#AUDIT`,
  sk: `${at}#${entryId}`,
});
export const auditLogOf = (orgId: number) => ({ pk: `${org(orgId)}#AUDIT` });
/** The pacing of a connection's requests to its provider (the theoretical arrival time of the next). */
export const providerRequestPacing = (orgId: number, connectionId: number) => ({
  pk: `${org(orgId)}#CONNECTION#${connectionId}#PACING`,
  sk: 'PACING',
});
/**
 * The pacing of the requests to one provider workspace, whichever connection (of whichever
 * organization) makes them: Instantly's rate limit is the workspace's (docs/providers.md, Pacing by
 * workspace). `workspace` is the workspace id, with the API's address when it is not the provider's own.
 */
export const providerWorkspacePacing = (provider: string, workspace: string) => ({
  pk: `PROVIDER#${provider}#WORKSPACE#${workspace}#PACING`,
  sk: 'PACING',
});
/** Which message of ours a provider's message id is, so its opens and clicks land on it. */
export const providerMessage = (orgId: number, provider: string, providerMessageId: string) => ({
  pk: `${org(orgId)}#PROVIDERMESSAGE#${provider}#${providerMessageId}`,
  sk: 'PROVIDERMESSAGE',
});
