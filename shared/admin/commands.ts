import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { DEFAULT_MCP_CLIENT_RATE, MAX_MCP_CLIENT_RATE } from '#definitions/mcp-limits.ts';
import {
  DEFAULT_ORGANIZATION_THROTTLE,
  MAX_ORGANIZATION_THROTTLE,
  type Throttle,
} from '#definitions/rate-limits.ts';
import { createApiKey, listApiKeys, revokeApiKey } from '#domain/api-keys.ts';
import { normalizeEmail } from '#domain/contacts.ts';
import { DomainError } from '#domain/errors.ts';
import { addExclusion } from '#domain/exclusions.ts';
import { upsertJobs } from '#domain/jobs.ts';
import { createOAuthClient, listOAuthClients, revokeOAuthClient } from '#domain/oauth-clients.ts';
import { redirectUriProblem } from '#domain/oauth-redirect-uris.ts';
import {
  createOrganization,
  getOrganization,
  MAX_COOLDOWN_DAYS,
  MIN_COOLDOWN_DAYS,
  type Organization,
  setCooldownDays,
} from '#domain/organizations.ts';
import { recordProviderEvent } from '#domain/provider-events.ts';
import { listDeliveries, redeliver, sendTestEvent } from '#domain/webhook-deliveries.ts';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  rotateWebhookSecret,
  toWebhookSubscription,
  updateWebhook,
} from '#domain/webhooks.ts';
import { redriveDeadLetters } from '#platform/dead-letters.ts';
import { normalizeDomain } from '#schemas/domain-names.ts';
import { type ProviderEvent, providerEvent } from '#schemas/import.ts';
import {
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  type WebhookEventType,
  type WebhookSubscription,
} from '#schemas/webhooks.ts';
import {
  applyImport,
  type ImportError,
  type ImportReport,
  jsonPath,
  type ProgressListener,
  validateImport,
} from './import.ts';
import { parseJobFile } from './jobs-file.ts';
import { arrangeRateLimit, provisionOrganizationRateLimit } from './rate-limits.ts';
import { seedDemo } from './seed.ts';

/**
 * The operator commands. Each takes parsed flags and positionals and returns a
 * JSON-able result plus its human rendering; `cli.ts` does the parsing and
 * printing. A result with a non-zero exit code is a failure the command
 * reports itself (an invalid import, rejected events): it is printed like any
 * result, its text on stderr.
 */

export type Flags = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface CommandResult {
  json: unknown;
  text: string;
  /** 0 when absent. */
  exitCode?: number;
}

export interface Command {
  usage: string;
  /** Flags the command takes, with whether each may repeat. */
  flags: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;
  run(flags: Flags, positionals: string[]): Promise<CommandResult>;
}

/** Thrown for a command line that does not fit the usage; the CLI exits 2. */
export class UsageError extends Error {}

/** A flag that must be a whole number within bounds. */
function wholeNumberFlag(name: string, raw: string, min: number, max: number): number {
  const value = /^[0-9]{1,6}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max))
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
  return value;
}

/** `--rate N --burst M` (both), `--default-rate-limit`, or nothing (undefined). */
function rateLimitFlags(flags: Flags): Throttle | null | undefined {
  const rate = optionalString(flags, 'rate');
  const burst = optionalString(flags, 'burst');
  if (flags['default-rate-limit'] === true) {
    if (rate !== undefined || burst !== undefined) {
      throw new UsageError('--default-rate-limit cannot be combined with --rate or --burst');
    }
    return null;
  }
  if (rate === undefined && burst === undefined) return undefined;
  if (rate === undefined || burst === undefined) throw new UsageError('--rate and --burst go together');
  return {
    rateLimit: wholeNumberFlag('rate', rate, 1, MAX_ORGANIZATION_THROTTLE.rateLimit),
    burstLimit: wholeNumberFlag('burst', burst, 1, MAX_ORGANIZATION_THROTTLE.burstLimit),
  };
}

function optionalString(flags: Flags, name: string): string | undefined {
  const value = flags[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} needs a value`);
  return value;
}

function requiredString(flags: Flags, name: string): string {
  const value = flags[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function requiredId(flags: Flags, name: string): number {
  const value = Number(requiredString(flags, name));
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new UsageError(`--${name} must be a positive integer`);
  return value;
}

/** The positionals a command expects, exactly. */
function expectPositionals(positionals: string[], names: string[]): string[] {
  if (positionals.length < names.length) throw new UsageError(`${names[positionals.length]} is required`);
  if (positionals.length > names.length)
    throw new UsageError(`Unexpected argument: ${positionals[names.length]}`);
  return positionals;
}

const count = (value: number) => value.toLocaleString('en-US');
const plural = (value: number, noun: string) => `${count(value)} ${noun}${value === 1 ? '' : 's'}`;

/**
 * Progress on stderr, drawn in place, only when stderr is a terminal, so
 * piped output and `--json` stay clean. Redraws at most ten times a second.
 */
export function progressReporter(stream: NodeJS.WriteStream = process.stderr): {
  update: ProgressListener;
  done(): void;
} {
  if (!stream.isTTY) return { update: () => undefined, done: () => undefined };
  let drawnAt = 0;
  let drawnPhase = '';
  return {
    update(phase, done, total) {
      const now = Date.now();
      if (phase === drawnPhase && done < total && now - drawnAt < 100) return;
      drawnAt = now;
      drawnPhase = phase;
      const percent = total > 0 ? Math.floor((done / total) * 100) : 100;
      stream.write(`\r\x1b[2K${phase}: ${count(done)} of ${count(total)} (${percent}%)`);
    },
    done() {
      if (drawnPhase) stream.write('\r\x1b[2K');
    },
  };
}

async function withProgress<T>(work: (update: ProgressListener) => Promise<T>): Promise<T> {
  const progress = progressReporter();
  try {
    return await work(progress.update);
  } finally {
    progress.done();
  }
}

function describeReport(report: ImportReport): string {
  return [
    plural(report.campaigns, 'campaign'),
    plural(report.accounts, 'account'),
    plural(report.contacts, 'contact'),
    `${plural(report.assignmentsCreated, 'assignment')} created (${count(report.assignmentsExisting)} already there)`,
    `${plural(report.messagesWritten, 'message')} written`,
    `${plural(report.eventsApplied, 'event')} applied (${count(report.eventsDuplicate)} already recorded)`,
    plural(report.jobs, 'job'),
    plural(report.exclusions, 'exclusion'),
  ].join(', ');
}

const seconds = (startedAt: number) => Math.round(performance.now() - startedAt) / 1000;

function invalidImport(errors: ImportError[]): CommandResult {
  return {
    json: { errors },
    text: [
      ...errors.map((error) => `${error.path}: ${error.message}`),
      `${plural(errors.length, 'error')}; nothing was imported.`,
    ].join('\n'),
    exitCode: 1,
  };
}

async function readJsonFile(
  file: string,
): Promise<{ ok: true; value: unknown } | { ok: false; error: string }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return { ok: false, error: `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: `not valid JSON (${(error as Error).message})` };
  }
}

/** One line of an events file that was not recorded, and why. */
export interface RejectedEvent {
  line: number;
  eventId?: string;
  message: string;
}

/** What `events record` did. */
export interface EventsReport {
  orgId: number;
  lines: number;
  applied: number;
  duplicate: number;
  rejected: RejectedEvent[];
}

const EVENT_CONCURRENCY = 16;

function parseEventLine(line: string): { event: ProviderEvent } | { error: string; eventId?: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (error) {
    return { error: `not valid JSON (${(error as Error).message})` };
  }
  const parsed = providerEvent.safeParse(raw);
  if (parsed.success) return { event: parsed.data };
  const eventId = (raw as { id?: unknown } | null)?.id;
  return {
    error: parsed.error.issues.map((issue) => `${jsonPath(issue.path)}: ${issue.message}`).join('; '),
    ...(typeof eventId === 'string' && { eventId }),
  };
}

/**
 * Records a JSONL stream of provider events, each line through the same
 * operation as live provider traffic. Lines are read as they come; the events
 * of one assignment are recorded in file order, different assignments in
 * parallel. A line that is not an event, or that the lifecycle refuses, is
 * rejected and the rest go on (re-running a fixed file is safe: recorded event
 * ids are duplicates). Anything else (the table unreachable) stops the run.
 */
export async function recordEventStream(
  orgId: number,
  lines: AsyncIterable<string>,
  onProgress: ProgressListener = () => undefined,
): Promise<EventsReport> {
  const report: EventsReport = { orgId, lines: 0, applied: 0, duplicate: 0, rejected: [] };
  const tails = new Map<number, Promise<void>>();
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  let done = 0;
  const record = async (event: ProviderEvent, line: number) => {
    if (failure) return;
    try {
      const { outcome } = await recordProviderEvent(orgId, event);
      if (outcome === 'applied') report.applied += 1;
      else report.duplicate += 1;
    } catch (error) {
      // A domain error is the event's fault (unknown assignment, impossible transition); the rest are ours.
      if (error instanceof DomainError) {
        report.rejected.push({ line, eventId: event.id, message: error.message });
      } else failure ??= { error };
    }
    onProgress('events', ++done, report.lines);
  };

  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (failure) break;
    if (line.trim() === '') continue;
    report.lines += 1;
    const parsed = parseEventLine(line);
    if (!('event' in parsed)) {
      report.rejected.push({
        line: lineNumber,
        ...(parsed.eventId !== undefined && { eventId: parsed.eventId }),
        message: parsed.error,
      });
      onProgress('events', ++done, report.lines);
      continue;
    }
    const { event } = parsed;
    const eventLine = lineNumber;
    const task = (tails.get(event.assignment_id) ?? Promise.resolve()).then(() => record(event, eventLine));
    tails.set(event.assignment_id, task);
    inFlight.add(task);
    void task.then(() => {
      inFlight.delete(task);
      if (tails.get(event.assignment_id) === task) tails.delete(event.assignment_id);
    });
    if (inFlight.size >= EVENT_CONCURRENCY) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  if (failure) throw failure.error;
  report.rejected.sort((a, b) => a.line - b.line);
  return report;
}

function webhookEvents(flags: Flags): WebhookEventType[] {
  const names = requiredString(flags, 'events')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) {
    throw new UsageError(`--events takes a comma-separated list of ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  }
  return WEBHOOK_EVENT_TYPES.filter((type) => names.includes(type));
}

function describeWebhook(webhook: WebhookSubscription): string {
  const state = webhook.enabled
    ? 'enabled'
    : `disabled${webhook.disabled_reason ? ` (${webhook.disabled_reason})` : ''}`;
  return `${webhook.id}\t${state}\t${webhook.events.join(',')}\t${webhook.url}`;
}

function describeDelivery(delivery: WebhookDelivery): string {
  const outcome = delivery.response_code ?? delivery.error ?? '-';
  return `${delivery.id}\t${delivery.status}\t${delivery.event_type}\t${plural(delivery.attempts, 'attempt')}\t${outcome}\t${delivery.latency_ms ?? '-'} ms\t${delivery.event_id}`;
}

const webhookFlags = { org: { type: 'string' }, webhook: { type: 'string' } } as const;

/** `webhook …`: the subscription endpoints' operations, for operators. */
const webhookCommands: Record<string, Command> = {
  'webhook create': {
    usage: 'webhook create --org ID --url URL --events new_opportunities,first_touch,positive_reply',
    flags: { org: { type: 'string' }, url: { type: 'string' }, events: { type: 'string' } },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const orgId = requiredId(flags, 'org');
      const input = { url: requiredString(flags, 'url'), events: webhookEvents(flags) };
      await getOrganization(orgId);
      const { record, secret } = await createWebhook(orgId, input);
      const webhook = toWebhookSubscription(record);
      return {
        json: { ...webhook, secret },
        text: `Created webhook ${describeWebhook(webhook)}\nSigning secret (shown once): ${secret}`,
      };
    },
  },
  'webhook list': {
    usage: 'webhook list --org ID',
    flags: { org: { type: 'string' } },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const webhooks = (await listWebhooks(requiredId(flags, 'org'))).map(toWebhookSubscription);
      return { json: { webhooks }, text: webhooks.map(describeWebhook).join('\n') || 'No webhooks' };
    },
  },
  'webhook get': {
    usage: 'webhook get --org ID --webhook ID',
    flags: webhookFlags,
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const webhook = toWebhookSubscription(
        await getWebhook(requiredId(flags, 'org'), requiredId(flags, 'webhook')),
      );
      return { json: webhook, text: describeWebhook(webhook) };
    },
  },
  'webhook update': {
    usage: 'webhook update --org ID --webhook ID [--url URL] [--events a,b] [--enable | --disable]',
    flags: {
      ...webhookFlags,
      url: { type: 'string' },
      events: { type: 'string' },
      enable: { type: 'boolean' },
      disable: { type: 'boolean' },
    },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      if (flags.enable && flags.disable) throw new UsageError('Give --enable or --disable, not both');
      const changes = {
        url: optionalString(flags, 'url'),
        events: flags.events === undefined ? undefined : webhookEvents(flags),
        enabled: flags.enable ? true : flags.disable ? false : undefined,
      };
      if (Object.values(changes).every((value) => value === undefined)) {
        throw new UsageError('Nothing to update: give --url, --events, --enable or --disable');
      }
      const webhook = toWebhookSubscription(
        await updateWebhook(requiredId(flags, 'org'), requiredId(flags, 'webhook'), changes),
      );
      return { json: webhook, text: `Updated webhook ${describeWebhook(webhook)}` };
    },
  },
  'webhook delete': {
    usage: 'webhook delete --org ID --webhook ID',
    flags: webhookFlags,
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const [orgId, webhookId] = [requiredId(flags, 'org'), requiredId(flags, 'webhook')];
      await deleteWebhook(orgId, webhookId);
      return { json: { orgId, webhookId, deleted: true }, text: `Deleted webhook ${webhookId}` };
    },
  },
  'webhook test': {
    usage: 'webhook test --org ID --webhook ID',
    flags: webhookFlags,
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const delivery = await sendTestEvent(requiredId(flags, 'org'), requiredId(flags, 'webhook'));
      return {
        json: delivery,
        text: `Queued test event ${delivery.event_id} as delivery ${delivery.id}; see \`webhook deliveries\``,
      };
    },
  },
  'webhook rotate-secret': {
    usage: 'webhook rotate-secret --org ID --webhook ID',
    flags: webhookFlags,
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const { record, secret } = await rotateWebhookSecret(
        requiredId(flags, 'org'),
        requiredId(flags, 'webhook'),
      );
      return {
        json: { ...toWebhookSubscription(record), secret },
        text: `New signing secret (shown once; the previous one also signs for 24 hours): ${secret}`,
      };
    },
  },
  'webhook deliveries': {
    usage: 'webhook deliveries --org ID --webhook ID [--take N] [--cursor DELIVERY_ID]',
    flags: { ...webhookFlags, take: { type: 'string' }, cursor: { type: 'string' } },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const take = flags.take === undefined ? 25 : requiredId(flags, 'take');
      if (take > 100) throw new UsageError('--take must be at most 100');
      const cursor = flags.cursor === undefined ? undefined : requiredId(flags, 'cursor');
      const page = await listDeliveries(requiredId(flags, 'org'), requiredId(flags, 'webhook'), {
        take,
        cursor,
      });
      const lines = page.data.map(describeDelivery);
      if (page.next !== null) lines.push(`More: --cursor ${page.next}`);
      return { json: page, text: lines.join('\n') || 'No deliveries' };
    },
  },
  'webhook redeliver': {
    usage: 'webhook redeliver --org ID --webhook ID --delivery DELIVERY_ID',
    flags: { ...webhookFlags, delivery: { type: 'string' } },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const delivery = await redeliver(
        requiredId(flags, 'org'),
        requiredId(flags, 'webhook'),
        requiredId(flags, 'delivery'),
      );
      return {
        json: delivery,
        text: `Queued delivery ${delivery.id} again (webhook-id ${delivery.event_id})`,
      };
    },
  },
  'webhook redrive': {
    usage: 'webhook redrive',
    flags: {},
    async run(_flags, positionals) {
      expectPositionals(positionals, []);
      const { moved } = await redriveDeadLetters('webhooks');
      return {
        json: { moved },
        text: `Moved ${plural(moved, 'dead letter')} back to the webhooks queue`,
      };
    },
  },
};

export const commands: Record<string, Command> = {
  'org create': {
    usage: 'org create --name NAME',
    flags: { name: { type: 'string' } },
    async run(flags) {
      const organization = await createOrganization(requiredString(flags, 'name'));
      await provisionOrganizationRateLimit(organization.orgId);
      const { apiKey } = await createApiKey(organization.orgId);
      return {
        json: { orgId: organization.orgId, apiKey },
        text: `Created organization ${organization.orgId}\nAPI key (shown once): ${apiKey}`,
      };
    },
  },
  'org set': {
    usage: 'org set --org ID [--cooldown-days N] [--rate N --burst M | --default-rate-limit]',
    flags: {
      org: { type: 'string' },
      'cooldown-days': { type: 'string' },
      rate: { type: 'string' },
      burst: { type: 'string' },
      'default-rate-limit': { type: 'boolean' },
    },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const orgId = requiredId(flags, 'org');
      const cooldown = optionalString(flags, 'cooldown-days');
      // Every flag is checked before anything is written.
      const days =
        cooldown === undefined
          ? undefined
          : wholeNumberFlag('cooldown-days', cooldown, MIN_COOLDOWN_DAYS, MAX_COOLDOWN_DAYS);
      const throttle = rateLimitFlags(flags);
      let organization: Organization | undefined;
      if (days !== undefined) organization = await setCooldownDays(orgId, days);
      if (throttle !== undefined) organization = await arrangeRateLimit(orgId, throttle);
      if (!organization) {
        throw new UsageError(
          'Nothing to set: give --cooldown-days N, --rate N --burst M or --default-rate-limit',
        );
      }
      const limit = organization.rateLimit ?? DEFAULT_ORGANIZATION_THROTTLE;
      return {
        json: organization,
        text: [
          `Organization ${organization.orgId}: cooldown window ${plural(organization.cooldownDays, 'day')}`,
          `rate limit ${limit.rateLimit} requests/s, burst ${limit.burstLimit}${organization.rateLimit ? '' : ' (default)'}`,
        ].join(', '),
      };
    },
  },
  'key create': {
    usage: 'key create --org ID',
    flags: { org: { type: 'string' } },
    async run(flags) {
      const created = await createApiKey(requiredId(flags, 'org'));
      return { json: created, text: `Created key ${created.keyId}\nAPI key (shown once): ${created.apiKey}` };
    },
  },
  'key list': {
    usage: 'key list --org ID',
    flags: { org: { type: 'string' } },
    async run(flags) {
      const keys = await listApiKeys(requiredId(flags, 'org'));
      const text = keys
        .map(
          (key) =>
            `${key.keyId}\tcreated ${key.createdAt}\tlast used ${key.lastUsedAt ?? 'never'}${key.revokedAt ? `\trevoked ${key.revokedAt}` : ''}`,
        )
        .join('\n');
      return { json: { keys }, text: text || 'No keys' };
    },
  },
  'key revoke': {
    usage: 'key revoke --org ID --key KEY_ID',
    flags: { org: { type: 'string' }, key: { type: 'string' } },
    async run(flags) {
      const revoked = await revokeApiKey(requiredId(flags, 'org'), requiredId(flags, 'key'));
      return { json: revoked, text: `Revoked key ${revoked.keyId} at ${revoked.revokedAt}` };
    },
  },
  import: {
    usage: 'import --org ID FILE [--emit-events]',
    flags: { org: { type: 'string' }, 'emit-events': { type: 'boolean' } },
    async run(flags, positionals) {
      const orgId = requiredId(flags, 'org');
      const [file] = expectPositionals(positionals, ['FILE']);
      const read = await readJsonFile(file!);
      if (!read.ok) return invalidImport([{ path: '$', message: read.error }]);
      const validation = validateImport(read.value);
      if (!validation.ok) return invalidImport(validation.errors);
      await getOrganization(orgId);
      const startedAt = performance.now();
      // Webhook events only when asked: loading history should not flood subscribers.
      const emitEvents = flags['emit-events'] === true;
      const report = await withProgress((update) =>
        applyImport(orgId, validation.document, update, { emitEvents }),
      );
      const took = seconds(startedAt);
      const records = Object.values(validation.document).reduce(
        (total, section) => total + section.length,
        0,
      );
      return {
        json: { orgId, ...report, records, seconds: took },
        text: `Imported ${file} into organization ${orgId} in ${took} s (${plural(records, 'record')}): ${describeReport(report)}`,
      };
    },
  },
  'events record': {
    usage: 'events record --org ID FILE.jsonl (- reads stdin)',
    flags: { org: { type: 'string' } },
    async run(flags, positionals) {
      const orgId = requiredId(flags, 'org');
      const [file] = expectPositionals(positionals, ['FILE']);
      await getOrganization(orgId);
      const input = file === '-' ? process.stdin : createReadStream(file!, 'utf8');
      const opened = new Promise<void>((resolve, reject) => {
        if (input === process.stdin) resolve();
        input.once('ready', () => resolve());
        input.once('error', reject);
      });
      try {
        await opened;
      } catch (error) {
        return {
          json: { error: `cannot read ${file}` },
          text: `Cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
          exitCode: 1,
        };
      }
      const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
      const report = await withProgress((update) => recordEventStream(orgId, lines, update));
      const summary = `${plural(report.lines, 'event')}: ${count(report.applied)} applied, ${count(report.duplicate)} already recorded, ${count(report.rejected.length)} rejected`;
      return {
        json: report,
        text: [
          summary,
          ...report.rejected.map(
            (rejected) =>
              `line ${rejected.line}${rejected.eventId ? ` (${rejected.eventId})` : ''}: ${rejected.message}`,
          ),
        ].join('\n'),
        exitCode: report.rejected.length > 0 ? 1 : 0,
      };
    },
  },
  'exclusions add': {
    usage: 'exclusions add --org ID (--email EMAIL | --domain DOMAIN)',
    flags: { org: { type: 'string' }, email: { type: 'string' }, domain: { type: 'string' } },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const orgId = requiredId(flags, 'org');
      const email = optionalString(flags, 'email');
      const domain = optionalString(flags, 'domain');
      if ((email === undefined) === (domain === undefined))
        throw new UsageError('Give exactly one of --email or --domain');
      let kind: 'email' | 'domain';
      let value: string;
      if (email !== undefined) {
        if (!z.email().safeParse(email.trim()).success)
          throw new UsageError(`--email ${JSON.stringify(email)} is not an email address`);
        kind = 'email';
        value = normalizeEmail(email);
      } else {
        const normalized = normalizeDomain(domain!);
        if (!normalized) throw new UsageError(`--domain ${JSON.stringify(domain)} has no usable domain`);
        kind = 'domain';
        value = normalized;
      }
      await getOrganization(orgId);
      await addExclusion(orgId, kind, value);
      return { json: { orgId, kind, value }, text: `Excluded ${kind} ${value} for organization ${orgId}` };
    },
  },
  'jobs import': {
    usage: 'jobs import --org ID --file FILE (.json or .csv)',
    flags: { org: { type: 'string' }, file: { type: 'string' } },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const orgId = requiredId(flags, 'org');
      const file = requiredString(flags, 'file');
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        return {
          json: { error: `cannot read ${file}` },
          text: `Cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
          exitCode: 1,
        };
      }
      const parsed = parseJobFile(text, file.toLowerCase().endsWith('.csv') ? 'csv' : 'json');
      if (!parsed.ok) return invalidImport(parsed.errors);
      await getOrganization(orgId);
      await upsertJobs(orgId, parsed.jobs);
      const domains = new Set(parsed.jobs.map((job) => job.domain)).size;
      return {
        json: { orgId, jobs: parsed.jobs.length, domains },
        text: `Imported ${plural(parsed.jobs.length, 'job')} for ${plural(domains, 'domain')} into organization ${orgId}`,
      };
    },
  },
  'oauth-client create': {
    usage: 'oauth-client create --org ID --name NAME [--redirect-uri URI]... [--rate N]',
    flags: {
      org: { type: 'string' },
      name: { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
      rate: { type: 'string' },
    },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const orgId = requiredId(flags, 'org');
      const name = requiredString(flags, 'name');
      const redirectUris = (flags['redirect-uri'] as string[] | undefined) ?? [];
      // Every URI is checked before anything is written (createOAuthClient checks them again).
      for (const uri of redirectUris) {
        const problem = redirectUriProblem(uri);
        if (problem) throw new UsageError(`--redirect-uri ${JSON.stringify(uri)} ${problem}`);
      }
      const rate = optionalString(flags, 'rate');
      const created = await createOAuthClient(orgId, name, redirectUris, {
        rateLimit: rate === undefined ? undefined : wholeNumberFlag('rate', rate, 1, MAX_MCP_CLIENT_RATE),
      });
      return {
        json: created,
        text: `Created OAuth client ${created.clientId}\nClient secret (shown once): ${created.clientSecret}`,
      };
    },
  },
  'oauth-client list': {
    usage: 'oauth-client list --org ID',
    flags: { org: { type: 'string' } },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const clients = await listOAuthClients(requiredId(flags, 'org'));
      const text = clients
        .map(
          (client) =>
            `${client.clientId}\t${client.name}\tcreated ${client.createdAt}\t${client.rateLimit ?? DEFAULT_MCP_CLIENT_RATE} requests/s${client.revokedAt ? `\trevoked ${client.revokedAt}` : ''}`,
        )
        .join('\n');
      return { json: { clients }, text: text || 'No OAuth clients' };
    },
  },
  'oauth-client revoke': {
    usage: 'oauth-client revoke --org ID --client CLIENT_ID',
    flags: { org: { type: 'string' }, client: { type: 'string' } },
    async run(flags, positionals) {
      expectPositionals(positionals, []);
      const revoked = await revokeOAuthClient(requiredId(flags, 'org'), requiredString(flags, 'client'));
      return { json: revoked, text: `Revoked OAuth client ${revoked.clientId} at ${revoked.revokedAt}` };
    },
  },
  'seed demo': {
    usage: 'seed demo',
    flags: {},
    async run(_flags, positionals) {
      expectPositionals(positionals, []);
      const startedAt = performance.now();
      const seeded = await withProgress((update) => seedDemo({ onProgress: update }));
      const took = seconds(startedAt);
      return {
        json: { ...seeded, seconds: took },
        text: [
          `Created demo organization ${seeded.orgId}`,
          `API key (shown once): ${seeded.apiKey}`,
          `Imported ${plural(seeded.records, 'record')} in ${took} s: ${describeReport(seeded.report)}`,
        ].join('\n'),
      };
    },
  },
  ...webhookCommands,
};
