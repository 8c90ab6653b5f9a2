import { type Configuration, configuration } from './config.ts';
import { traceAwsClient } from './xray.ts';

/**
 * What is built from the configuration (the AWS clients, the mail transport)
 * is built on first use, never at import, and built again only when the
 * settings it depends on change (a test or the CLI installing another
 * configuration). Importing a module therefore never reads configuration,
 * whatever the order of imports and `useConfiguration`.
 */

/** A getter of the value `build` makes from the process's configuration, rebuilt when `settingsOf` changes. */
export function perConfiguration<T>(
  settingsOf: (config: Configuration) => unknown,
  build: (config: Configuration) => T,
): () => T {
  let built: { config: Configuration; key: string; value: T } | undefined;
  return () => {
    const config = configuration();
    if (built?.config === config) return built.value;
    const key = JSON.stringify(settingsOf(config));
    built = { config, key, value: built?.key === key ? built.value : build(config) };
    return built.value;
  };
}

/**
 * An object that stands for `current()`'s client: every property read goes to
 * the client of the moment (methods bound to it), so a module can export
 * `dynamo` as a constant while the client itself is built on first use.
 */
export function lazyClient<T extends object>(current: () => T): T {
  return new Proxy({} as T, {
    get(_target, property) {
      const client = current();
      const value = Reflect.get(client, property, client);
      return typeof value === 'function' ? value.bind(client) : value;
    },
    has: (_target, property) => Reflect.has(current(), property),
  });
}

/**
 * The options of an AWS SDK client for the configuration: region,
 * credentials and endpoint where it names them (the local stack, the CLI);
 * what it does not name is left to the SDK's own resolution (on Lambda, its
 * region and role).
 */
export function awsClientOptions(
  aws: Configuration['aws'],
  endpoint?: string,
): { region?: string; credentials?: { accessKeyId: string; secretAccessKey: string }; endpoint?: string } {
  return {
    ...(aws.region !== undefined && { region: aws.region }),
    // A copy: the SDK may annotate the credentials object it is given, and the configuration is frozen.
    ...(aws.credentials !== undefined && { credentials: { ...aws.credentials } }),
    ...(endpoint !== undefined && { endpoint }),
  };
}

/**
 * An AWS client as the service uses it: each call a trace subsegment on
 * Lambda (xray.ts), and without the SDK's logger middleware. With no logger
 * configured (the SDK's default logs nothing; the service logs its calls
 * itself) that middleware still walks every request's input and every
 * response through the operation's schema to mask sensitive members, for a
 * log line nobody writes: on a 25-item BatchWriteItem or a page of Query
 * results, a good part of the client's own CPU time per call
 * (docs/architecture.md, Bundles).
 */
export function serviceAwsClient<C extends { middlewareStack: { remove(name: string): boolean } }>(
  client: C,
): C {
  client.middlewareStack.remove('loggerMiddleware');
  return traceAwsClient(client);
}

/** The AWS settings every client depends on, plus its endpoint (the key `perConfiguration` compares). */
export const awsSettings = (config: Configuration, endpoint?: string) => [
  config.aws.region,
  config.aws.credentials,
  endpoint,
];
