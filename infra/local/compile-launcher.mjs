// `npm ci`'s postinstall: compiles DynamoDB Local's loopback launcher once (infra/local/dynamodb-local.ts),
// so that each local start and test run skips compiling it in a new JVM, then records the class archive
// the JVM starts from. Without a JDK, or without the dev dependencies (tsx), nothing is compiled and the
// launcher runs from its source as before; without the archive, it starts from its jar: an install never
// fails for either.
// The archive's run loads the AWS SDK, whose notice about Node 20 says nothing to an install.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
try {
  const { register } = await import('tsx/esm/api');
  register();
  const { archiveLauncherClasses, compileLauncher } = await import('./dynamodb-local.ts');
  await compileLauncher();
  try {
    await archiveLauncherClasses();
  } catch (error) {
    console.warn(
      `DynamoDB Local's class archive was not recorded (${error.message}); it starts without one.`,
    );
  }
} catch (error) {
  console.warn(`DynamoDB Local's launcher was not precompiled (${error.message}); it will run from source.`);
}
