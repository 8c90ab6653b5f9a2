import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { dirname, resolve } from 'node:path';
import { localEndpointsFile } from '../../shared/admin/target.ts';
import { handlerEntry, routes } from '../../shared/routes.ts';
import { PROJECT_ROOT } from '../paths.ts';
import {
  type DynamoDbLocal,
  ensureTable,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  startDynamoDbLocal,
} from './dynamodb.ts';
import { type AuthorizerHandler, type LocalRoute, type ProxyHandler, startGateway } from './gateway.ts';

/**
 * The whole service on one machine: DynamoDB Local, the table from the single
 * definition, and the local API Gateway serving every route of the manifest
 * with the same handler code that runs on Lambda. Only configuration differs:
 * the SDK's endpoint variables point at the local emulators.
 */

export const LOCAL_TABLE_NAME = 'outreach-local';

export interface LocalStackOptions {
  /** HTTP port; 0 picks a free one. */
  port: number;
  /** Keep the data in this folder across restarts; in memory when absent. */
  dataDir?: string;
  /** Use an already running DynamoDB Local instead of starting one (tests share one per run). */
  dynamodbEndpoint?: string;
  tableName?: string;
  /** Write the endpoints file for `outreach-admin` (the interactive stack does; tests don't). */
  writeEndpointsFile?: boolean;
}

/** What `outreach-admin` needs to reach a running local stack. */
export interface LocalEndpoints {
  apiUrl: string;
  region: string;
  tableName: string;
  dynamodbEndpoint: string;
}

export interface LocalStack extends LocalEndpoints {
  /** True when the table was created by this start, i.e. the store was empty. */
  freshStore: boolean;
  stop(): Promise<void>;
}

/** Points the AWS SDK (and the service's configuration) at the local emulators. */
export function configureLocalEnvironment(dynamodbEndpoint: string, tableName: string): void {
  process.env.AWS_REGION = LOCAL_REGION;
  process.env.AWS_ACCESS_KEY_ID = LOCAL_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = LOCAL_CREDENTIALS.secretAccessKey;
  process.env.AWS_ENDPOINT_URL_DYNAMODB = dynamodbEndpoint;
  process.env.TABLE_NAME = tableName;
}

async function loadRoutes(): Promise<LocalRoute[]> {
  return Promise.all(
    routes.map(async (route) => {
      const module = (await import(resolve(PROJECT_ROOT, handlerEntry(route)))) as { handler: ProxyHandler };
      return { ...route, handler: module.handler };
    }),
  );
}

/** Starts the local stack; `stop()` shuts every part down. */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const tableName = options.tableName ?? LOCAL_TABLE_NAME;
  let dynamodb: DynamoDbLocal | undefined;
  let server: Server | undefined;
  const stop = async () => {
    if (options.writeEndpointsFile) rmSync(localEndpointsFile(), { force: true });
    if (server) await new Promise((resolve) => server?.close(resolve));
    server?.closeAllConnections();
    await dynamodb?.stop();
  };
  try {
    let dynamodbEndpoint = options.dynamodbEndpoint;
    if (!dynamodbEndpoint) {
      dynamodb = await startDynamoDbLocal({ dataDir: options.dataDir });
      dynamodbEndpoint = dynamodb.endpoint;
    }
    configureLocalEnvironment(dynamodbEndpoint, tableName);
    const freshStore = (await ensureTable(dynamodbEndpoint, tableName)) === 'created';

    const [localRoutes, authorizer] = await Promise.all([
      loadRoutes(),
      import('../../functions/authorizer/handler.ts').then((module) => module.handler as AuthorizerHandler),
    ]);
    server = await startGateway({ routes: localRoutes, authorizer }, options.port);
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    const endpoints: LocalEndpoints = {
      apiUrl: `http://127.0.0.1:${port}`,
      region: LOCAL_REGION,
      tableName,
      dynamodbEndpoint,
    };
    if (options.writeEndpointsFile) {
      mkdirSync(dirname(localEndpointsFile()), { recursive: true });
      writeFileSync(localEndpointsFile(), `${JSON.stringify(endpoints, null, 2)}\n`);
    }
    return { ...endpoints, freshStore, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
