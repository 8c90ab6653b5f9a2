import {
  AdminCreateUserCommand,
  AdminGetUserCommand,
  CognitoIdentityProviderClient,
  UsernameExistsException,
} from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { identityDirectory } from '#admin/identity-directory.ts';
import { TargetError } from '#admin/target.ts';
import { configuration, loadConfiguration, useConfiguration } from '#platform/config.ts';

/**
 * `member add` on AWS: Cognito invites a new person (AdminCreateUser, a
 * verified email, the temporary password emailed) and finds one who exists
 * (AdminGetUser), answering the subject either way. The local provider's
 * side runs for real in test/e2e/dashboard.test.ts.
 */

const environment = configuration();
afterAll(() => {
  useConfiguration(environment);
});

const cognito = mockClient(CognitoIdentityProviderClient);

beforeEach(() => {
  cognito.reset();
  const base = loadConfiguration({ AWS_REGION: 'eu-west-1', COGNITO_USER_POOL_ID: 'eu-west-1_Pool' });
  useConfiguration({
    ...base,
    aws: { ...base.aws, credentials: { accessKeyId: 'a', secretAccessKey: 'b' } },
  });
});

describe('the Cognito identity directory', () => {
  it('invites a new person with a verified email and answers their subject', async () => {
    cognito.on(AdminCreateUserCommand).resolves({
      User: {
        Attributes: [
          { Name: 'sub', Value: 'sub-1' },
          { Name: 'email', Value: 'ada@example.com' },
        ],
      },
    });
    await expect(identityDirectory().ensurePerson('ada@example.com')).resolves.toEqual({
      subject: 'sub-1',
      email: 'ada@example.com',
      oneTimePassword: null,
      invited: true,
    });
    expect(cognito.commandCalls(AdminCreateUserCommand)[0]!.args[0].input).toEqual({
      UserPoolId: 'eu-west-1_Pool',
      Username: 'ada@example.com',
      UserAttributes: [
        { Name: 'email', Value: 'ada@example.com' },
        { Name: 'email_verified', Value: 'true' },
      ],
      DesiredDeliveryMediums: ['EMAIL'],
    });
  });

  it('finds a person who already exists instead of inviting them again', async () => {
    cognito
      .on(AdminCreateUserCommand)
      .rejects(new UsernameExistsException({ message: 'exists', $metadata: {} }));
    cognito.on(AdminGetUserCommand).resolves({ UserAttributes: [{ Name: 'sub', Value: 'sub-2' }] });
    await expect(identityDirectory().ensurePerson('bo@example.com')).resolves.toMatchObject({
      subject: 'sub-2',
      invited: false,
    });
  });

  it('lets any other Cognito failure through, and refuses a user without a subject', async () => {
    cognito.on(AdminCreateUserCommand).rejects(new Error('throttled'));
    await expect(identityDirectory().ensurePerson('cy@example.com')).rejects.toThrow('throttled');
    cognito.on(AdminCreateUserCommand).resolves({ User: { Attributes: [] } });
    await expect(identityDirectory().ensurePerson('cy@example.com')).rejects.toThrow(/without a subject/);
  });

  it('is nowhere without a stack to point at', () => {
    useConfiguration(loadConfiguration({}));
    expect(() => identityDirectory()).toThrow(TargetError);
  });
});
