/** One autocannon run (keep-alive, fixed connections) and the figures the report needs. */
import autocannon, { type Request } from 'autocannon';

export interface LoadSpec {
  url: string;
  connections: number;
  /** Seconds; the run stops then even if `amount` is not reached. */
  durationS: number;
  /** Stop after this many requests (each connection sends its share). */
  amount?: number;
  requests: Request[];
  /** Statuses that count as success; any other status is an error. */
  expected: readonly number[];
}

export interface LoadResult {
  requests: number;
  durationS: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
  errors: number;
  statusCodes: Record<string, number>;
}

/** Runs autocannon in this process (the load generator); the server runs in its own. */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const started = performance.now();
  let lastResponse = started;
  let responses = 0;
  const instance = autocannon({
    url: spec.url,
    connections: spec.connections,
    // With an amount autocannon ignores the duration: the timer below ends the run instead.
    ...(spec.amount === undefined ? { duration: spec.durationS } : { amount: spec.amount }),
    pipelining: 1,
    timeout: 10,
    requests: spec.requests,
  });
  instance.on('response', () => {
    responses += 1;
    lastResponse = performance.now();
  });
  const timer =
    spec.amount === undefined
      ? undefined
      : setTimeout(() => instance.stop(), spec.durationS * 1000);
  const result = await instance;
  if (timer) clearTimeout(timer);

  const statusCodes: Record<string, number> = {};
  let unexpected = 0;
  for (const [status, { count }] of Object.entries(result.statusCodeStats)) {
    statusCodes[status] = count;
    if (!spec.expected.includes(Number(status))) unexpected += count;
  }
  // autocannon closes a run on a whole-second tick; the rate is taken up to the last response.
  const durationS = Math.max((lastResponse - started) / 1000, 0.001);
  return {
    requests: responses,
    durationS,
    requestsPerSecond: responses / durationS,
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    errors: unexpected + result.errors,
    statusCodes,
  };
}
