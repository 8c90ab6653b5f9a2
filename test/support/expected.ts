import type { ImportDocument } from '#schemas/import.ts';

/**
 * An independent model of what the API must answer for an imported document:
 * it replays the document's events over its assignments with the lifecycle of
 * docs/decisions.md (Assignments) written out again here, and derives every read from that,
 * so the end-to-end tests do not check the service against itself.
 */

type Status =
  | 'pending-approval'
  | 'scheduled'
  | 'in-progress'
  | 'completed'
  | 'replied'
  | 'bounced'
  | 'unsubscribed';

interface ModelAssignment {
  id: number;
  campaignId: number;
  contactId: number;
  status: Status;
  createdAt: string;
  approvedAt: string | null;
  sequencedAt: string | null;
  completedAt: string | null;
  bouncedAt: string | null;
  unsubscribedAt: string | null;
  sent: boolean;
  opened: boolean;
  clicked: boolean;
}

interface ModelMessage {
  id: number;
  assignment_id: number;
  type: string;
  step_type: string;
  step_index: number | null;
  variant_index: number | null;
  response_type: string | null;
  subject: string | null;
  body: string | null;
  open_count: number;
  sender_email: string | null;
  created_at: string;
}

const NEXT: Record<string, Partial<Record<Status, Status>>> = {
  approved: { 'pending-approval': 'scheduled' },
  message_sent: { scheduled: 'in-progress', 'in-progress': 'in-progress' },
  reply_received: {
    scheduled: 'replied',
    'in-progress': 'replied',
    completed: 'replied',
    replied: 'replied',
  },
  bounced: { scheduled: 'bounced', 'in-progress': 'bounced', completed: 'bounced' },
  unsubscribed: { scheduled: 'unsubscribed', 'in-progress': 'unsubscribed', completed: 'unsubscribed' },
  completed: { 'in-progress': 'completed' },
};

/** Builds the model of a (valid) document; `raw` is the document as written in the test. */
export function modelOf(raw: Partial<Record<keyof ImportDocument, unknown[]>>) {
  const document = raw as unknown as ImportDocument;
  const iso = (value: string | null | undefined) => (value ? new Date(value).toISOString() : null);
  const assignments = new Map<number, ModelAssignment>();
  for (const input of document.assignments ?? []) {
    assignments.set(input.id, {
      id: input.id,
      campaignId: input.campaign_id,
      contactId: input.contact_id,
      status: (input.status ?? 'pending-approval') as Status,
      createdAt: iso(input.created_at)!,
      approvedAt: iso(input.approved_at),
      sequencedAt: iso(input.sequenced_at),
      completedAt: iso(input.completed_at),
      bouncedAt: iso(input.bounced_at),
      unsubscribedAt: iso(input.unsubscribed_at),
      sent: false,
      opened: false,
      clicked: false,
    });
  }
  const messages: ModelMessage[] = [];
  const addMessage = (
    message: Partial<ModelMessage> & { id: number; assignment_id: number; type: string; created_at: string },
  ) => {
    messages.push({
      step_type: 'reply',
      step_index: null,
      variant_index: null,
      response_type: null,
      subject: null,
      body: null,
      open_count: 0,
      sender_email: null,
      ...message,
      created_at: iso(message.created_at)!,
    });
    const assignment = assignments.get(message.assignment_id)!;
    if (message.type === 'sent') assignment.sent = true;
    if ((message.open_count ?? 0) > 0) assignment.opened = true;
  };
  for (const message of document.messages ?? []) addMessage(message as unknown as ModelMessage);
  const seen = new Set<string>();
  for (const event of document.events ?? []) {
    if (seen.has(event.id)) continue;
    seen.add(event.id);
    const assignment = assignments.get(event.assignment_id)!;
    const at = iso(event.at)!;
    const next = NEXT[event.type]?.[assignment.status];
    if (next) assignment.status = next;
    if (event.type === 'approved') assignment.approvedAt = at;
    if (event.type === 'sequenced') assignment.sequencedAt = at;
    if (event.type === 'completed') assignment.completedAt = at;
    if (event.type === 'bounced') assignment.bouncedAt = at;
    if (event.type === 'unsubscribed') assignment.unsubscribedAt = at;
    if (event.type === 'opened') {
      assignment.opened = true;
      const named = messages.find((message) => message.id === event.message_id);
      if (named) named.open_count += 1;
    }
    if (event.type === 'clicked') assignment.clicked = true;
    if ('message' in event) {
      const type =
        event.type === 'message_sent' ? 'sent' : event.type === 'reply_received' ? 'received' : 'forward';
      addMessage({
        ...(event.message as unknown as ModelMessage),
        assignment_id: event.assignment_id,
        type,
        created_at: event.message.created_at ?? at,
        response_type: event.type === 'reply_received' ? event.response_type : null,
      });
    }
  }
  const blockedContacts = new Set(
    (document.contacts ?? []).filter((contact) => contact.blocked).map((contact) => contact.id),
  );
  for (const event of document.events ?? []) {
    if (event.type === 'contact_blocked')
      blockedContacts.add(assignments.get(event.assignment_id)!.contactId);
  }
  return { document, assignments: [...assignments.values()], messages, blockedContacts };
}

export type Model = ReturnType<typeof modelOf>;

const newestFirst =
  <T extends { id: number }>(timeOf: (item: T) => string) =>
  (a: T, b: T) =>
    timeOf(a) === timeOf(b) ? b.id - a.id : timeOf(a) < timeOf(b) ? 1 : -1;

/** The expected CampaignDetail of every campaign, by id. */
export function expectedCampaigns(model: Model) {
  return [...(model.document.campaigns ?? [])]
    .sort((a, b) => a.id - b.id)
    .map((campaign) => {
      const mine = model.assignments.filter((assignment) => assignment.campaignId === campaign.id);
      const count = (predicate: (assignment: ModelAssignment) => boolean) => mine.filter(predicate).length;
      const providers = [...new Set(campaign.sequences.map((sequence) => sequence.provider))].sort();
      return {
        id: campaign.id,
        provider: providers.length === 1 ? providers[0] : null,
        providers,
        sequence_ids: campaign.sequences.map((sequence) => sequence.id).sort((a, b) => a - b),
        icp_id: campaign.id,
        icp_name: campaign.name,
        created_at: campaign.created_at ? new Date(campaign.created_at).toISOString() : null,
        steps_count: campaign.sequences.reduce((total, sequence) => total + sequence.steps.length, 0),
        stats: {
          sent: count((assignment) => assignment.sent),
          opened: count((assignment) => assignment.opened),
          clicked: count((assignment) => assignment.clicked),
          bounced: count((assignment) => assignment.status === 'bounced'),
          unsubscribed: count((assignment) => assignment.status === 'unsubscribed'),
          blocked: count((assignment) => model.blockedContacts.has(assignment.contactId)),
        },
        contacts: {
          pending_approval: count((assignment) => assignment.status === 'pending-approval'),
          scheduled: count((assignment) => assignment.status === 'scheduled'),
          in_progress: count((assignment) => assignment.status === 'in-progress'),
          completed: count((assignment) => assignment.status === 'completed'),
          replied: count((assignment) => assignment.status === 'replied'),
        },
      };
    });
}

/** The expected contact list of a campaign, newest assignment first, optionally filtered. */
export function expectedContacts(model: Model, campaignId: number, status?: Status) {
  const contacts = new Map((model.document.contacts ?? []).map((contact) => [contact.id, contact]));
  return model.assignments
    .filter((assignment) => assignment.campaignId === campaignId && (!status || assignment.status === status))
    .sort(newestFirst((assignment) => assignment.createdAt))
    .map((assignment) => {
      const contact = contacts.get(assignment.contactId)!;
      return {
        assignment_id: assignment.id,
        contact: {
          id: contact.id,
          email: contact.email ? contact.email.toLowerCase() : null,
          first_name: contact.first_name ?? null,
          last_name: contact.last_name ?? null,
          full_name: contact.full_name ?? null,
          title: contact.title ?? null,
          linkedin_url: contact.linkedin_url ?? null,
          company_name: contact.company_name ?? null,
          company_domain: contact.company_domain ?? null,
        },
        status: assignment.status,
        approved_at: assignment.approvedAt,
        sequenced_at: assignment.sequencedAt,
        completed_at: assignment.completedAt,
        bounced_at: assignment.bouncedAt,
        unsubscribed_at: assignment.unsubscribedAt,
        // Imported assignments were never scheduled through the service: nothing to enroll.
        enrollment: null,
      };
    });
}

/** The expected message history of a campaign, newest first. */
export function expectedMessages(model: Model, campaignId: number) {
  const inCampaign = new Set(
    model.assignments
      .filter((assignment) => assignment.campaignId === campaignId)
      .map((assignment) => assignment.id),
  );
  return model.messages
    .filter((message) => inCampaign.has(message.assignment_id))
    .sort(newestFirst((message) => message.created_at));
}

/** The expected accounts list of a campaign: highest score first, ties by id, excluded domains left out. */
export function expectedAccounts(model: Model, campaignId: number, excludedDomains: string[]) {
  return (model.document.accounts ?? [])
    .flatMap((account) => {
      const qualification = account.campaigns.find((candidate) => candidate.campaign_id === campaignId);
      const domain = new URL(
        /:\/\//.test(account.domain) ? account.domain : `http://${account.domain}`,
      ).hostname
        .toLowerCase()
        .replace(/^www\./, '');
      if (!qualification || excludedDomains.includes(domain)) return [];
      return [
        {
          id: account.id,
          ...(account.name !== undefined && { name: account.name }),
          domain,
          ...(account.website !== undefined && { website: account.website }),
          ...(account['linkedin-url'] !== undefined && { 'linkedin-url': account['linkedin-url'] }),
          score: qualification.score,
          signals: qualification.signals ?? [],
        },
      ];
    })
    .sort((a, b) => (a.score === b.score ? a.id - b.id : b.score - a.score));
}

/** The expected analytics overview. */
export function expectedOverview(model: Model) {
  const all = model.assignments;
  const count = (predicate: (assignment: ModelAssignment) => boolean) => all.filter(predicate).length;
  return {
    total_campaigns: (model.document.campaigns ?? []).length,
    total_contacts_sent: count((assignment) => assignment.sent),
    total_contacts_opened: count((assignment) => assignment.opened),
    total_contacts_replied: count((assignment) => assignment.status === 'replied'),
    total_contacts_scheduled: count((assignment) => assignment.status === 'scheduled'),
    total_bounced: count((assignment) => assignment.status === 'bounced'),
    total_unsubscribed: count((assignment) => assignment.status === 'unsubscribed'),
  };
}
