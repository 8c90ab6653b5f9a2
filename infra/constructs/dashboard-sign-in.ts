import { Duration, type RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  AccountRecovery,
  CfnManagedLoginBranding,
  FeaturePlan,
  ManagedLoginVersion,
  Mfa,
  OAuthScope,
  UserPool,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
} from 'aws-cdk-lib/aws-cognito';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { VARIABLES } from '#platform/config.ts';

export interface DashboardSignInProps {
  /** The dashboard's OpenID callback: `{API URL}/dashboard/callback`. */
  callbackUrl: string;
  /** The managed login's domain prefix (`{prefix}.auth.{region}.amazoncognito.com`), unique per region. */
  domainPrefix: string;
  removalPolicy: RemovalPolicy;
}

/**
 * The dashboard's sign-in on AWS: a Cognito user pool with its managed login
 * (no self sign-up: operators add members, Cognito emails them a temporary
 * password), and a public app client that the dashboard uses with the
 * authorization-code flow and PKCE, exactly as it uses the local OpenID
 * provider. The functions get the issuer and client id, nothing secret.
 */
export class DashboardSignIn extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;

  constructor(scope: Construct, id: string, props: DashboardSignInProps) {
    super(scope, id);
    this.userPool = new UserPool(this, 'Users', {
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(7),
      },
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      featurePlan: FeaturePlan.ESSENTIALS,
      removalPolicy: props.removalPolicy,
    });
    NagSuppressions.addResourceSuppressions(this.userPool, [
      {
        id: 'AwsSolutions-COG2',
        reason:
          'MFA is optional (TOTP): members enable it in the managed login; requiring it is an organization decision left to the operator.',
      },
      {
        id: 'AwsSolutions-COG3',
        reason:
          'Threat protection needs the Plus feature plan; the Essentials plan and no self sign-up keep the pool to invited members.',
      },
      {
        id: 'AwsSolutions-COG8',
        reason:
          'The Plus feature plan (threat protection) is a cost decision per deployment: members are invited only, and MFA is available.',
      },
    ]);
    this.userPool.addDomain('ManagedLogin', {
      cognitoDomain: { domainPrefix: props.domainPrefix },
      managedLoginVersion: ManagedLoginVersion.NEWER_MANAGED_LOGIN,
    });
    this.client = this.userPool.addClient('Dashboard', {
      generateSecret: false,
      // Only the managed login's authorization-code flow: no password flows against the client.
      authFlows: {},
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL],
        callbackUrls: [props.callbackUrl],
      },
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      preventUserExistenceErrors: true,
      idTokenValidity: Duration.minutes(60),
      accessTokenValidity: Duration.minutes(60),
    });
    // The managed login (version 2) shows a client's pages once the client has a style: Cognito's own.
    new CfnManagedLoginBranding(this, 'Branding', {
      userPoolId: this.userPool.userPoolId,
      clientId: this.client.userPoolClientId,
      useCognitoProvidedValues: true,
    });
  }

  /**
   * Lets a function invite people to the pool (the dashboard's Members page, as `outreach-admin
   * member add` does): create a user, whom Cognito emails a temporary password, or read one who
   * exists; and tells it the pool's id.
   */
  allowInvitations(grantee: LambdaFunction): void {
    this.userPool.grant(grantee, 'cognito-idp:AdminCreateUser', 'cognito-idp:AdminGetUser');
    grantee.addEnvironment(VARIABLES.userPoolId, this.userPool.userPoolId);
  }

  /** The settings a function that reads dashboard sessions needs (shared/platform/config.ts). */
  get environment(): Record<string, string> {
    return {
      [VARIABLES.dashboardOidcIssuer]: `https://cognito-idp.${Stack.of(this).region}.amazonaws.com/${this.userPool.userPoolId}`,
      [VARIABLES.dashboardOidcClientId]: this.client.userPoolClientId,
    };
  }
}
