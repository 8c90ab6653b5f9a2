#!/usr/bin/env node
// The operator CLI runs the project's TypeScript sources directly through tsx, so the CLI is
// imported once tsx is registered; it reads no configuration when it loads (its target is
// resolved into a configuration object by `main`).
import { register } from 'tsx/esm/api';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
register();
const { main } = await import('#admin/cli.ts');
// Exits with the code once the output is written.
process.exitCode = await main(process.argv.slice(2));
