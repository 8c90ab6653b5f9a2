import { fromEnv } from '@aws-sdk/credential-provider-env';

/**
 * The credential provider of every AWS client in a Lambda bundle: the bundle
 * settings (infra/constructs/service-function.ts, LAMBDA_ALIASES) put this
 * module where the SDK imports its default chain, `@aws-sdk/credential-provider-node`.
 * Lambda hands a function its role's credentials in the environment
 * (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), the first
 * link of that chain; the others (profiles, SSO, web identity, container and
 * instance metadata, with the STS and SSO clients they carry, about 90 KiB)
 * never answer there. The local stack and the CLI run unbundled and keep the
 * whole chain.
 */
export const defaultProvider = (): ReturnType<typeof fromEnv> => fromEnv();
