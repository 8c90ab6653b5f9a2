import { identityDirectory as configured, type IdentityDirectory } from '#platform/identity-directory.ts';
import { TargetError } from './target.ts';

/** The identity provider `member add` creates people at (#platform/identity-directory.ts), or why there is none. */
export function identityDirectory(): IdentityDirectory {
  const directory = configured();
  if (!directory) {
    throw new TargetError(
      'No identity provider to add members to: start the local stack (npm start) or target a deployed stack',
    );
  }
  return directory;
}
