import * as z from 'zod/mini';
import { idOf } from '#api/dashboard/forms.ts';
import { type Html, html } from '#api/dashboard/html.ts';
import type { DashboardPage } from '#api/dashboard/page.ts';
import { type PageRequest, pagePath } from '#api/dashboard/page.ts';
import { table } from '#api/dashboard/widgets.ts';
import {
  contactStatusLabel,
  enrollmentLabel,
  formatCount,
  formatDateTime,
  formatRate,
  messageTypeLabel,
  providerLabel,
} from '#api/dashboard/words.ts';
import { ASSIGNMENT_STATUSES, ENROLLMENT_STATUSES } from '#definitions/item-fields.ts';
import { DomainError, InputInvalid } from '#domain/errors.ts';
import { findCampaignContacts } from '#use-cases/find-campaign-contacts.ts';
import { listProviderCampaigns } from '#use-cases/list-provider-campaigns.ts';
import {
  type CampaignSequence,
  type DashboardCampaign,
  listCampaignDetails,
  readCampaignWithSequences,
} from '#use-cases/read-campaign-pages.ts';
import { readContactThread } from '#use-cases/read-contact-thread.ts';

/**
 * The organization's campaigns with their rates; a campaign's stats, contacts
 * by status, sequences with their provider links, and its contacts (search
 * by email, filter by status and enrollment, pages); a contact's message
 * thread (`?contact=<assignment id>`). Every read is a use case of the API's
 * (or its filtered form), so another organization's campaign or contact is
 * 404 as it is there.
 */

/** Contacts a page of the campaign's list shows. */
const PAGE_SIZE = 25;

/**
 * The rates of a campaign, as shares of the contacts sent to. A positive reply is a contact with a
 * reply classified positive once at least (docs/dashboard.md, Rates).
 */
function rates({ campaign, positiveReplied }: DashboardCampaign) {
  const { sent } = campaign.stats;
  return {
    open: formatRate(campaign.stats.opened, sent),
    reply: formatRate(campaign.contacts.replied, sent),
    positive: formatRate(positiveReplied, sent),
    bounce: formatRate(campaign.stats.bounced, sent),
  };
}

async function listPage({ orgId, base }: PageRequest): Promise<Html> {
  const campaigns = await listCampaignDetails({ orgId });
  const rows = campaigns.map((read) => {
    const { campaign } = read;
    const rate = rates(read);
    return html`<tr><th scope="row"><a href="${base}${pagePath('campaigns', campaign.id)}">${campaign.icp_name}</a></th><td class="number">${formatCount(campaign.stats.sent)}</td><td class="number">${rate.open}</td><td class="number">${rate.reply}</td><td class="number">${rate.positive}</td><td class="number">${rate.bounce}</td></tr>`;
  });
  return html`<p>Rates are shares of the contacts each campaign sent to.</p>
${table('The organization’s campaigns and their rates', ['Campaign', 'Contacts sent', 'Open rate', 'Reply rate', 'Positive-reply rate', 'Bounce rate'], rows, 'No campaigns yet.')}`;
}

/** The search of a campaign's contacts, from the page's query (a GET form): what it refuses is 400. */
const contactSearch = /* @__PURE__ */ z.object({
  email: z.optional(
    z.pipe(
      z.string().check(z.trim(), z.toLowerCase(), z.maxLength(254)),
      z.transform((value) => value || undefined),
    ),
  ),
  status: z.optional(z.union([z.literal(''), z.enum(ASSIGNMENT_STATUSES)])),
  enrollment: z.optional(z.union([z.literal(''), z.enum(ENROLLMENT_STATUSES)])),
  skip: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(100_000)), 0),
});

function searchOf(query: PageRequest['query']) {
  const result = z.safeParse(contactSearch, query);
  if (!result.success) {
    const field = result.error.issues[0]?.path[0];
    throw new InputInvalid(`The search’s ${String(field ?? 'value')} is not one the list offers`);
  }
  const { email, status, enrollment, skip } = result.data;
  return { email, status: status || undefined, enrollment: enrollment || undefined, skip };
}

/**
 * The provider campaign names of the sequences' links, read from each connection's first page of
 * the provider's campaigns (kept a minute); a connection whose provider cannot be read says why.
 */
type CampaignNames = Map<string, string> | { problem: string };

async function providerCampaignNames(
  orgId: number,
  sequences: readonly CampaignSequence[],
): Promise<Map<number, CampaignNames>> {
  const connections = [
    ...new Set(
      sequences.flatMap((sequence) => (sequence.connectionId === null ? [] : [sequence.connectionId])),
    ),
  ];
  const named = await Promise.all(
    connections.map(async (id) => {
      try {
        const page = await listProviderCampaigns({ orgId, path: { id }, query: {} });
        return [id, new Map(page.data.map((campaign) => [campaign.id, campaign.name]))] as const;
      } catch (error) {
        if (error instanceof DomainError) return [id, { problem: error.message }] as const;
        throw error;
      }
    }),
  );
  return new Map<number, CampaignNames>(named);
}

function sequenceRow(
  request: PageRequest,
  sequence: CampaignSequence,
  names: Map<number, CampaignNames>,
): Html {
  const { base } = request;
  const connection =
    sequence.connectionId === null
      ? null
      : html`<a href="${base}${pagePath('providers', sequence.connectionId)}">${providerLabel(sequence.provider)} connection ${sequence.connectionId}</a>`;
  let state: Html;
  let name: Html | string = '—';
  if (sequence.providerCampaignId === null) state = html`Not linked`;
  else if (connection === null)
    state = html`Linked to provider campaign ${sequence.providerCampaignId}, without a connection`;
  else {
    state = html`Linked on ${connection}`;
    const known = names.get(sequence.connectionId!);
    name =
      known === undefined
        ? sequence.providerCampaignId
        : 'problem' in known
          ? html`${sequence.providerCampaignId} <span class="muted">(name not available: ${known.problem})</span>`
          : html`${known.get(sequence.providerCampaignId) ?? sequence.providerCampaignId} <span class="muted">(${sequence.providerCampaignId})</span>`;
  }
  return html`<tr><th scope="row">Sequence ${sequence.id}</th><td>${providerLabel(sequence.provider)}</td><td>${state}</td><td>${name}</td></tr>`;
}

function contactPager(
  here: string,
  search: ReturnType<typeof searchOf>,
  found: { total: number; skip: number; take: number },
): Html | null {
  const link = (skip: number) => {
    const query = new URLSearchParams();
    if (search.email) query.set('email', search.email);
    if (search.status) query.set('status', search.status);
    if (search.enrollment) query.set('enrollment', search.enrollment);
    if (skip > 0) query.set('skip', String(skip));
    const text = query.toString();
    return `${here}${text ? `?${text}` : ''}#contacts`;
  };
  const previous = found.skip > 0 ? Math.max(0, found.skip - found.take) : null;
  const next = found.skip + found.take < found.total ? found.skip + found.take : null;
  if (previous === null && next === null) return null;
  return html`<nav aria-label="Pages of contacts" class="actions">${previous === null ? '' : html`<a href="${link(previous)}">Previous ${found.take}</a>`}${next === null ? '' : html`<a href="${link(next)}">Next ${found.take}</a>`}</nav>`;
}

async function campaignPage(request: PageRequest, campaignId: number): Promise<Html> {
  const { orgId, base, query } = request;
  const search = searchOf(query);
  const [read, found] = await Promise.all([
    readCampaignWithSequences({ orgId, campaignId }),
    findCampaignContacts({ orgId, campaignId, ...search, take: PAGE_SIZE }),
  ]);
  const { campaign, positiveReplied, sequences } = read;
  const names = await providerCampaignNames(orgId, sequences);
  const here = `${base}${pagePath('campaigns', campaignId)}`;
  const rate = rates(read);
  const cards: [string, string, string][] = [
    ['Contacts sent', formatCount(campaign.stats.sent), ''],
    ['Open rate', rate.open, `${formatCount(campaign.stats.opened)} opened`],
    ['Reply rate', rate.reply, `${formatCount(campaign.contacts.replied)} replied`],
    ['Positive-reply rate', rate.positive, `${formatCount(positiveReplied)} positive`],
    ['Bounce rate', rate.bounce, `${formatCount(campaign.stats.bounced)} bounced`],
    ['Unsubscribed', formatCount(campaign.stats.unsubscribed), ''],
  ];
  const byStatus: [string, number][] = [
    [contactStatusLabel('pending-approval'), campaign.contacts.pending_approval],
    [contactStatusLabel('scheduled'), campaign.contacts.scheduled],
    [contactStatusLabel('in-progress'), campaign.contacts.in_progress],
    [contactStatusLabel('completed'), campaign.contacts.completed],
    [contactStatusLabel('replied'), campaign.contacts.replied],
    [contactStatusLabel('bounced'), campaign.stats.bounced],
    [contactStatusLabel('unsubscribed'), campaign.stats.unsubscribed],
  ];
  const contactRows = found.data.map(
    (contact) =>
      html`<tr><th scope="row"><a href="${here}?contact=${contact.assignment_id}">${contact.contact.email ?? contact.contact.full_name ?? `Contact ${contact.assignment_id}`}</a></th><td>${contact.contact.full_name ?? '—'}</td><td>${contact.contact.company_name ?? '—'}</td><td>${contactStatusLabel(contact.status)}</td><td>${enrollmentLabel(contact.enrollment?.status)}</td></tr>`,
  );
  const option = (value: string, label: string, current: string | undefined) =>
    html`<option value="${value}"${value === (current ?? '') ? html` selected` : ''}>${label}</option>`;
  const searchForm = html`<form method="get" action="${here}#contacts" role="search" aria-label="Search the campaign’s contacts">
<label for="contact-email">Email (the whole address)</label><input id="contact-email" name="email" type="text" inputmode="email" autocomplete="off" maxlength="254" value="${search.email ?? ''}">
<label for="contact-status">Status</label><select id="contact-status" name="status">${option('', 'Any status', search.status)}${ASSIGNMENT_STATUSES.map((status) => option(status, contactStatusLabel(status), search.status))}</select>
<label for="contact-enrollment">Enrollment</label><select id="contact-enrollment" name="enrollment">${option('', 'Any enrollment', search.enrollment)}${ENROLLMENT_STATUSES.map((status) => option(status, enrollmentLabel(status), search.enrollment))}</select>
<p><button type="submit">Search</button>${search.email || search.status || search.enrollment ? html` <a href="${here}#contacts">Clear the search</a>` : ''}</p></form>`;
  const shown =
    found.total === 0
      ? null
      : html`<p class="muted" role="status">${formatCount(found.skip + 1)}–${formatCount(found.skip + found.data.length)} of ${formatCount(found.total)} contacts${found.window === null ? '' : ` among the campaign’s ${formatCount(found.window)} newest`}.</p>`;
  return html`<p><a href="${base}${pagePath('campaigns')}">All campaigns</a></p>
<h2>${campaign.icp_name}</h2>
<ul class="cards">${cards.map(([label, value, detail]) => html`<li><span class="value">${value}</span>${label}${detail ? html`<br><span class="muted">${detail}</span>` : ''}</li>`)}</ul>
<h2>Contacts by status</h2>${table(
    'The campaign’s contacts in each status',
    ['Status', 'Contacts'],
    byStatus.map(
      ([label, count]) =>
        html`<tr><th scope="row">${label}</th><td class="number">${formatCount(count)}</td></tr>`,
    ),
    '',
  )}
<h2>Sequences</h2>${table(
    'The campaign’s sequences and the provider campaigns they are linked to',
    ['Sequence', 'Provider', 'Link', 'Provider campaign'],
    sequences.map((sequence) => sequenceRow(request, sequence, names)),
    'This campaign has no sequences.',
  )}
<h2 id="contacts">Contacts</h2>${searchForm}${shown}${table('The campaign’s contacts, newest first', ['Contact', 'Name', 'Company', 'Status', 'Enrollment'], contactRows, search.email || search.status || search.enrollment ? 'No contact matches the search.' : 'No contacts yet.')}${contactPager(here, search, found)}`;
}

/** A message's body as paragraphs of its lines: the text escaped, its line breaks kept. */
const bodyOf = (body: string): Html =>
  html`${body.split(/\r?\n/).map((line, index) => html`${index > 0 ? html`<br>` : ''}${line}`)}`;

async function contactPage(request: PageRequest, campaignId: number, assignmentId: number): Promise<Html> {
  const { orgId, base } = request;
  const thread = await readContactThread({ orgId, campaignId, assignmentId });
  const { contact } = thread;
  const person = contact.contact;
  const facts: [string, Html | string][] = [
    ['Email', person.email ?? '—'],
    ['Name', person.full_name ?? '—'],
    ['Title', person.title ?? '—'],
    ['Company', person.company_name ?? '—'],
    ['Status', contactStatusLabel(contact.status)],
    [
      'Enrollment',
      html`${enrollmentLabel(contact.enrollment?.status)}${contact.enrollment?.error ? html`: ${contact.enrollment.error}` : ''}`,
    ],
    ['Sequence', `Sequence ${thread.sequenceId}`],
  ];
  const messages = thread.messages.map(
    (message) =>
      html`<li><article aria-label="${messageTypeLabel(message.type)} message ${message.id}"><p><strong>${messageTypeLabel(message.type)}</strong>${message.created_at ? html` · <time datetime="${message.created_at}">${formatDateTime(message.created_at)}</time>` : ''}${message.sender_email ? html` · from ${message.sender_email}` : ''}${message.response_type ? html` · classified ${message.response_type}` : ''}</p>${message.subject ? html`<p><strong>${message.subject}</strong></p>` : ''}<p>${message.body ? bodyOf(message.body) : html`<span class="muted">No text.</span>`}</p></article></li>`,
  );
  return html`<p><a href="${base}${pagePath('campaigns', campaignId)}#contacts">Back to ${thread.campaignName}</a></p>
<h2>${person.email ?? person.full_name ?? `Contact ${assignmentId}`}</h2>
${table(
  'The contact in this campaign',
  ['Field', 'Value'],
  facts.map(([label, value]) => html`<tr><th scope="row">${label}</th><td>${value}</td></tr>`),
  '',
)}
<h2>Messages</h2>${messages.length === 0 ? html`<p class="muted">No messages yet.</p>` : html`<ol class="thread">${messages}</ol>`}`;
}

export const campaignsPage: DashboardPage = {
  title: 'Campaigns',
  hasItems: true,
  get(request) {
    if (request.item === undefined) return listPage(request);
    const campaignId = idOf(request.item, 'The campaign id');
    const contact = request.query.contact;
    return contact === undefined
      ? campaignPage(request, campaignId)
      : contactPage(request, campaignId, idOf(contact, 'The contact'));
  },
};
