// `npm ci`'s postinstall: compiles DynamoDB Local's loopback launcher once (infra/local/dynamodb-local.ts),
// so that each local start and test run skips compiling it in a new JVM. Without a JDK, or without the
// dev dependencies (tsx), nothing is compiled and the launcher runs from its source as before: an
// install never fails for it.
try {
  const { register } = await import('tsx/esm/api');
  register();
  const { compileLauncher } = await import('./dynamodb-local.ts');
  await compileLauncher();
} catch (error) {
  console.warn(`DynamoDB Local's launcher was not precompiled (${error.message}); it will run from source.`);
}
