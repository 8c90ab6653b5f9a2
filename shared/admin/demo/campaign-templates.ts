import type { SequenceInput } from '#schemas/import.ts';

/**
 * The four demo campaigns as templates: their signals, the companies and
 * titles they target, the job titles their accounts hire for, and their
 * provider sequences with the steps' copy.
 */

export interface SequenceTemplate {
  provider: SequenceInput['provider'];
  channel: SequenceInput['channel'];
  steps: SequenceInput['steps'];
}

export interface CampaignTemplate {
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

export const CAMPAIGNS: CampaignTemplate[] = [
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
