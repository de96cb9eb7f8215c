/** The part of autocannon 9's programmatic API the benchmark uses (it ships no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface RequestParams {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }

  export type Context = Record<string, unknown>;

  export interface Request extends RequestParams {
    setupRequest?: (request: RequestParams, context: Context) => RequestParams | null;
    onResponse?: (status: number, body: string, context: Context) => void;
  }

  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    pipelining?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: Request[];
  }

  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
    p99_9: number;
  }

  export interface Result {
    duration: number;
    latency: Histogram;
    requests: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    mismatches: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  export interface Instance extends EventEmitter, PromiseLike<Result> {
    stop(): void;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
}
