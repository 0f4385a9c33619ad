import autocannon from 'autocannon';

export interface LoadResult {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  requests: number;
  /** Responses outside 2xx, plus connection errors and timeouts. */
  failures: number;
}

export interface LoadSpec {
  url: string;
  method?: 'GET' | 'POST';
  /** A fixed path, or one chosen per request. */
  path: string | (() => string);
  body?: string;
  headers?: Record<string, string>;
  connections?: number;
  durationS: number;
  /** Requests per second across all connections (steady load instead of as fast as possible). */
  overallRate?: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** autocannon with our own latency list, since its histogram has no p95. */
export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const latencies: number[] = [];
  let failures = 0;
  const pathFn = typeof spec.path === 'function' ? spec.path : undefined;
  return new Promise((resolve, reject) => {
    const inst = autocannon(
      {
        url: spec.url,
        connections: spec.connections ?? 50,
        duration: spec.durationS,
        overallRate: spec.overallRate,
        requests: [
          {
            method: spec.method ?? 'GET',
            path: typeof spec.path === 'string' ? spec.path : undefined,
            body: spec.body,
            headers: { 'content-type': 'application/json', ...spec.headers },
            ...(pathFn ? { setupRequest: (req: autocannon.Request) => ({ ...req, path: pathFn() }) } : {}),
          },
        ],
      },
      (err, result) => {
        if (err) return reject(err);
        latencies.sort((a, b) => a - b);
        const seconds = (result.duration ?? spec.durationS) || spec.durationS;
        const round = (x: number) => Math.round(x * 10) / 10;
        resolve({
          rps: latencies.length / seconds,
          p50: round(percentile(latencies, 50)),
          p95: round(percentile(latencies, 95)),
          p99: round(percentile(latencies, 99)),
          requests: latencies.length,
          failures: failures + result.errors + result.timeouts,
        });
      },
    );
    inst.on('response', (_client, status, _bytes, ms) => {
      latencies.push(ms);
      if (status < 200 || status >= 300) failures++;
    });
  });
}
