import type { Command } from './command.ts';
import { apiKeyCommands } from './commands/api-keys.ts';
import { demoCommands } from './commands/demo.ts';
import { enrollmentCommands } from './commands/enrollment.ts';
import { eventCommands } from './commands/events.ts';
import { exclusionCommands } from './commands/exclusions.ts';
import { importCommands } from './commands/import.ts';
import { jobCommands } from './commands/jobs.ts';
import { memberCommands } from './commands/members.ts';
import { oauthClientCommands } from './commands/oauth-clients.ts';
import { organizationCommands } from './commands/organizations.ts';
import { providerCommands } from './commands/providers.ts';
import { webhookCommands } from './commands/webhooks.ts';

/**
 * The operator commands, by name, in the order the usage lists them. Each
 * command (`./commands/<resource>.ts`) parses its flags, calls a use case
 * (`shared/use-cases/`) and renders what it returns; `cli.ts` picks the
 * command, prints the result and maps errors to exit codes. Flag parsing is
 * in `./flags.ts`, the result contract in `./command.ts`.
 */
export const commands: Record<string, Command> = {
  ...organizationCommands,
  ...apiKeyCommands,
  ...memberCommands,
  ...importCommands,
  ...eventCommands,
  ...exclusionCommands,
  ...jobCommands,
  ...oauthClientCommands,
  ...demoCommands,
  ...webhookCommands,
  ...providerCommands,
  ...enrollmentCommands,
};

export type { Command, CommandResult } from './command.ts';
export { type Flags, UsageError } from './flags.ts';
