import { routes } from '#definitions/routes.ts';
import { dynamo } from '#platform/dynamodb-client.ts';
import { runningRoute } from '../../infra/local/gateway.ts';

/**
 * Which table actions each route's function really uses, observed on every
 * DynamoDB call the e2e tests make through the local gateway (the call is
 * attributed to the route whose handler runs in its async context), so the
 * stack's grants from the manifest can be checked against use.
 */

const TRANSACTION_ITEM_ACTIONS: Record<string, string> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
};

/** The IAM actions a call needs: a transaction needs its items' actions, not an action of its own. */
export function iamActionsOf(operation: string, input: { TransactItems?: object[] }): string[] {
  if (operation === 'TransactWriteItems') {
    return (input.TransactItems ?? []).map((item) => TRANSACTION_ITEM_ACTIONS[Object.keys(item)[0]!]!);
  }
  if (operation === 'TransactGetItems') return ['GetItem'];
  return [operation];
}

const observed = new Map<string, Set<string>>();
let installed = false;

/** Starts recording (once per test file's process). */
export function recordTableActions(): void {
  if (installed) return;
  installed = true;
  dynamo.middlewareStack.add(
    (next, context) => (args) => {
      const route = runningRoute();
      if (route) {
        const operation = String(context.commandName ?? '').replace(/Command$/, '');
        const actions = observed.get(route) ?? new Set<string>();
        for (const action of iamActionsOf(operation, args.input as { TransactItems?: object[] }))
          actions.add(action);
        observed.set(route, actions);
      }
      return next(args);
    },
    { step: 'initialize', name: 'test-table-actions' },
  );
}

/** `route: action` for every action a route used that its manifest entry does not grant. */
export function ungrantedTableActions(): string[] {
  const granted = new Map<string, readonly string[]>(routes.map((route) => [route.name, route.table]));
  return [...observed].flatMap(([route, actions]) =>
    [...actions]
      .filter((action) => !granted.get(route)?.includes(action))
      .map((action) => `${route}: ${action}`),
  );
}
