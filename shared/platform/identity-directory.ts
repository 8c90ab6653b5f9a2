import {
  AdminCreateUserCommand,
  AdminGetUserCommand,
  CognitoIdentityProviderClient,
  UsernameExistsException,
} from '@aws-sdk/client-cognito-identity-provider';
import { configuration } from './config.ts';
import { awsClientOptions } from './configured.ts';

/**
 * Where `member add` and the dashboard's invitations create people: the
 * deployed stack's Cognito user pool (AdminCreateUser, which emails them a
 * temporary password), or the local OpenID provider's user admin API (which
 * answers a one-time password to show once). Either way the person's subject
 * comes back, and a person who already exists is found, not created twice.
 * The dashboard loads this module (and the Cognito client) only to invite.
 */

/** Where people sign in: creates one (or finds them) at the identity provider. */
export interface IdentityDirectory {
  /** The person with this email, created when new; `oneTimePassword` only when created here. */
  ensurePerson(
    email: string,
  ): Promise<{ subject: string; email: string; oneTimePassword: string | null; invited: boolean }>;
}

/** The configured identity provider's directory; null where none is (no local provider, no user pool). */
export function identityDirectory(): IdentityDirectory | null {
  const directory = configuration().admin.identityDirectory;
  if (!directory) return null;
  if (directory.kind === 'local') {
    return {
      async ensurePerson(email) {
        const response = await fetch(`${directory.url}/_admin/users`, {
          method: 'POST',
          headers: { authorization: `Bearer ${directory.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ email }),
          signal: AbortSignal.timeout(10_000),
        });
        if (!response.ok) throw new Error(`The local OpenID provider answered ${response.status}`);
        const person = (await response.json()) as {
          sub: string;
          email: string;
          oneTimePassword: string | null;
        };
        return {
          subject: person.sub,
          email: person.email,
          oneTimePassword: person.oneTimePassword,
          invited: false,
        };
      },
    };
  }
  const cognito = new CognitoIdentityProviderClient(awsClientOptions(configuration().aws));
  const subjectOf = (attributes: { Name?: string; Value?: string }[] | undefined) => {
    const subject = attributes?.find((attribute) => attribute.Name === 'sub')?.Value;
    if (!subject) throw new Error('Cognito returned a user without a subject');
    return subject;
  };
  return {
    async ensurePerson(email) {
      try {
        const { User } = await cognito.send(
          new AdminCreateUserCommand({
            UserPoolId: directory.userPoolId,
            Username: email,
            UserAttributes: [
              { Name: 'email', Value: email },
              { Name: 'email_verified', Value: 'true' },
            ],
            DesiredDeliveryMediums: ['EMAIL'],
          }),
        );
        return { subject: subjectOf(User?.Attributes), email, oneTimePassword: null, invited: true };
      } catch (error) {
        if (!(error instanceof UsernameExistsException)) throw error;
        const user = await cognito.send(
          new AdminGetUserCommand({ UserPoolId: directory.userPoolId, Username: email }),
        );
        return { subject: subjectOf(user.UserAttributes), email, oneTimePassword: null, invited: false };
      }
    },
  };
}
