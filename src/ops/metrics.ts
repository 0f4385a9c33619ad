import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../db/types.js';

/**
 * Every Prometheus metric of the service, one registry per container (so two
 * servers in one test process do not share counts). GET /metrics serves
 * `registry`. The webhook worker increments the webhook* metrics and points
 * `setQueueDepthSource` at a query counting pending deliveries.
 */
export function createMetrics(opts: { defaultMetrics?: boolean } = {}) {
  const registry = new Registry();
  if (opts.defaultMetrics) collectDefaultMetrics({ register: registry });

  let queueDepthSource: (() => Promise<number>) | undefined;

  const metrics = {
    registry,
    httpRequests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from request to response, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    hotPathAnswers: new Counter({
      name: 'http_hot_path_answers_total',
      help: 'Answers given by a hot path before the framework (src/http/hot-path.ts), by route pattern; also counted in http_requests_total',
      labelNames: ['route'] as const,
      registers: [registry],
    }),
    rateLimitRejections: new Counter({
      name: 'rate_limit_rejections_total',
      help: 'Requests refused with 429: kind="plan" (account over its plan), kind="auth_failure" (address over its failed-auth limit) or kind="shared_read" (address over its share-link reads)',
      labelNames: ['kind'] as const,
      registers: [registry],
    }),
    rateLimitStoreErrors: new Counter({
      name: 'rate_limit_store_errors_total',
      help: 'Requests let through without counting because the Redis counter store was unreachable (fail open)',
      registers: [registry],
    }),
    eventStreamOutboxReads: new Counter({
      name: 'event_stream_outbox_reads_total',
      help: 'Outbox queries for GET /v1/events/stream: kind="shared" (one per wake of an account, for all its live streams) or kind="catch_up" (one stream resuming or behind)',
      labelNames: ['kind'] as const,
      registers: [registry],
    }),
    webhookDeliveryAttempts: new Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts (each POST to a receiver, retries included)',
      registers: [registry],
    }),
    webhookDeliverySuccesses: new Counter({
      name: 'webhook_delivery_successes_total',
      help: 'Webhook delivery attempts answered with 2xx',
      registers: [registry],
    }),
    webhookDeliveryFailures: new Counter({
      name: 'webhook_delivery_failures_total',
      help: 'Webhook delivery attempts that failed, by reason (http_status, timeout, network, refused)',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    webhookQueueDepth: new Gauge({
      name: 'webhook_queue_depth',
      help: 'Webhook deliveries waiting to be sent (pending, due now or later)',
      registers: [registry],
      async collect() {
        if (!queueDepthSource) return;
        try {
          this.set(await queueDepthSource());
        } catch {
          /* the database being down shows in /readyz; keep the last value */
        }
      },
    }),
    /** One call per delivery attempt (the worker's AttemptResult fits): attempts, successes, failures by reason. */
    observeDeliveryAttempt(result: { ok: boolean; statusCode: number | null; error: string | null }) {
      metrics.webhookDeliveryAttempts.inc();
      if (result.ok) metrics.webhookDeliverySuccesses.inc();
      else metrics.webhookDeliveryFailures.inc({ reason: failureReason(result) });
    },
    /** The worker calls this once with a function that counts pending deliveries. */
    setQueueDepthSource(source: () => Promise<number>) {
      queueDepthSource = source;
    },
  };
  return metrics;
}
export type Metrics = ReturnType<typeof createMetrics>;

function failureReason(r: { statusCode: number | null; error: string | null }): string {
  if (r.statusCode !== null) return 'http_status';
  const e = (r.error ?? '').toLowerCase();
  if (/time(d)? ?out|aborted/.test(e)) return 'timeout';
  if (/refus|not allowed|private|loopback|link-local|reserved/.test(e)) return 'refused';
  return 'network';
}

/** The queue-depth gauge's source: deliveries still pending (due now or waiting for a retry). */
export async function countPendingDeliveries(db: Db): Promise<number> {
  const row = await db
    .selectFrom('deliveries')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
