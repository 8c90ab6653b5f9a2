import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '#admin/commands.ts';
import { demoOrganizationId } from '#admin/seed.ts';
import { getAssignment } from '#domain/assignments.ts';
import { getCampaign, listCampaigns, toCampaignDetail } from '#domain/campaigns.ts';
import { getContactsByEmail } from '#domain/contacts.ts';
import { findExclusions } from '#domain/exclusions.ts';
import { searchJobs } from '#domain/jobs.ts';
import { listOAuthClients } from '#domain/oauth-clients.ts';
import { createOrganization, getOrganization } from '#domain/organizations.ts';
import type { LocalStack } from '../../infra/local/stack.ts';
import { PROJECT_ROOT } from '../../infra/paths.ts';
import { type AdminRun, admin as adminInProcess, runAdmin, runAdminIntoClosedPipe } from '../support/cli.ts';
import { smallDocument } from '../support/fixtures.ts';
import { importFor } from '../support/import.ts';
import { startTestStack } from '../support/local-stack.ts';

/**
 * `outreach-admin` against the running local stack, found through its
 * endpoints file, on this file's table. The commands run in this process
 * through the CLI's `main(argv)` (the binary's own argument parsing, target,
 * output and exit codes); the first test runs the binary itself, in its own
 * process, as an operator does. Outcomes are checked through the domain's
 * read functions.
 */

let stack: LocalStack | undefined;
const localDir = mkdtempSync(join(tmpdir(), 'outreach-admin-'));
const files = mkdtempSync(join(tmpdir(), 'outreach-admin-files-'));

beforeAll(async () => {
  stack = await startTestStack({ endpointsDir: localDir });
});
afterAll(() => stack?.stop());

function admin(...args: string[]): Promise<AdminRun> {
  return adminInProcess(localDir, args);
}

/** The binary, in a process of its own (slow: for the one smoke test of it here). */
function spawnedAdmin(...args: string[]): Promise<AdminRun> {
  return runAdmin(localDir, args);
}

function writeFile(name: string, content: unknown): string {
  const path = join(files, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('outreach-admin import', () => {
  it('imports a file, reports it as JSON, and leaves the same state when run again (the binary, spawned)', async () => {
    const { orgId } = await createOrganization('Import CLI');
    const file = writeFile('small.json', smallDocument());

    const first = await spawnedAdmin('import', '--org', String(orgId), file, '--json');
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(first.stdout)).toMatchObject({
      orgId,
      campaigns: 2,
      accounts: 3,
      contacts: 4,
      assignmentsCreated: 4,
      assignmentsExisting: 0,
      eventsApplied: 4,
      eventsDuplicate: 0,
      jobs: 1,
      exclusions: 1,
      records: 20,
    });
    const detail = toCampaignDetail(await getCampaign(orgId, 101));
    expect(detail).toMatchObject({
      stats: { sent: 1, opened: 1, clicked: 0, bounced: 0, unsubscribed: 0, blocked: 0 },
      contacts: { pending_approval: 1, scheduled: 1, in_progress: 0, completed: 0, replied: 1 },
    });

    const second = await spawnedAdmin('import', '--org', String(orgId), file, '--json');
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({
      assignmentsCreated: 0,
      assignmentsExisting: 4,
      messagesWritten: 0,
      eventsApplied: 0,
      eventsDuplicate: 4,
    });
    expect(toCampaignDetail(await getCampaign(orgId, 101))).toEqual(detail);
  });

  it('prints a one-line summary in text mode', async () => {
    const { orgId } = await createOrganization('Import CLI text');
    const file = writeFile('text.json', smallDocument());
    const run = await admin('import', '--org', String(orgId), file);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        `^Imported .*text\\.json into organization ${orgId} in [0-9.]+ s \\(20 records\\): 2 campaigns`,
      ),
    );
  });

  it('refuses a file with shape errors, listing each with its JSON path, and writes nothing', async () => {
    const { orgId } = await createOrganization('Broken shape');
    const document = smallDocument() as { [section: string]: Record<string, unknown>[] };
    (document.campaigns![0]!.sequences as Record<string, unknown>[])[1]!.provider = 'mailchimp';
    document.contacts![1]!.email = 'bob-at-globex';
    document.messages![0]!.created_at = '2026-04-05 10:00';
    const run = await admin('import', '--org', String(orgId), writeFile('shape.json', document));

    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trim().split('\n');
    expect(lines.map((line) => line.split(': ')[0])).toEqual([
      '$.campaigns[0].sequences[1].provider',
      '$.contacts[1].email',
      '$.messages[0].created_at',
      '3 errors; nothing was imported.',
    ]);
    expect(await listCampaigns(orgId)).toEqual([]);
    expect((await getContactsByEmail(orgId, ['ann@acme.com'])).size).toBe(0);
  });

  it('refuses a file with broken references and an impossible event, as JSON with --json', async () => {
    const { orgId } = await createOrganization('Broken references');
    const document = smallDocument() as { [section: string]: Record<string, unknown>[] };
    document.assignments![1]!.contact_id = 999;
    document.events!.push({ id: 'evt-9', assignment_id: 503, type: 'completed' });
    const run = await admin(
      'import',
      '--org',
      String(orgId),
      writeFile('references.json', document),
      '--json',
    );

    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      errors: [
        { path: '$.assignments[1].contact_id', message: 'contact 999 is not in the document' },
        {
          path: '$.events[4].type',
          message: 'completed is not possible for assignment 503, which is bounced at that point',
        },
      ],
    });
    expect(await listCampaigns(orgId)).toEqual([]);
  });

  it('reports a file that is not JSON, and an unknown organization, with exit 1', async () => {
    const { orgId } = await createOrganization('Not JSON');
    const notJson = await admin('import', '--org', String(orgId), writeFile('bad.json', '{"campaigns": ['));
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toMatch(/^\$: not valid JSON/);

    const unknown = await admin('import', '--org', '999999', writeFile('ok.json', smallDocument()));
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('Organization 999999 not found');
  });

  it('exits 2 when FILE is missing', async () => {
    const run = await admin('import', '--org', '1');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('FILE is required');
    expect(run.stderr).toContain('Usage: outreach-admin import --org ID FILE');
  });
});

describe('outreach-admin events record', () => {
  it('records a JSONL file line by line: applied, duplicate and rejected lines', async () => {
    const { orgId } = await createOrganization('Events CLI');
    await importFor(orgId, smallDocument());
    const approved = { id: 'cli-1', assignment_id: 502, type: 'approved', at: '2026-04-09T08:00:00+02:00' };
    const file = writeFile(
      'events.jsonl',
      [
        JSON.stringify(approved),
        JSON.stringify(approved),
        JSON.stringify({ id: 'cli-2', assignment_id: 502, type: 'completed' }),
        '',
        'not json',
        JSON.stringify({ id: 'cli-3', assignment_id: 999_999, type: 'approved' }),
        JSON.stringify({ id: 'cli-4', assignment_id: 502, type: 'delivered' }),
      ].join('\n'),
    );

    const run = await admin('events', 'record', '--org', String(orgId), file, '--json');
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as {
      rejected: { line: number; eventId?: string; message: string }[];
    };
    expect(report).toMatchObject({ orgId, lines: 6, applied: 1, duplicate: 1 });
    expect(report.rejected.map(({ line, eventId }) => ({ line, eventId }))).toEqual([
      { line: 3, eventId: 'cli-2' },
      { line: 5, eventId: undefined },
      { line: 6, eventId: 'cli-3' },
      { line: 7, eventId: 'cli-4' },
    ]);
    expect(report.rejected[0]!.message).toMatch(/completed/);
    expect(report.rejected[1]!.message).toMatch(/^not valid JSON/);
    expect(report.rejected[2]!.message).toMatch(/not found/);
    expect(report.rejected[3]!.message).toMatch(/^\$\.type: /);
    const assignment = await getAssignment(orgId, 502);
    expect(assignment).toMatchObject({ status: 'scheduled', approvedAt: '2026-04-09T06:00:00.000Z' });

    const again = await admin('events', 'record', '--org', String(orgId), file);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr.split('\n')[0]).toBe('6 events: 0 applied, 2 already recorded, 4 rejected');
    expect(again.stderr).toContain('line 3 (cli-2): ');
  });

  it('exits 0 when every line is recorded', async () => {
    const { orgId } = await createOrganization('Events clean');
    await importFor(orgId, smallDocument());
    const file = writeFile(
      'clean.jsonl',
      `${JSON.stringify({ id: 'ok-1', assignment_id: 504, type: 'sequenced' })}\n`,
    );
    const run = await admin('events', 'record', '--org', String(orgId), file);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout.trim()).toBe('1 event: 1 applied, 0 already recorded, 0 rejected');
  });
});

describe('outreach-admin jobs import', () => {
  it('imports jobs from CSV and JSON files, normalizing domains, and refuses a broken file', async () => {
    const { orgId } = await createOrganization('Jobs CLI');
    const folder = mkdtempSync(join(tmpdir(), 'jobs-cli-'));
    const csv = join(folder, 'jobs.csv');
    writeFileSync(
      csv,
      'id,domain,title,url,first_seen_at,last_seen_at,status,location,description\n' +
        'c1,https://WWW.Acme.com,CFO,https://acme.com/1,2026-01-01T00:00:00Z,2026-01-02T00:00:00Z,open,Remote,"Finance, lead"\n' +
        'c2,acme.com,CTO,https://acme.com/2,2026-01-03T00:00:00Z,2026-01-04T00:00:00Z,closed,Berlin,Tech\n',
    );
    const fromCsv = await admin('jobs', 'import', '--org', String(orgId), '--file', csv, '--json');
    expect(fromCsv.code).toBe(0);
    expect(JSON.parse(fromCsv.stdout)).toEqual({ orgId, jobs: 2, domains: 1 });
    const page = await searchJobs(orgId, 'acme.com', { take: 10 });
    expect(page.jobs.map((job) => [job.id, job.status, job.description])).toEqual([
      ['c2', 'closed', 'Tech'],
      ['c1', 'open', 'Finance, lead'],
    ]);

    const json = join(folder, 'jobs.json');
    writeFileSync(
      json,
      JSON.stringify({
        jobs: [
          {
            id: 'j1',
            domain: 'globex.io',
            title: 'COO',
            url: 'https://globex.io/1',
            first_seen_at: '2026-02-01T00:00:00Z',
            last_seen_at: '2026-02-01T00:00:00Z',
          },
        ],
      }),
    );
    expect((await admin('jobs', 'import', '--org', String(orgId), '--file', json)).code).toBe(0);
    expect((await searchJobs(orgId, 'globex.io', { take: 10 })).jobs).toHaveLength(1);

    const broken = join(folder, 'broken.csv');
    writeFileSync(
      broken,
      'id,domain,title,url,first_seen_at,last_seen_at\nb1,nodomain,X,https://x/1,soon,2026-01-01T00:00:00Z\n',
    );
    const refused = await admin('jobs', 'import', '--org', String(orgId), '--file', broken);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('row 2, first_seen_at');
  });
});

describe('outreach-admin exclusions add', () => {
  it('adds a normalized domain and a normalized email to the exclusion list', async () => {
    const { orgId } = await createOrganization('Exclusions CLI');
    const domain = await admin(
      'exclusions',
      'add',
      '--org',
      String(orgId),
      '--domain',
      'HTTPS://WWW.Initech.com/about',
      '--json',
    );
    expect(domain.code).toBe(0);
    expect(JSON.parse(domain.stdout)).toEqual({ orgId, kind: 'domain', value: 'initech.com' });
    const email = await admin('exclusions', 'add', '--org', String(orgId), '--email', 'Ann@Acme.COM');
    expect(email).toMatchObject({
      code: 0,
      stdout: `Excluded email ann@acme.com for organization ${orgId}\n`,
    });

    const excluded = await findExclusions(orgId, { emails: ['ann@acme.com'], domains: ['initech.com'] });
    expect([...excluded.emails, ...excluded.domains]).toEqual(['ann@acme.com', 'initech.com']);
  });

  it('exits 2 without exactly one usable --email or --domain, and 1 for an unknown organization', async () => {
    const { orgId } = await createOrganization('Exclusions usage');
    const org = String(orgId);
    for (const args of [
      ['--org', org],
      ['--org', org, '--email', 'a@b.com', '--domain', 'b.com'],
      ['--org', org, '--domain', 'localhost'],
      ['--org', org, '--email', 'not-an-email'],
    ]) {
      const run = await admin('exclusions', 'add', ...args);
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
      expect(run.stderr).toContain('Usage: outreach-admin exclusions add');
    }
    const unknown = await admin('exclusions', 'add', '--org', '999999', '--domain', 'b.com');
    expect(unknown).toMatchObject({ code: 1, stderr: 'Organization 999999 not found\n' });
    const excluded = await findExclusions(orgId, { emails: ['a@b.com'], domains: ['b.com'] });
    expect(excluded.domains.size + excluded.emails.size).toBe(0);
  });
});

describe('outreach-admin org set', () => {
  it("sets the organization's cooldown window", async () => {
    const { orgId } = await createOrganization('Cooldown CLI');
    const run = await admin('org', 'set', '--org', String(orgId), '--cooldown-days', '30', '--json');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ orgId, name: 'Cooldown CLI', cooldownDays: 30 });
    expect((await getOrganization(orgId)).cooldownDays).toBe(30);
  });

  it('exits 2 for a window outside 1..3650 whole days, and 1 for an unknown organization', async () => {
    const { orgId } = await createOrganization('Cooldown usage');
    for (const days of ['0', '3651', '1.5', 'ninety']) {
      const run = await admin('org', 'set', '--org', String(orgId), '--cooldown-days', days);
      expect({ days, code: run.code }).toEqual({ days, code: 2 });
    }
    expect((await getOrganization(orgId)).cooldownDays).toBe(90);
    const unknown = await admin('org', 'set', '--org', '999999', '--cooldown-days', '30');
    expect(unknown).toMatchObject({ code: 1, stderr: 'Organization 999999 not found\n' });
  });

  it('arranges a rate limit for the organization and takes it back to the default plan', async () => {
    const { orgId } = await createOrganization('Rate CLI');
    const raised = await admin('org', 'set', '--org', String(orgId), '--rate', '2000', '--burst', '4000');
    expect(raised).toMatchObject({
      code: 0,
      stdout: `Organization ${orgId}: cooldown window 90 days, rate limit 2000 requests/s, burst 4000\n`,
    });
    expect((await getOrganization(orgId)).rateLimit).toEqual({ rateLimit: 2000, burstLimit: 4000 });
    const back = await admin('org', 'set', '--org', String(orgId), '--default-rate-limit', '--json');
    expect(JSON.parse(back.stdout)).toMatchObject({ orgId, rateLimit: null });
    expect((await getOrganization(orgId)).rateLimit).toBeNull();
  });

  it.each([
    [['--rate', '10']],
    [['--rate', '0', '--burst', '10']],
    [['--rate', '10', '--burst', '5001']],
    [['--rate', 'fast', '--burst', '10']],
    [['--default-rate-limit', '--rate', '10', '--burst', '10']],
    [[]],
  ])('exits 2 for the rate-limit usage %j and writes nothing', async (flags) => {
    const { orgId } = await createOrganization('Rate usage');
    const run = await admin('org', 'set', '--org', String(orgId), ...flags);
    expect(run.code).toBe(2);
    expect((await getOrganization(orgId)).rateLimit).toBeNull();
  });
});

describe('outreach-admin oauth-client create', () => {
  it('registers https, loopback http and private-use redirect URIs', async () => {
    const { orgId } = await createOrganization('OAuth CLI');
    const uris = [
      'https://claude.ai/api/mcp/auth_callback',
      'http://127.0.0.1:8123/cb',
      'com.example.app:/cb',
    ];
    const run = await admin(
      'oauth-client',
      'create',
      '--org',
      String(orgId),
      '--name',
      'Assistant',
      ...uris.flatMap((uri) => ['--redirect-uri', uri]),
      '--json',
    );
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const { clientId } = JSON.parse(run.stdout) as { clientId: string };
    expect((await listOAuthClients(orgId)).map((client) => [client.clientId, client.redirectUris])).toEqual([
      [clientId, uris],
    ]);
  });

  it("arranges a client's /mcp rate, and exits 2 for one outside 1..1000", async () => {
    const { orgId } = await createOrganization('OAuth CLI rate');
    const run = await admin(
      'oauth-client',
      'create',
      '--org',
      String(orgId),
      '--name',
      'Busy',
      '--rate',
      '50',
    );
    expect(run.code).toBe(0);
    expect((await listOAuthClients(orgId)).map((client) => client.rateLimit)).toEqual([50]);
    for (const rate of ['0', '1001', 'fast']) {
      const refused = await admin(
        'oauth-client',
        'create',
        '--org',
        String(orgId),
        '--name',
        'X',
        '--rate',
        rate,
      );
      expect({ rate, code: refused.code }).toEqual({ rate, code: 2 });
    }
    expect(await listOAuthClients(orgId)).toHaveLength(1);
  });

  it.each([
    'javascript:alert(1)//',
    'data:text/html,hi',
    'file:///etc/passwd',
    'vbscript:msgbox(1)',
    'http://assistant.example/callback',
  ])('exits 2 for the redirect URI %s, saying why, and writes nothing', async (uri) => {
    const { orgId } = await createOrganization('OAuth CLI unsafe');
    const run = await admin(
      'oauth-client',
      'create',
      '--org',
      String(orgId),
      '--name',
      'Unsafe',
      '--redirect-uri',
      'https://fine.example/cb',
      '--redirect-uri',
      uri,
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--redirect-uri ${JSON.stringify(uri)}`);
    expect(await listOAuthClients(orgId)).toEqual([]);
  });
});

describe('outreach-admin --version (the binary, spawned) and group help', () => {
  // The dispatcher's conventions are unit tests (test/unit/admin-cli.test.ts); these check the binary keeps them.
  it('prints the version and a group’s commands on stdout with exit 0', async () => {
    const { version } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(await spawnedAdmin('--version')).toEqual({
      code: 0,
      stdout: `outreach-admin ${version}\n`,
      stderr: '',
    });
    // The rest in this process: the binary's one spawn above is the slow part.
    const group = await admin('webhook', '--help');
    expect(group).toMatchObject({ code: 0, stderr: '' });
    expect(group.stdout).toMatch(/^ {2}webhook deliveries +List a subscription’s recent deliveries\.$/m);
  });
});

describe('outreach-admin list commands', () => {
  it('print a header row above tab-separated rows, and --json as before', async () => {
    const { orgId } = await createOrganization('Client table');
    expect((await admin('oauth-client', 'create', '--org', String(orgId), '--name', 'Desk')).code).toBe(0);
    const [header, row, end] = (await admin('oauth-client', 'list', '--org', String(orgId))).stdout.split(
      '\n',
    );
    expect(header).toBe('CLIENT\tNAME\tCREATED\tRATE (REQUESTS/S)\tREVOKED');
    expect(row).toMatch(/^mcp_\S+\tDesk\t\S+\t\d+\t-$/);
    expect(end).toBe('');
    const { clients } = JSON.parse(
      (await admin('oauth-client', 'list', '--org', String(orgId), '--json')).stdout,
    );
    expect(clients).toEqual([expect.objectContaining({ name: 'Desk', revokedAt: null })]);
  });
});

describe('a reader that closes the pipe (`outreach-admin … | true`)', () => {
  // Each run is the binary in a process of its own: EPIPE is a matter of the process's own streams.
  it('ends the CLI quietly with the exit code of the command: 0 for a result or help nobody read', async () => {
    const { orgId } = await createOrganization('Closed Pipe');
    for (const args of [['webhook', 'list', '--org', String(orgId), '--json'], ['--help']]) {
      const run = await runAdminIntoClosedPipe(localDir, args, 'stdout');
      expect({ args, ...run }).toEqual({ args, code: 0, signal: null, other: '' });
    }
  });

  it('keeps the exit code of an error whose report on stderr nobody read', async () => {
    const run = await runAdminIntoClosedPipe(localDir, ['frobnicate'], 'stderr');
    expect(run).toEqual({ code: 2, signal: null, other: '' });
  });
});

describe('outreach-admin --json errors', () => {
  it('answers a usage error, an unknown organization and a missing stack with one JSON object on stderr', async () => {
    const badFlag = await admin('key', 'list', '--org', '1', '--bogus', '--json');
    expect(badFlag).toMatchObject({ code: 2, stdout: '' });
    expect(JSON.parse(badFlag.stderr)).toEqual({
      error: { kind: 'usage', message: expect.stringContaining("Unknown option '--bogus'") },
    });

    const missingFlag = await admin('key', 'list', '--json');
    expect(missingFlag).toMatchObject({ code: 2, stdout: '' });
    expect(JSON.parse(missingFlag.stderr)).toEqual({
      error: { kind: 'usage', message: '--org is required' },
    });

    const unknownOrg = await admin('key', 'list', '--org', '999999', '--json');
    expect(unknownOrg).toMatchObject({ code: 1, stdout: '' });
    expect(JSON.parse(unknownOrg.stderr)).toEqual({
      error: { kind: 'not-found', message: 'Organization 999999 not found' },
    });

    const noStack = await adminInProcess(mkdtempSync(join(tmpdir(), 'outreach-no-stack-')), [
      'key',
      'list',
      '--org',
      '1',
      '--json',
    ]);
    expect(noStack).toMatchObject({ code: 1, stdout: '' });
    expect(JSON.parse(noStack.stderr)).toEqual({
      error: { kind: 'target', message: expect.stringContaining('npm start') },
    });
  });

  it('keeps errors plain text without --json', async () => {
    const unknownOrg = await admin('key', 'list', '--org', '999999');
    expect(unknownOrg).toEqual({ code: 1, stdout: '', stderr: 'Organization 999999 not found\n' });
  });
});

describe('an unknown organization', () => {
  it('is OrganizationNotFound (exit 1) in every command that takes --org', async () => {
    const importFile = writeFile('unknown-org.json', smallDocument());
    const eventsFile = writeFile(
      'unknown-org.jsonl',
      `${JSON.stringify({ id: 'e1', assignment_id: 1, type: 'approved' })}\n`,
    );
    const jobsFile = writeFile('unknown-org-jobs.json', {
      jobs: [
        {
          id: 'j1',
          domain: 'globex.io',
          title: 'COO',
          url: 'https://globex.io/1',
          first_seen_at: '2026-02-01T00:00:00Z',
          last_seen_at: '2026-02-01T00:00:00Z',
        },
      ],
    });
    // Each command's other flags, valid, so that only the organization is wrong.
    const otherFlags: Record<string, string[]> = {
      'org set': ['--cooldown-days', '30'],
      'key create': [],
      'key list': [],
      'key revoke': ['--key', '1'],
      'member list': [],
      'member remove': ['--email', 'ann@acme.com'],
      import: [importFile],
      'events record': [eventsFile],
      'exclusions add': ['--domain', 'acme.com'],
      'jobs import': ['--file', jobsFile],
      'oauth-client create': ['--name', 'Assistant'],
      'oauth-client list': [],
      'oauth-client revoke': ['--client', 'mcp_unknown'],
      'webhook create': ['--url', 'https://hooks.example/in', '--events', 'first_touch'],
      'webhook list': [],
      'webhook get': ['--webhook', '1'],
      'webhook update': ['--webhook', '1', '--disable'],
      'webhook delete': ['--webhook', '1'],
      'webhook test': ['--webhook', '1'],
      'webhook rotate-secret': ['--webhook', '1'],
      'webhook deliveries': ['--webhook', '1'],
      'webhook redeliver': ['--webhook', '1', '--delivery', '1'],
      'provider connect': ['--provider', 'smartlead', '--api-key', 'sl-key'],
      'provider list': [],
      'provider get': ['--connection', '1'],
      'provider disconnect': ['--connection', '1'],
      'provider rotate-webhook-url': ['--connection', '1'],
      'provider check': ['--connection', '1'],
      'provider unmatched': ['--connection', '1'],
      'provider campaigns': ['--connection', '1'],
      'sequence link': ['--sequence', '1', '--connection', '1', '--external-id', 'ext-1'],
      'sequence unlink': ['--sequence', '1'],
      'assignments approve': ['--campaign', '1', '--all'],
      'provider failures': [],
    };
    // `member add` needs an identity provider, which this file's stack runs without; its use case
    // checks the organization before it reaches the provider.
    const taking = Object.entries(commands)
      .filter(([name, command]) => 'org' in command.flags && name !== 'member add')
      .map(([name]) => name);
    expect(Object.keys(otherFlags).sort()).toEqual(taking.sort());

    for (const [name, flags] of Object.entries(otherFlags)) {
      const run = await admin(...name.split(' '), '--org', '999999', ...flags);
      expect({ name, ...run }).toEqual({
        name,
        code: 1,
        stdout: '',
        stderr: 'Organization 999999 not found\n',
      });
    }
  });
});

describe('outreach-admin seed demo', () => {
  it('creates a demo organization whose API key works over HTTP', async () => {
    const run = await admin('seed', 'demo', '--json');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const seeded = JSON.parse(run.stdout) as {
      orgId: number;
      apiKey: string;
      records: number;
      report: { contacts: number; accounts: number };
    };
    // The e2e tier seeds a small demo (OUTREACH_DEMO_ACCOUNTS, five contacts each); the full size is
    // checked in test/integration/demo-seed.test.ts.
    const accounts = Number(process.env.OUTREACH_DEMO_ACCOUNTS);
    expect(seeded.report.accounts).toBe(accounts);
    expect(seeded.report.contacts).toBe(accounts * 5);
    expect(await demoOrganizationId()).toBe(seeded.orgId);
    const response = await fetch(`${stack!.apiUrl}/public/v1/auth`, {
      headers: { 'x-api-key': seeded.apiKey },
    });
    expect(await response.json()).toEqual({ signed_in: true });
    expect((await listCampaigns(seeded.orgId)).length).toBeGreaterThanOrEqual(3);
  }, 180_000);
});
