import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createOrganization } from '#domain/organizations.ts';
import { tableName } from '#platform/config.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { contacts, newContact, normalizeLinkedinUrl } from '#store/contacts.ts';
import { keys } from '#store/keys.ts';
import { transact } from '#store/transactions.ts';
import { importFor } from '../support/import.ts';
import { countRequests } from '../support/request-counter.ts';

/*
 * Finding a contact by its LinkedIn profile URL (HeyReach names leads by it):
 * contact items carry sparse gsi2 keys of the normalized URL, written by the
 * same request that writes the URL, and one Query of gsi2 finds the contact.
 */

type Item = Record<string, unknown>;

const getItem = async (key: Record<string, string>): Promise<Item | undefined> =>
  (await dynamo.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

async function importContacts(orgId: number, contactList: Item[]): Promise<void> {
  await importFor(orgId, { contacts: contactList });
}

const CONTACTS = [
  { id: 401, email: 'ann@acme.com', linkedin_url: 'https://www.linkedin.com/in/Ann-Example-123/?utm=x' },
  {
    id: 402,
    email: null,
    full_name: 'Bob LinkedIn-only',
    linkedin_url: 'uk.linkedin.com/in/bob%2Dsmith#about',
  },
  { id: 403, email: 'cy@globex.io', linkedin_url: 'http://linkedin.com/pub/cy-doe/12/345/678/' },
  { id: 404, email: 'dee@initech.com', linkedin_url: null },
  { id: 405, email: 'eve@hooli.com', linkedin_url: 'https://www.linkedin.com/company/hooli' },
];

describe('normalizeLinkedinUrl', () => {
  it.each([
    ['https://www.linkedin.com/in/John-Doe-123/?utm=x', 'linkedin.com/in/john-doe-123'],
    ['linkedin.com/in/john-doe-123', 'linkedin.com/in/john-doe-123'],
    ['  HTTP://LinkedIn.com/IN/John-Doe-123//  ', 'linkedin.com/in/john-doe-123'],
    ['https://uk.linkedin.com/in/john-doe-123#experience', 'linkedin.com/in/john-doe-123'],
    ['https://m.linkedin.com/in/john-doe-123', 'linkedin.com/in/john-doe-123'],
    ['www.linkedin.com/in/john-doe-123/details/experience/', 'linkedin.com/in/john-doe-123'],
    ['https://www.linkedin.com/in/j%C3%B6rg-m%C3%BCller', 'linkedin.com/in/jörg-müller'],
    ['https://www.linkedin.com/in/Jörg-Müller', 'linkedin.com/in/jörg-müller'],
    ['//linkedin.com/in/john-doe-123', 'linkedin.com/in/john-doe-123'],
    ['https://www.linkedin.com/pub/john-doe/1a/2b/3c', 'linkedin.com/pub/john-doe/1a/2b/3c'],
    [
      'https://www.linkedin.com/sales/lead/ACwAAA123,NAME_SEARCH,abc?foo=1',
      'linkedin.com/sales/lead/acwaaa123,name_search,abc',
    ],
  ])('normalizes %s', (url, expected) => {
    expect(normalizeLinkedinUrl(url)).toBe(expected);
  });

  it.each([
    ['a company page', 'https://www.linkedin.com/company/acme'],
    ['a profile path without a profile', 'https://www.linkedin.com/in/'],
    ['another host', 'https://www.notlinkedin.com/in/john-doe'],
    ['a host that only ends like it', 'https://evil-linkedin.com/in/john-doe'],
    ['another scheme', 'ftp://linkedin.com/in/john-doe'],
    ['credentials', 'https://user:pass@linkedin.com/in/john-doe'],
    ['a port', 'https://linkedin.com:8443/in/john-doe'],
    ['no URL at all', 'john doe'],
    ['an empty string', ''],
    ['a slug too long for an index key', `https://linkedin.com/in/${'x'.repeat(1100)}`],
  ])('is null for %s', (_name, url) => {
    expect(normalizeLinkedinUrl(url)).toBeNull();
  });
});

describe('contacts by LinkedIn profile URL', () => {
  it('finds imported contacts by any spelling of their URL', async () => {
    // Prepare
    const { orgId } = await createOrganization('LinkedIn Inc');
    await importContacts(orgId, CONTACTS);

    // Act
    const found = await Promise.all(
      [
        'linkedin.com/in/ann-example-123',
        'https://de.linkedin.com/in/ANN-EXAMPLE-123/',
        'https://www.linkedin.com/in/bob-smith',
        'linkedin.com/pub/cy-doe/12/345/678',
      ].map((url) => contacts.findByLinkedinUrl(orgId, url)),
    );

    // Assess
    expect(found.map((contact) => contact?.id)).toEqual([401, 401, 402, 403]);
    expect(found[2]).toMatchObject({ email: null, full_name: 'Bob LinkedIn-only' });
  });

  it('keeps contacts without a profile URL out of the index', async () => {
    // Prepare
    const { orgId } = await createOrganization('No LinkedIn Inc');
    await importContacts(orgId, CONTACTS);

    // Act
    const withoutUrl = await getItem(keys.contact(orgId, { id: 404, email: 'dee@initech.com' }));
    const companyPage = await getItem(keys.contact(orgId, { id: 405, email: 'eve@hooli.com' }));
    const lookups = await Promise.all([
      contacts.findByLinkedinUrl(orgId, 'https://www.linkedin.com/company/hooli'),
      contacts.findByLinkedinUrl(orgId, 'https://www.linkedin.com/in/nobody'),
    ]);

    // Assess
    expect(withoutUrl).toBeDefined();
    expect(withoutUrl).not.toHaveProperty('gsi2pk');
    expect(withoutUrl).not.toHaveProperty('gsi2sk');
    expect(companyPage).toMatchObject({ linkedin_url: 'https://www.linkedin.com/company/hooli' });
    expect(companyPage).not.toHaveProperty('gsi2pk');
    expect(lookups).toEqual([null, null]);
  });

  it('follows a contact’s URL when it changes, and drops it when it is removed', async () => {
    // Prepare
    const { orgId } = await createOrganization('Changing Inc');
    await importContacts(orgId, CONTACTS);

    // Act
    await importContacts(orgId, [
      { ...CONTACTS[0], linkedin_url: 'https://www.linkedin.com/in/ann-new' },
      { ...CONTACTS[2], linkedin_url: null },
    ]);

    // Assess
    expect(await contacts.findByLinkedinUrl(orgId, 'linkedin.com/in/ann-example-123')).toBeNull();
    expect((await contacts.findByLinkedinUrl(orgId, 'linkedin.com/in/ann-new'))?.id).toBe(401);
    expect(await contacts.findByLinkedinUrl(orgId, 'linkedin.com/pub/cy-doe/12/345/678')).toBeNull();
    expect(await getItem(keys.contact(orgId, { id: 403, email: 'cy@globex.io' }))).not.toHaveProperty(
      'gsi2pk',
    );
  });

  it('finds the contact with the lowest id when contacts share a URL', async () => {
    // Prepare
    const { orgId } = await createOrganization('Shared Inc');
    await importContacts(orgId, [
      { id: 409, email: 'one@acme.com', linkedin_url: 'https://linkedin.com/in/shared' },
      { id: 407, email: 'two@acme.com', linkedin_url: 'https://www.linkedin.com/in/Shared/' },
      { id: 408, email: 'three@acme.com', linkedin_url: 'linkedin.com/in/shared' },
    ]);

    // Act
    const found = await contacts.findByLinkedinUrl(orgId, 'linkedin.com/in/shared');

    // Assess
    expect(found?.id).toBe(407);
  });

  it('finds a contact a raw push created (putNew)', async () => {
    // Prepare
    const { orgId } = await createOrganization('Pushed Inc');
    const contact = newContact({
      id: 4001,
      email: 'pushed@acme.com',
      first_name: 'Pia',
      last_name: null,
      full_name: 'Pia',
      title: null,
      linkedin_url: 'https://www.linkedin.com/in/pia-pushed/',
      company_name: null,
      company_domain: null,
    });

    // Act
    await transact([contacts.putNew(orgId, contact)]);

    // Assess
    expect((await contacts.findByLinkedinUrl(orgId, 'linkedin.com/in/pia-pushed'))?.email).toBe(
      'pushed@acme.com',
    );
  });

  it('does not find another organization’s contact', async () => {
    // Prepare
    const { orgId: owner } = await createOrganization('Owner Inc');
    const { orgId: other } = await createOrganization('Other Inc');
    await importContacts(owner, CONTACTS);

    // Act
    const found = await contacts.findByLinkedinUrl(other, 'linkedin.com/in/ann-example-123');

    // Assess
    expect(found).toBeNull();
  });

  it('writes the index keys with the contact and finds it with one Query', async () => {
    // Prepare
    const { orgId } = await createOrganization('Counted Inc');

    // Act
    const upserted = await countRequests(() =>
      contacts.upsert(orgId, {
        id: 4100,
        email: 'counted@acme.com',
        first_name: null,
        last_name: null,
        full_name: null,
        title: null,
        linkedin_url: 'linkedin.com/in/counted',
        company_name: null,
        company_domain: null,
      }),
    );
    const looked = await countRequests(() => contacts.findByLinkedinUrl(orgId, 'linkedin.com/in/counted'));
    const notAProfile = await countRequests(() => contacts.findByLinkedinUrl(orgId, 'not a url'));

    // Assess
    expect(upserted.byCommand).toEqual({ UpdateItem: 1 });
    expect(looked.byCommand).toEqual({ Query: 1 });
    expect(looked.result?.id).toBe(4100);
    expect(notAProfile.count).toBe(0);
    expect(notAProfile.result).toBeNull();
  });
});
