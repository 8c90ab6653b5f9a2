#!/usr/bin/env node
// The operator CLI runs the project's TypeScript sources directly through tsx.
import { register } from 'tsx/esm/api';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
register();
await import('#admin/cli.ts');
