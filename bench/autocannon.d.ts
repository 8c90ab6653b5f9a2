/**
 * The part of autocannon 9's API the bench uses (the package ships no types).
 * https://github.com/mcollina/autocannon#api
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  /** Shared by the requests of one connection's pass through `requests`; reset after each pass. */
  export type RequestContext = Record<string, unknown>;

  export interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Rewrites the request before it is sent (called for every request). */
    setupRequest?: (request: AutocannonRequest, context: RequestContext) => AutocannonRequest;
    onResponse?: (
      status: number,
      body: string,
      context: RequestContext,
      headers: Record<string, string>,
    ) => void;
  }

  export interface AutocannonOptions {
    url: string;
    connections?: number;
    pipelining?: number;
    /** Seconds. */
    duration?: number;
    /** Total requests; overrides `duration`. */
    amount?: number;
    /** Seconds. */
    timeout?: number;
    requests?: AutocannonRequest[];
  }

  interface Histogram {
    average: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
  }

  export interface AutocannonResult {
    requests: Histogram & { total: number; sent: number };
    latency: Histogram & { totalCount: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    duration: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  export interface AutocannonInstance extends EventEmitter, PromiseLike<AutocannonResult> {
    stop(): void;
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void,
    ): this;
    on(event: 'reqError', listener: (error: Error) => void): this;
  }

  export default function autocannon(options: AutocannonOptions): AutocannonInstance;
}
