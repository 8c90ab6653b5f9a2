import type { DemoAccounts } from './accounts.ts';
import type { ContactDraft, ImportDocumentInput } from './drafts.ts';
import type { Random } from './random.ts';

/**
 * Three accounts without job openings and three contacts' emails excluded,
 * plus the sender's own domain written as a URL (the import normalizes it).
 */
export function demoExclusions(
  random: Random,
  { accounts }: DemoAccounts,
  contacts: ContactDraft[],
  jobDomains: Set<string>,
): NonNullable<ImportDocumentInput['exclusions']> {
  const excludedAccounts = random.shuffle(accounts.filter((account) => !jobDomains.has(account.domain)));
  const excludedContacts = random.shuffle(contacts.filter((contact) => contact.email));
  return [
    ...excludedAccounts.slice(0, 3).map((account) => ({ domain: account.domain })),
    { domain: 'https://www.northpeak.io/' },
    ...excludedContacts.slice(0, 3).map((contact) => ({ email: contact.email! })),
  ];
}
