import type { Provider } from '#definitions/providers.ts';
import type { ProviderFacts } from '#providers/contract.ts';
import { EmulatorCore } from './core.ts';
import { heyreachSpec } from './heyreach/emulator.ts';
import { instantlySpec } from './instantly/emulator.ts';
import { lemlistSpec } from './lemlist/emulator.ts';
import { smartleadSpec } from './smartlead/emulator.ts';
import type { ProviderEmulatorSpec } from './spec.ts';

/**
 * Local emulators of the outreach providers' public HTTP APIs (Smartlead,
 * Instantly API v2, lemlist, HeyReach): they stand in for the real SaaS in
 * the local stack and the tests, as an SMTP sink stands in for SES. Each is
 * a real HTTP server on loopback that speaks the provider's documented
 * endpoints, authentication, batch limit and rate limit (the figures of
 * each provider's shared/providers/<provider>/facts.ts), and posts the provider's own native
 * webhook payloads to the URLs registered with it. Each provider file cites
 * the documentation it follows; .scratch/emulator-wire.md lists every endpoint.
 *
 * `urls[provider]` mirrors the real base path (`…/api/v1` for Smartlead,
 * `…/api/v2` for Instantly, `…/api` for lemlist, `…/api/public` for HeyReach),
 * so a client appends the same paths as against the real host.
 *
 * Control API, below `/_emulator/` on each emulator's port (not part of any
 * provider's API; no authentication; JSON in and out: a POST or a body of any
 * other type is refused with 415, a request from another `Origin` with 403,
 * so that a web page cannot drive it: control.ts, `controlRequestRefusal`):
 *
 * | request | answer |
 * | --- | --- |
 * | `POST /_emulator/workspaces {apiKey?, sameWorkspaceAs?}` | `{apiKey}` (random when absent): one workspace per API key; `sameWorkspaceAs` makes it a further key of that key's workspace |
 * | `POST /_emulator/campaigns {apiKey, name?, id?}` | `{id}` in the provider's format, as a string (creates the workspace if needed) |
 * | `POST /_emulator/campaigns/{id}/state {apiKey, status?, senderAccountIds?}` | sets the campaign's state in the provider's own word (HeyReach: `PAUSED`, `DRAFT`, `IN_PROGRESS`, …) and its sender accounts (HeyReach's `campaignAccountIds`); answers `{status, senderAccountIds}` |
 * | `POST /_emulator/blocklist {apiKey, email, list: 'unsubscribed' \| 'blocked'}` | puts an email on the workspace's unsubscribe or block list |
 * | `GET /_emulator/leads?apiKey=&campaignId=` | `{leads: [{leadId, campaignId, status, received, addedAt, …}]}`; `received` is the lead object exactly as the add request carried it |
 * | `GET /_emulator/requests?apiKey=` | `{requests: [{kind: 'api' \| 'webhook', method, path, status, at, error?}]}`, never an API key; status 0 = no answer |
 * | `DELETE /_emulator/requests?apiKey=` | clears the log (of that key, else all) |
 * | `GET /_emulator/replies?apiKey=` | `{replies: [{id, leadId, campaignId, at, thread, subject, text, html}]}` sent through the reply endpoint |
 * | `POST /_emulator/faults {apiKey, kind, count, retryAfterSeconds?}` | the next `count` API requests of the key answer 429 with Retry-After (`rate-limit`) or 500 (`server-error`); `drop-after-accept`: the next `count` add requests are carried out, then their socket is destroyed without an answer |
 * | `POST /_emulator/webhooks {apiKey, url, campaignId?, secretKey?}` | registers a webhook URL for the workspace (every event; Smartlead payloads echo `secretKey` as `secret_key`) |
 * | `POST /_emulator/leads/{leadId}/events {type, classification?, text?, campaignId?, apiKey?}` | plays the event now and answers `{delivered: [{url, status}]}`; 422 when the provider has no native webhook for it, 409 when nothing was sent to the lead yet |
 *
 * Playback: 'compressed' (default) plays each added lead's sequence on its
 * own clock (core.ts: sent at +stepMs, opened at +2·stepMs, a reply and its
 * classification at +3·stepMs for the `replyShare` of leads, else step 2 at
 * +3·stepMs and completion at +4·stepMs); 'manual' plays only what the
 * control API asks for. A lead that is paused or removed stops playing.
 */

export interface ProviderEmulators {
  urls: Record<Provider, string>;
  stop(): Promise<void>;
}

export interface ProviderEmulatorOptions {
  /** Default '127.0.0.1' (loopback only). */
  host?: string;
  /** 'compressed': enrolled leads play their sequence on their own, one step every `stepMs`; 'manual': only the control API plays events. */
  playback?: 'compressed' | 'manual';
  /** Default 5000. */
  stepMs?: number;
  /** Share of leads that reply, default 0.3, chosen deterministically from the lead (hash of email/url). */
  replyShare?: number;
  /** Share of replies classified positive (interested), default 0.5. */
  positiveShare?: number;
  /** Default 0 = a free port each. */
  ports?: Partial<Record<Provider, number>>;
  /** The rate limits' clock (epoch ms), default Date.now: a test holds it still so that a window's count, not the machine's speed, decides. */
  clock?: () => number;
  /**
   * Limits in place of the documented ones (each provider's facts.ts), by provider: a test stack's, whose
   * service paces to the same figures (LocalStackOptions.providerRateLimits). Absent, the documented ones.
   */
  rateLimits?: Partial<Record<Provider, ProviderFacts['rateLimit']>>;
}

/** The emulators: one line each, a provider without its line does not compile (docs/architecture.md, Adding a provider). */
export const EMULATOR_SPECS: { readonly [Name in Provider]: ProviderEmulatorSpec } = {
  smartlead: smartleadSpec,
  instantly: instantlySpec,
  lemlist: lemlistSpec,
  heyreach: heyreachSpec,
};

export async function startProviderEmulators(
  options: ProviderEmulatorOptions = {},
): Promise<ProviderEmulators> {
  const cores: EmulatorCore[] = [];
  const urls = {} as Record<Provider, string>;
  try {
    for (const [provider, spec] of Object.entries(EMULATOR_SPECS) as [Provider, ProviderEmulatorSpec][]) {
      const core = new EmulatorCore(spec, {
        host: options.host ?? '127.0.0.1',
        port: options.ports?.[provider] ?? 0,
        playback: options.playback ?? 'compressed',
        stepMs: options.stepMs ?? 5000,
        replyShare: options.replyShare ?? 0.3,
        positiveShare: options.positiveShare ?? 0.5,
        ...(options.clock && { clock: options.clock }),
        ...(options.rateLimits?.[provider] && { rateLimit: options.rateLimits[provider] }),
      });
      urls[provider] = await core.start();
      cores.push(core);
    }
  } catch (error) {
    await Promise.all(cores.map((core) => core.stop()));
    throw error;
  }
  return {
    urls,
    stop: async () => {
      await Promise.all(cores.map((core) => core.stop()));
    },
  };
}
