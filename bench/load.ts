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

/**
 * A steady rate for real: request i starts at i / rate seconds, over a pool of `connections` kept-alive
 * connections. autocannon's overallRate lets each second's quota go at once, at the start of the second
 * (three quarters of a 200/s load arrived in the first half of each second), so latency figures under it
 * measure a burst every second rather than the rate.
 */
export async function runPaced(spec: LoadSpec & { rate: number }): Promise<LoadResult> {
  const { Pool } = await import('undici');
  const origin = new URL(spec.url).origin;
  const pool = new Pool(origin, { connections: spec.connections ?? 10, pipelining: 1 });
  const latencies: number[] = [];
  let failures = 0;
  const total = Math.round(spec.rate * spec.durationS);
  const started = performance.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / spec.rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const t0 = performance.now();
    const path = typeof spec.path === 'function' ? spec.path() : spec.path;
    inflight.push(
      pool
        .request({ method: spec.method ?? 'GET', path, body: spec.body, headers: { 'content-type': 'application/json', ...spec.headers } })
        .then(async (res) => {
          await res.body.arrayBuffer();
          latencies.push(performance.now() - t0);
          if (res.statusCode < 200 || res.statusCode >= 300) failures++;
        })
        .catch(() => void failures++),
    );
  }
  await Promise.all(inflight);
  await pool.close();
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    rps: latencies.length / seconds,
    p50: round(percentile(latencies, 50)),
    p95: round(percentile(latencies, 95)),
    p99: round(percentile(latencies, 99)),
    requests: total,
    failures,
  };
}
