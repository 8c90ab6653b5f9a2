import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { invocationTraceHeader, observabilitySettings } from './config.ts';

/**
 * X-Ray traces without the X-Ray SDK. With active tracing, Lambda records the
 * function's segment itself and gives each invocation a trace header; what a
 * function adds are subsegments (its handler, each AWS call), sent as JSON
 * datagrams to the X-Ray daemon Lambda runs beside it. That is this module:
 * the SDK and its dependencies (about 110 KiB of every bundle) are not needed
 * for it. When there is no daemon or the invocation is not sampled (always so
 * outside Lambda), nothing is built or sent. Whether to trace and where the
 * daemon is are the configuration's (AWS_XRAY_DAEMON_ADDRESS,
 * POWERTOOLS_TRACE_ENABLED); the trace header is each invocation's own.
 *
 * Subsegments are children of the function's segment (the trace header's
 * Parent); AWS calls are siblings of the handler's subsegment rather than
 * nested in it, since a Lambda instance runs one invocation at a time and the
 * timeline shows them in order anyway.
 */

/** An invocation's place in its trace, when it is sampled and there is a daemon to send to. */
interface TraceContext {
  traceId: string;
  parentId: string;
  daemon: { host: string; port: number };
}

/** The Lambda runtime's store for the invocation's context, where the trace header lives once the runtime runs invocations concurrently. */
interface InvokeStore {
  getXRayTraceId(): string | undefined;
}

/** `Root=1-…;Parent=…;Sampled=1` of the current invocation, if it is sampled. */
function sampledTrace(): { traceId: string; parentId: string } | undefined {
  const store = (globalThis as { awslambda?: { InvokeStore?: InvokeStore } }).awslambda?.InvokeStore;
  const header = store?.getXRayTraceId() ?? invocationTraceHeader();
  if (!header) return undefined;
  const fields = new Map(header.split(';').map((field) => field.split('=') as [string, string]));
  const traceId = fields.get('Root');
  const parentId = fields.get('Parent');
  if (!traceId || !parentId || fields.get('Sampled') !== '1') return undefined;
  return { traceId, parentId };
}

/** Whether this call would be traced: a daemon, a sampled invocation, and tracing not turned off. */
function activeTrace(): TraceContext | undefined {
  const { tracing, xrayDaemon } = observabilitySettings();
  if (!tracing || !xrayDaemon) return undefined;
  const trace = sampledTrace();
  return trace && { ...trace, daemon: xrayDaemon };
}

let socket: Socket | undefined;

/** A subsegment document as the daemon takes it (the X-Ray segment document format). */
export interface Subsegment {
  name: string;
  start_time: number;
  end_time: number;
  namespace?: 'aws' | 'remote';
  annotations?: Record<string, string | number | boolean>;
  aws?: Record<string, string | number>;
  http?: { response: { status: number } };
  error?: boolean;
  fault?: boolean;
  throttle?: boolean;
}

/** Sends a finished subsegment to the daemon; fire and forget, as the X-Ray SDK does (UDP, on the same host). */
function send(trace: TraceContext, subsegment: Subsegment): void {
  const document = {
    ...subsegment,
    id: randomBytes(8).toString('hex'),
    trace_id: trace.traceId,
    parent_id: trace.parentId,
    type: 'subsegment',
  };
  socket ??= createSocket('udp4').unref();
  socket.send(
    `{"format":"json","version":1}\n${JSON.stringify(document)}`,
    trace.daemon.port,
    trace.daemon.host,
  );
}

const seconds = () => Date.now() / 1000;

/** The parts of an SDK v3 client this module hooks into (any AWS service client). */
interface TraceableClient {
  config: { region: () => Promise<string> };
  middlewareStack: {
    add(
      middleware: (
        next: (args: { input: object }) => Promise<{ output: { $metadata?: ResponseMetadata } }>,
        context: { clientName?: string; commandName?: string },
      ) => (args: { input: object }) => Promise<{ output: { $metadata?: ResponseMetadata } }>,
      options: { step: 'initialize'; name: string },
    ): void;
  };
}

interface ResponseMetadata {
  httpStatusCode?: number;
  requestId?: string;
  attempts?: number;
}

/** What an SDK error carries about the response. */
interface ServiceErrorShape {
  name?: string;
  $metadata?: ResponseMetadata;
  $fault?: 'client' | 'server';
  $retryable?: { throttling?: boolean };
}

/** Errors by which AWS services say "slow down" with a 400 rather than a 429. */
const THROTTLING_ERRORS = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'TooManyRequestsException',
]);

const throttled = (failure: ServiceErrorShape, status: number | undefined) =>
  status === 429 || failure.$retryable?.throttling === true || THROTTLING_ERRORS.has(failure.name ?? '');

/**
 * Records each call of an AWS SDK client as an `aws` subsegment (service,
 * operation, table or queue, request id, retries, status), the way the X-Ray
 * console groups them. Request and response contents are never recorded.
 */
export function traceAwsClient<Client extends object>(client: Client): Client {
  (client as unknown as TraceableClient).middlewareStack.add(
    (next, context) => async (args) => {
      const trace = activeTrace();
      if (!trace) return next(args);
      const startTime = seconds();
      const service = (context.clientName ?? 'AWS').replace(/Client$/, '');
      const input = args.input as { TableName?: string; QueueUrl?: string };
      const region = await (client as unknown as TraceableClient).config.region();
      const record = (metadata: ResponseMetadata | undefined, failure?: ServiceErrorShape) => {
        const status = metadata?.httpStatusCode;
        send(trace, {
          name: service,
          namespace: 'aws',
          start_time: startTime,
          end_time: seconds(),
          aws: {
            operation: (context.commandName ?? 'Unknown').replace(/Command$/, ''),
            region,
            ...(metadata?.requestId ? { request_id: metadata.requestId } : {}),
            ...(metadata?.attempts ? { retries: metadata.attempts - 1 } : {}),
            ...(input.TableName ? { table_name: input.TableName } : {}),
            ...(input.QueueUrl ? { queue_url: input.QueueUrl } : {}),
          },
          ...(status ? { http: { response: { status } } } : {}),
          ...(failure
            ? {
                error: failure.$fault !== 'server',
                fault: failure.$fault === 'server',
                ...(throttled(failure, status) ? { throttle: true } : {}),
              }
            : {}),
        });
      };
      try {
        const result = await next(args);
        record(result.output.$metadata);
        return result;
      } catch (error) {
        const failure = error as ServiceErrorShape;
        record(failure.$metadata, failure);
        throw error;
      }
    },
    { step: 'initialize', name: 'xrayTraceSubsegment' },
  );
  return client;
}

let coldStart = true;

/**
 * The handler's subsegment (`## handler`), annotated with the service and
 * whether this invocation was the instance's first, and marked faulty when
 * the handler throws. Returns the function that closes it.
 */
export function traceInvocation(service: string): (failed: boolean) => void {
  const wasColdStart = coldStart;
  coldStart = false;
  const trace = activeTrace();
  if (!trace) return () => undefined;
  const startTime = seconds();
  return (failed) =>
    send(trace, {
      name: '## handler',
      start_time: startTime,
      end_time: seconds(),
      annotations: { ColdStart: wasColdStart, Service: service },
      ...(failed ? { fault: true } : {}),
    });
}
