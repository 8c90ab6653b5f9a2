import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROVIDERS } from '#definitions/providers.ts';
import { providerClients } from '#providers/clients.ts';
import { PROVIDER_FACTS } from '#providers/registry.ts';
import { payloadMappers } from '#providers/webhooks.ts';
import { EMULATOR_SPECS } from '../../infra/local/provider-emulators/index.ts';
import { PROJECT_ROOT } from '../../infra/paths.ts';

/**
 * Every provider has every part (docs/architecture.md, Adding a provider): its
 * folder with facts, client and webhook adapter, its lines in the registry,
 * the clients and the adapters (their types already demand one per provider),
 * its emulator, its webhook fixtures and its section of docs/providers.md; and
 * no folder holds a provider the list does not name.
 */

const PROVIDERS_FOLDER = join(PROJECT_ROOT, 'shared/providers');
const EMULATORS_FOLDER = join(PROJECT_ROOT, 'infra/local/provider-emulators');
const FIXTURES_FOLDER = join(PROJECT_ROOT, 'test/fixtures/providers');

const foldersIn = (folder: string): string[] =>
  readdirSync(folder).filter((name) => statSync(join(folder, name)).isDirectory());

describe.each(PROVIDERS)('provider %s', (provider) => {
  it('has its folder with its facts, client and webhook adapter', () => {
    for (const part of ['facts.ts', 'client.ts', 'webhooks.ts']) {
      expect(existsSync(join(PROVIDERS_FOLDER, provider, part)), `shared/providers/${provider}/${part}`).toBe(
        true,
      );
    }
  });

  it('has facts in the registry, each figure usable', () => {
    const facts = PROVIDER_FACTS[provider];
    expect(facts.displayName).not.toBe('');
    expect(new URL(facts.defaultBaseUrl).protocol).toBe('https:');
    expect(['query', 'bearer', 'basic', 'header']).toContain(facts.auth.scheme);
    expect(facts.maxLeadsPerRequest).toBeGreaterThanOrEqual(1);
    expect(facts.rateLimit.requests).toBeGreaterThanOrEqual(1);
    expect(facts.rateLimit.perMs).toBeGreaterThanOrEqual(1);
  });

  it('has a client for this provider with every operation', async () => {
    const client = (await providerClients())[provider];
    expect(client.provider).toBe(provider);
    for (const operation of [
      'checkCredentials',
      'listCampaigns',
      'enroll',
      'findEnrolled',
      'stop',
    ] as const) {
      expect(typeof client[operation], operation).toBe('function');
    }
    expect(client.reply === undefined).toBe(PROVIDER_FACTS[provider].replyThreadNamedBy === null);
    expect(client.facts).toBe(PROVIDER_FACTS[provider]);
  });

  it('has a webhook adapter that answers any payload', async () => {
    const mapper = (await payloadMappers())[provider];
    expect(mapper({})).toHaveProperty('ignored');
    expect(mapper(null)).toHaveProperty('ignored');
  });

  it('has an emulator of its API', () => {
    expect(existsSync(join(EMULATORS_FOLDER, provider, 'emulator.ts'))).toBe(true);
    expect(EMULATOR_SPECS[provider].provider).toBe(provider);
  });

  it('has webhook payload fixtures and its section of docs/providers.md', async () => {
    expect(readdirSync(join(FIXTURES_FOLDER, provider)).length).toBeGreaterThan(0);
    const { readFile } = await import('node:fs/promises');
    const docs = await readFile(join(PROJECT_ROOT, 'docs/providers.md'), 'utf8');
    expect(docs).toContain(`\n### ${PROVIDER_FACTS[provider].displayName}\n`);
  });
});

describe('the provider folders', () => {
  it('hold only the providers the list names', () => {
    expect(foldersIn(PROVIDERS_FOLDER).sort()).toEqual([...PROVIDERS].sort());
    expect(foldersIn(EMULATORS_FOLDER).sort()).toEqual([...PROVIDERS].sort());
    expect(foldersIn(FIXTURES_FOLDER).sort()).toEqual([...PROVIDERS].sort());
  });
});
