import type { z } from 'zod';
import type {
  accountInput,
  campaignInput,
  contactInput,
  importDocument,
  jobInput,
  messageInput,
  providerEvent,
  SequenceInput,
} from '#schemas/import.ts';
import type { AssignmentStatus } from '#schemas/resources.ts';

/**
 * The demo organization's data as an import document: four campaigns over four
 * providers (one with a LinkedIn sequence), 220 scored accounts, 1,100 contacts
 * in every assignment status, a message history with opens, clicks and replies
 * of every response type, provider events for the recent activity, job
 * openings for fifteen domains and a few exclusions.
 *
 * Deterministic: the same seed and `now` give the same document (a seeded
 * PRNG, no clock reads), so tests can rely on it and a re-import changes
 * nothing. Times are laid out backwards from `now`, so the history is recent
 * whenever the demo is seeded (cooldown windows and `since` filters show
 * something), and nothing lies in the future.
 */

/** The import document as it is written in a file (before defaults and canonical timestamps). */
export type ImportDocumentInput = z.input<typeof importDocument>;

type CampaignDraft = z.input<typeof campaignInput>;
type AccountDraft = z.input<typeof accountInput>;
type ContactDraft = z.input<typeof contactInput>;
type JobDraft = z.input<typeof jobInput>;
type EventInput = z.input<typeof providerEvent>;
type MessageFields = Omit<z.input<typeof messageInput>, 'id' | 'assignment_id'>;

/** Entity types whose ids the demo document carries (kept by the import). */
export const DEMO_ID_ENTITIES = [
  'campaign',
  'sequence',
  'account',
  'contact',
  'assignment',
  'message',
] as const;
export type DemoIdEntity = (typeof DEMO_ID_ENTITIES)[number];

export interface DemoOptions {
  /** PRNG seed. */
  seed?: number;
  /** The moment the history leads up to; defaults to 2026-04-15T12:00:00.000Z so the default output never varies. */
  now?: Date;
  /**
   * The first id of each entity type; ids are consecutive from there. The seed
   * allocates fresh blocks, so a second demo organization never reuses ids.
   */
  firstIds?: Partial<Record<DemoIdEntity, number>>;
  /**
   * How many accounts (each with five contacts); the default builds the full
   * demo. Tests that only need a stack with some data ask for fewer.
   */
  accounts?: number;
}

export const DEMO_DEFAULT_SEED = 20_260_415;
const DEFAULT_NOW = new Date('2026-04-15T12:00:00.000Z');
const ACCOUNTS = 220;
const CONTACTS_PER_ACCOUNT = 5;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** mulberry32: small, fast and good enough for demo data; the point is reproducibility. */
class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return entries.at(-1)![0];
  }

  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let index = copy.length - 1; index > 0; index--) {
      const other = Math.floor(this.next() * (index + 1));
      [copy[index], copy[other]] = [copy[other]!, copy[index]!];
    }
    return copy;
  }
}

interface SequenceTemplate {
  provider: SequenceInput['provider'];
  channel: SequenceInput['channel'];
  steps: SequenceInput['steps'];
}

interface CampaignTemplate {
  name: string;
  signals: { name: string; context: string[] }[];
  companySuffixes: string[];
  titles: string[];
  jobTitles: string[];
  sequences: SequenceTemplate[];
}

/** An email step; each [subject, body] pair is an A/B variant. */
const email = (...variants: [subject: string, body: string][]) => ({
  type: 'email' as const,
  variants: variants.map(([subject, body]) => ({ subject, body })),
});

const CAMPAIGNS: CampaignTemplate[] = [
  {
    name: 'Fintech CFOs — Series B and later',
    signals: [
      {
        name: 'finance_hiring',
        context: ['Posted 3 finance roles in 30 days', 'Hiring a Head of FP&A', 'Controller role open'],
      },
      {
        name: 'funding_round',
        context: ['Raised a Series B', 'Raised a Series C', 'Announced debt financing'],
      },
      { name: 'new_cfo', context: ['New CFO started this quarter', 'CFO promoted from VP Finance'] },
    ],
    companySuffixes: ['Capital', 'Pay', 'Finance', 'Ledger', 'Lending'],
    titles: ['CFO', 'VP Finance', 'Head of FP&A', 'Financial Controller', 'Director of Finance'],
    jobTitles: ['Senior Accountant', 'FP&A Manager', 'Financial Controller', 'Treasury Analyst'],
    sequences: [
      {
        provider: 'smartlead',
        channel: 'email',
        steps: [
          email(
            [
              'Closing the books at {{company_name}}',
              'Hi {{first_name}}, teams like {{company_name}} cut their month-end close to four days. Worth a look?',
            ],
            [
              'Month-end at {{company_name}}',
              'Hi {{first_name}}, congrats on the growth at {{company_name}}. How long does your close take today?',
            ],
          ),
          email(['Re: Closing the books', 'Following up, {{first_name}}: happy to share how peers did it.']),
          email([
            'A two-minute case study',
            '{{first_name}}, here is how a Series B lender automated accruals.',
          ]),
          email(['Should I close the loop?', 'Hi {{first_name}}, shall I stop reaching out about this?']),
        ],
      },
      {
        provider: 'heyreach',
        channel: 'linkedin',
        steps: [
          {
            type: 'linkedin_connect',
            variants: [{ body: 'Hi {{first_name}}, I work with finance leaders.' }],
          },
          {
            type: 'linkedin_message',
            variants: [{ body: 'Thanks for connecting, {{first_name}}! How is the close going?' }],
          },
          { type: 'linkedin_message', variants: [{ body: 'Sharing a short benchmark on close times.' }] },
        ],
      },
    ],
  },
  {
    name: 'Retail Operations Leaders',
    signals: [
      { name: 'store_expansion', context: ['Opening 12 stores this year', 'Entered two new regions'] },
      { name: 'supply_chain_hiring', context: ['Hiring a supply chain director', '5 logistics roles open'] },
      { name: 'erp_migration', context: ['Migrating to a new ERP', 'RFP for inventory software'] },
    ],
    companySuffixes: ['Retail', 'Foods', 'Outfitters', 'Market', 'Goods'],
    titles: ['VP Operations', 'COO', 'Head of Supply Chain', 'Director of Store Operations'],
    jobTitles: ['Store Manager', 'Supply Chain Analyst', 'Logistics Coordinator', 'Inventory Planner'],
    sequences: [
      {
        provider: 'instantly',
        channel: 'email',
        steps: [
          email([
            'Stock-outs at {{company_name}}',
            'Hi {{first_name}}, retailers your size lose 4% of sales to stock-outs. We fix that.',
          ]),
          email(['Re: Stock-outs', '{{first_name}}, a quick follow-up with a 3-minute demo video.']),
          email(['Last note', 'Hi {{first_name}}, I will leave it here. Reply if timing is better later.']),
        ],
      },
    ],
  },
  {
    name: 'Healthcare IT Directors',
    signals: [
      { name: 'ehr_migration', context: ['EHR migration announced', 'Evaluating EHR vendors'] },
      { name: 'security_hiring', context: ['Hiring a CISO', 'Security engineer roles open'] },
      { name: 'compliance_deadline', context: ['HIPAA audit due this quarter', 'SOC 2 renewal coming up'] },
    ],
    companySuffixes: ['Health', 'Medical', 'Clinics', 'Care', 'Diagnostics'],
    titles: ['IT Director', 'CIO', 'Head of Infrastructure', 'VP Information Security'],
    jobTitles: ['Security Engineer', 'EHR Analyst', 'IT Support Specialist', 'Cloud Architect'],
    sequences: [
      {
        provider: 'lemlist',
        channel: 'email',
        steps: [
          email(
            [
              'Audit season at {{company_name}}',
              'Hi {{first_name}}, we help hospital IT teams pass audits without weekend work.',
            ],
            [
              'Your next compliance audit',
              'Hi {{first_name}}, is the next compliance audit on your plate at {{company_name}}?',
            ],
          ),
          email(['Re: Audit season', 'Following up, {{first_name}}. Worth 15 minutes?']),
          email(['Checklist', '{{first_name}}, here is the audit checklist our customers use.']),
        ],
      },
    ],
  },
  {
    name: 'DevTools — Platform Engineering',
    signals: [
      { name: 'platform_team_hiring', context: ['Hiring platform engineers', 'New SRE team'] },
      { name: 'cloud_migration', context: ['Moving to Kubernetes', 'Multi-cloud migration underway'] },
      { name: 'funding_round', context: ['Raised a Series A', 'Raised a Series B'] },
    ],
    companySuffixes: ['Cloud', 'Labs', 'Systems', 'Software', 'Data'],
    titles: ['VP Engineering', 'Head of Platform', 'CTO', 'Engineering Manager'],
    jobTitles: ['Platform Engineer', 'Site Reliability Engineer', 'Backend Engineer', 'DevOps Engineer'],
    sequences: [
      {
        provider: 'smartlead',
        channel: 'email',
        steps: [
          email(
            [
              'Build times at {{company_name}}',
              'Hi {{first_name}}, platform teams cut CI time in half with us.',
            ],
            [
              'Deploys at {{company_name}}',
              'Hi {{first_name}}, how long does a deploy take at {{company_name}}?',
            ],
          ),
          email(['Re: Build times', 'Quick follow-up, {{first_name}}.']),
          email(['One last idea', '{{first_name}}, a benchmark of 40 platform teams, if useful.']),
        ],
      },
      {
        provider: 'instantly',
        channel: 'email',
        steps: [
          email(['Your platform roadmap', 'Hi {{first_name}}, saw the platform roles at {{company_name}}.']),
          email(['Re: Your platform roadmap', 'Following up, {{first_name}}.']),
        ],
      },
    ],
  },
];

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
const FIRST_NAMES = [
  'Ava',
  'Ben',
  'Chloe',
  'Daniel',
  'Elena',
  'Felix',
  'Grace',
  'Hugo',
  'Iris',
  'Jonas',
  'Kira',
  'Liam',
  'Maya',
  'Noah',
  'Olivia',
  'Priya',
  'Quinn',
  'Rafael',
  'Sofia',
  'Tom',
  'Uma',
  'Victor',
  'Wen',
  'Yusuf',
  'Zoe',
];
const LAST_NAMES = [
  'Adams',
  'Bauer',
  'Chen',
  'Dubois',
  'Evans',
  'Fischer',
  'Garcia',
  'Hansen',
  'Ito',
  'Jensen',
  'Kowalski',
  'Lopez',
  'Moreau',
  'Nakamura',
  'Okafor',
  'Patel',
  'Rossi',
  'Schmidt',
  'Tanaka',
  'Varga',
  'Wright',
  'Yilmaz',
];
const LOCATIONS = ['Remote', 'New York, NY', 'London, UK', 'Berlin, DE', 'Austin, TX', 'Toronto, CA'];
const SENDERS = [
  'maya@northpeak.io',
  'leo@northpeak.io',
  'ines@northpeak-mail.com',
  'sam@northpeak-mail.com',
];

type ResponseType = Extract<EventInput, { type: 'reply_received' }>['response_type'];
const RESPONSES: readonly (readonly [ResponseType, number, string])[] = [
  ['positive', 24, 'Sounds interesting. Can we talk next Tuesday?'],
  ['neutral', 14, 'Can you send more details first?'],
  ['negative', 10, 'We are happy with our current setup.'],
  ['not_interested', 20, 'Not interested, thanks.'],
  ['out_of_office', 16, 'I am out of office until next week with limited access to email.'],
  ['wrong_person', 10, 'I am not the right person for this; try our operations lead.'],
  ['unsubscribe_request', 6, 'Please remove me from your list.'],
];

/** Final statuses and how often each occurs. */
const STORIES: readonly (readonly [AssignmentStatus, number])[] = [
  ['pending-approval', 8],
  ['scheduled', 14],
  ['in-progress', 28],
  ['completed', 16],
  ['replied', 18],
  ['bounced', 9],
  ['unsubscribed', 7],
];

const iso = (ms: number) => new Date(ms).toISOString();
const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-');
const fill = (text: string, values: Record<string, string>) =>
  // Own members only: `{{constructor}}` must stay as written, not become Object's constructor.
  text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? values[name]! : whole,
  );

/** A message; its id is given at the end, in time order. */
interface DraftMessage extends MessageFields {
  id: number;
  assignment: DraftAssignment;
}

/** An event, built once every id is known; `message` is the message it carries, if any. */
interface DraftEvent {
  at: number;
  build: (eventId: string) => EventInput;
  message?: DraftMessage;
}

interface DraftAssignment {
  id: number;
  campaignId: number;
  sequence: SequenceInput;
  contact: ContactDraft;
  /** Where the assignment ends up, after its events. */
  story: AssignmentStatus;
  /** Its status in the file, before its events. */
  status: AssignmentStatus;
  createdAt: number;
  approvedAt?: number;
  sequencedAt?: number;
  completedAt?: number;
  bouncedAt?: number;
  unsubscribedAt?: number;
  variables: Record<string, string>;
}

/** Builds the demo import document. */
export function demoDocument(options: DemoOptions = {}): ImportDocumentInput {
  const random = new Random(options.seed ?? DEMO_DEFAULT_SEED);
  const now = (options.now ?? DEFAULT_NOW).getTime();
  const firstId = (entity: DemoIdEntity) => options.firstIds?.[entity] ?? 1;
  const counter = (entity: DemoIdEntity) => {
    let next = firstId(entity);
    return () => next++;
  };
  const ids = {
    campaign: counter('campaign'),
    sequence: counter('sequence'),
    account: counter('account'),
    contact: counter('contact'),
  };

  // Campaigns and their sequences.
  const campaigns: CampaignDraft[] = [];
  const campaignSequences = new Map<number, SequenceInput[]>();
  for (const [index, template] of CAMPAIGNS.entries()) {
    const id = ids.campaign();
    const sequences = template.sequences.map((sequence) => ({ id: ids.sequence(), ...sequence }));
    campaignSequences.set(id, sequences);
    campaigns.push({
      id,
      name: template.name,
      signals: template.signals.map((signal) => signal.name),
      created_at: iso(now - (140 - index * 12) * DAY),
      sequences,
    });
  }
  const campaignIds = campaigns.map((campaign) => campaign.id);
  const templateOf = (campaignId: number) => CAMPAIGNS[campaignIds.indexOf(campaignId)]!;

  // Accounts, each qualified into its own campaign and sometimes a second one.
  const accounts: AccountDraft[] = [];
  const accountCampaigns = new Map<number, number[]>();
  const names = new Set<string>();
  const domains = new Set<string>();
  for (let index = 0; index < (options.accounts ?? ACCOUNTS); index++) {
    const primary = campaignIds[index % campaignIds.length]!;
    const template = templateOf(primary);
    let name: string;
    let domain: string;
    do {
      name = `${random.pick(COMPANY_PREFIXES)} ${random.pick(template.companySuffixes)}`;
      domain = `${slug(name).replace(/-/g, '')}.${random.pick(TLDS)}`;
    } while (names.has(name) || domains.has(domain));
    names.add(name);
    domains.add(domain);
    const qualified = [primary];
    if (random.chance(0.3)) qualified.push(random.pick(campaignIds.filter((id) => id !== primary)));
    const id = ids.account();
    accountCampaigns.set(id, qualified);
    accounts.push({
      id,
      name,
      domain,
      website: `https://www.${domain}`,
      'linkedin-url': `https://www.linkedin.com/company/${slug(name)}`,
      campaigns: qualified.map((campaignId, rank) => {
        const signals = templateOf(campaignId)
          .signals.filter((_, signalIndex) => signalIndex === 0 || random.chance(0.6))
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
      }),
    });
  }

  // Contacts, five an account, and their assignments.
  const contacts: ContactDraft[] = [];
  const assignments: DraftAssignment[] = [];
  for (const account of accounts) {
    const qualified = accountCampaigns.get(account.id)!;
    const firstNames = random.shuffle(FIRST_NAMES);
    for (let index = 0; index < CONTACTS_PER_ACCOUNT; index++) {
      const campaignId = random.pick(qualified);
      const template = templateOf(campaignId);
      const sequences = campaignSequences.get(campaignId)!;
      const emailSequences = sequences.filter((sequence) => sequence.channel === 'email');
      const linkedin = sequences.find((sequence) => sequence.channel === 'linkedin');
      const firstName = firstNames[index]!;
      const lastName = random.pick(LAST_NAMES);
      const linkedinOnly = linkedin !== undefined && random.chance(0.06);
      const contact: ContactDraft = {
        id: ids.contact(),
        email: linkedinOnly ? null : `${slug(firstName)}.${slug(lastName)}@${account.domain}`,
        first_name: firstName,
        last_name: lastName,
        full_name: `${firstName} ${lastName}`,
        title: random.pick(template.titles),
        linkedin_url: `https://www.linkedin.com/in/${slug(`${firstName}-${lastName}`)}-${random.int(1000, 9999)}`,
        company_name: account.name ?? null,
        company_domain: account.domain,
      };
      contacts.push(contact);
      const chosen: SequenceInput[] = [];
      if (!linkedinOnly) chosen.push(random.pick(emailSequences));
      if (linkedin && (linkedinOnly || random.chance(0.35))) chosen.push(linkedin);
      for (const sequence of chosen) {
        assignments.push({
          id: 0,
          campaignId,
          sequence,
          contact,
          story: random.weighted(STORIES),
          status: 'pending-approval',
          createdAt: 0,
          variables: {
            first_name: firstName,
            company_name: account.name ?? '',
            signal:
              account.campaigns?.find((q) => q.campaign_id === campaignId)?.signals?.[0]?.contextual ?? '',
          },
        });
      }
    }
  }

  // Every assignment's history: messages already in the past, and the recent
  // activity as provider events, laid out so that each story fits before now.
  const messages: DraftMessage[] = [];
  const events: DraftEvent[] = [];
  for (const assignment of assignments) {
    const { story } = assignment;
    const isEmail = assignment.sequence.channel === 'email';
    const steps = assignment.sequence.steps;
    const sender = random.pick(SENDERS);
    const values = assignment.variables;
    const stepGap = () => random.int(2, 4) * DAY + random.int(0, 8) * HOUR;
    const sends =
      story === 'pending-approval' || story === 'scheduled'
        ? 0
        : story === 'completed'
          ? steps.length
          : story === 'bounced'
            ? 1
            : random.int(1, story === 'in-progress' ? steps.length - 1 || 1 : steps.length);
    // How long the story takes, so that it starts early enough to end before now.
    const span = 2 * DAY + sends * 4.5 * DAY + 5 * DAY;
    let clock = now - span - random.int(0, 40) * DAY - random.int(0, 23) * HOUR;
    assignment.createdAt = clock;
    const tail: DraftEvent[] = [];
    const event = (at: number, build: (eventId: string) => EventInput, message?: DraftMessage) => {
      tail.push({ at, build, message });
    };

    if (story === 'pending-approval') continue;
    // Approval: usually long ago; for some scheduled ones it arrives as an event.
    clock += random.int(1, 30) * HOUR;
    const approvedAt = clock;
    clock += random.int(1, 12) * HOUR;
    const sequencedAt = clock;
    if (story === 'scheduled') {
      const sequenced = random.chance(0.6);
      if (random.chance(0.2)) {
        assignment.status = 'pending-approval';
        event(approvedAt, (id) => ({
          id,
          type: 'approved',
          assignment_id: assignment.id,
          at: iso(approvedAt),
        }));
        if (sequenced)
          event(sequencedAt, (id) => ({
            id,
            type: 'sequenced',
            assignment_id: assignment.id,
            at: iso(sequencedAt),
          }));
      } else {
        assignment.status = 'scheduled';
        assignment.approvedAt = approvedAt;
        if (sequenced) assignment.sequencedAt = sequencedAt;
      }
      events.push(...tail);
      continue;
    }
    assignment.approvedAt = approvedAt;
    assignment.sequencedAt = sequencedAt;

    // The sent steps; the last one is sometimes recent activity (an event).
    const sent: DraftMessage[] = [];
    const lastSendIsEvent = story === 'in-progress' && random.chance(0.15);
    for (let step = 0; step < sends; step++) {
      clock += step === 0 ? random.int(2, 24) * HOUR : stepGap();
      const variantIndex = random.int(0, steps[step]!.variants.length - 1);
      const variant = steps[step]!.variants[variantIndex]!;
      const opens = isEmail && random.chance(0.55) ? random.int(1, 4) : 0;
      const message: DraftMessage = {
        id: 0,
        assignment,
        type: 'sent',
        step_type: steps[step]!.type,
        step_index: step,
        variant_index: variantIndex,
        subject: isEmail && variant.subject ? fill(variant.subject, values) : null,
        body: fill(variant.body, values),
        open_count: opens,
        sender_email: isEmail ? sender : null,
        created_at: iso(clock),
      };
      sent.push(message);
      if (step === sends - 1 && lastSendIsEvent) {
        const at = clock;
        message.open_count = 0;
        event(
          at,
          (id) => ({
            id,
            type: 'message_sent',
            assignment_id: assignment.id,
            at: iso(at),
            message: {
              id: message.id,
              step_type: message.step_type,
              step_index: message.step_index,
              variant_index: message.variant_index,
              subject: message.subject,
              body: message.body,
              sender_email: message.sender_email,
            },
          }),
          message,
        );
      } else messages.push(message);
    }
    // An assignment whose only send is an event is still scheduled before it.
    assignment.status = lastSendIsEvent && sends === 1 ? 'scheduled' : 'in-progress';
    const lastSent = sent.at(-1)!;

    // Opens and clicks reported as events, between the last send and whatever follows.
    if (isEmail && random.chance(0.12)) {
      const at = clock + random.int(1, 6) * HOUR;
      event(at, (id) => ({
        id,
        type: 'opened',
        assignment_id: assignment.id,
        at: iso(at),
        message_id: lastSent.id,
      }));
      if (random.chance(0.75)) {
        const clickedAt = at + random.int(1, 30) * MINUTE;
        event(clickedAt, (id) => ({
          id,
          type: 'clicked',
          assignment_id: assignment.id,
          at: iso(clickedAt),
          message_id: lastSent.id,
        }));
      }
    }
    clock += 6 * HOUR + random.int(1, 36) * HOUR;
    const endedAt = clock;
    const viaEvent = random.chance(story === 'completed' ? 0.25 : 0.3);
    if (story === 'completed') {
      if (viaEvent)
        event(endedAt, (id) => ({ id, type: 'completed', assignment_id: assignment.id, at: iso(endedAt) }));
      else {
        assignment.status = 'completed';
        assignment.completedAt = endedAt;
      }
    } else if (story === 'bounced' || story === 'unsubscribed') {
      if (viaEvent)
        event(endedAt, (id) => ({ id, type: story, assignment_id: assignment.id, at: iso(endedAt) }));
      else {
        assignment.status = story;
        if (story === 'bounced') assignment.bouncedAt = endedAt;
        else assignment.unsubscribedAt = endedAt;
      }
    } else if (story === 'replied') {
      const [responseType, , body] = random.weighted(RESPONSES.map((entry) => [entry, entry[1]] as const));
      const reply: DraftMessage = {
        id: 0,
        assignment,
        type: 'received',
        step_type: isEmail ? 'reply' : 'linkedin_message',
        step_index: lastSent.step_index,
        variant_index: null,
        response_type: responseType,
        subject: lastSent.subject ? `Re: ${lastSent.subject.replace(/^Re: /, '')}` : null,
        body,
        open_count: 0,
        sender_email: isEmail ? (assignment.contact.email ?? null) : null,
        created_at: iso(endedAt),
      };
      if (viaEvent) {
        event(
          endedAt,
          (id) => ({
            id,
            type: 'reply_received',
            assignment_id: assignment.id,
            at: iso(endedAt),
            response_type: responseType,
            message: {
              id: reply.id,
              step_type: reply.step_type,
              step_index: reply.step_index,
              subject: reply.subject,
              body: reply.body,
              sender_email: reply.sender_email,
            },
          }),
          reply,
        );
      } else {
        assignment.status = 'replied';
        messages.push(reply);
        if (responseType === 'positive' && isEmail && random.chance(0.6)) {
          const answeredAt = endedAt + random.int(1, 5) * HOUR;
          messages.push({
            ...reply,
            id: 0,
            type: 'sent',
            response_type: null,
            body: `Great to hear, ${values.first_name}. Here is my calendar: https://cal.northpeak.io/${sender.split('@')[0]}`,
            sender_email: sender,
            created_at: iso(answeredAt),
          });
        }
      }
      if (isEmail && random.chance(0.05)) {
        const forwardedAt = endedAt + random.int(2, 48) * HOUR;
        const forward: DraftMessage = {
          ...reply,
          type: 'forward',
          response_type: null,
          subject: reply.subject ? `Fwd: ${reply.subject}` : null,
          body: 'Forwarding to our operations lead, who owns this.',
          created_at: iso(forwardedAt),
        };
        event(
          forwardedAt,
          (id) => ({
            id,
            type: 'forwarded',
            assignment_id: assignment.id,
            at: iso(forwardedAt),
            message: {
              id: forward.id,
              step_type: 'reply',
              step_index: forward.step_index,
              subject: forward.subject,
              body: forward.body,
              sender_email: forward.sender_email,
            },
          }),
          forward,
        );
      }
    }
    events.push(...tail.filter((draft) => draft.at <= now));
  }

  // A few contacts are blocked: some imported so, some reported by the provider.
  for (const contact of random.shuffle(contacts).slice(0, 8)) contact.blocked = true;
  for (const assignment of random
    .shuffle(assignments.filter((a) => a.story !== 'pending-approval'))
    .slice(0, 6)) {
    const at = now - random.int(1, 48) * HOUR;
    events.push({
      at,
      build: (id) => ({ id, type: 'contact_blocked', assignment_id: assignment.id, at: iso(at) }),
    });
  }

  // Ids in time order, as a live system would have handed them out; events are
  // built last, so the message ids they name are final.
  let nextAssignmentId = firstId('assignment');
  for (const assignment of [...assignments].sort((a, b) => a.createdAt - b.createdAt))
    assignment.id = nextAssignmentId++;
  const carried = events.flatMap((event) => (event.message ? [event.message] : []));
  let nextMessageId = firstId('message');
  for (const message of [...messages, ...carried].sort((a, b) => a.created_at.localeCompare(b.created_at)))
    message.id = nextMessageId++;
  events.sort((a, b) => a.at - b.at);
  const builtEvents = events.map((event, index) =>
    event.build(`demo-${(index + 1).toString().padStart(5, '0')}`),
  );

  const jobs = demoJobs(random, accounts, accountCampaigns, templateOf, now);
  const excludedAccounts = random.shuffle(accounts.filter((account) => !jobs.domains.has(account.domain)));
  const excludedContacts = random.shuffle(contacts.filter((contact) => contact.email));

  return {
    campaigns,
    accounts,
    contacts,
    assignments: assignments.map((assignment) => ({
      id: assignment.id,
      campaign_id: assignment.campaignId,
      sequence_id: assignment.sequence.id,
      contact_id: assignment.contact.id,
      status: assignment.status,
      created_at: iso(assignment.createdAt),
      approved_at: assignment.approvedAt === undefined ? null : iso(assignment.approvedAt),
      sequenced_at: assignment.sequencedAt === undefined ? null : iso(assignment.sequencedAt),
      completed_at: assignment.completedAt === undefined ? null : iso(assignment.completedAt),
      bounced_at: assignment.bouncedAt === undefined ? null : iso(assignment.bouncedAt),
      unsubscribed_at: assignment.unsubscribedAt === undefined ? null : iso(assignment.unsubscribedAt),
      variables: assignment.variables,
    })),
    messages: messages.map(({ assignment, ...message }) => ({ ...message, assignment_id: assignment.id })),
    events: builtEvents,
    jobs: jobs.list,
    exclusions: [
      ...excludedAccounts.slice(0, 3).map((account) => ({ domain: account.domain })),
      { domain: 'https://www.northpeak.io/' },
      ...excludedContacts.slice(0, 3).map((contact) => ({ email: contact.email! })),
    ],
  };
}

/** Job openings for fifteen of the accounts' domains; some closed (not seen for two weeks). */
function demoJobs(
  random: Random,
  accounts: AccountDraft[],
  accountCampaigns: Map<number, number[]>,
  templateOf: (campaignId: number) => CampaignTemplate,
  now: number,
): { list: JobDraft[]; domains: Set<string> } {
  const chosen = random.shuffle(accounts).slice(0, 15);
  const list: JobDraft[] = [];
  for (const account of chosen) {
    const template = templateOf(accountCampaigns.get(account.id)![0]!);
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
