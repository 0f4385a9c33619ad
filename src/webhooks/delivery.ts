import fs from 'node:fs';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db, Dialect } from '../db/types.js';
import { createDeliveryQueue, paidPlan, TEST_EVENT, type ClaimedDelivery } from './queue.js';
import { createSecretBox, loadServerKey, type SecretBox } from './secrets.js';
import { DELIVERY_TIMEOUT_MS, sendDelivery, type AttemptResult } from './sender.js';
import { createWebhookDispatcher } from './ssrf-dispatcher.js';

/** A lease comfortably longer than one attempt (5 s) plus recording it. */
export const DEFAULT_LEASE_MS = 60_000;

export interface AttemptOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** False once the worker was killed: its result is then left unrecorded, as if the process had died. */
  shouldRecord?: () => boolean;
}

/** What the worker and the test endpoint share: the queue, the guarded dispatcher and the server key. */
export function createDeliveryEngine(deps: {
  db: Db;
  dialect: Dialect;
  clock: Clock;
  config: Config;
  leaseMs?: number;
  ca?: string;
  /** Called after every POST to a receiver (the /metrics delivery counters). */
  onAttempt?: (result: AttemptResult) => void;
}) {
  const { config } = deps;
  const secrets: SecretBox = createSecretBox(loadServerKey(config));
  const queue = createDeliveryQueue({
    db: deps.db,
    dialect: deps.dialect,
    clock: deps.clock,
    retrySchedule: config.webhooks.retrySchedule,
    leaseMs: deps.leaseMs ?? DEFAULT_LEASE_MS,
  });
  const ca = deps.ca ?? (config.webhooks.caFile ? fs.readFileSync(config.webhooks.caFile, 'utf8') : undefined);
  const dispatcher = createWebhookDispatcher({
    allowPrivate: config.webhooks.allowPrivateTargets,
    ca,
    connectTimeoutMs: DELIVERY_TIMEOUT_MS,
  });

  /** Sends one claimed delivery and records the outcome. Returns null when nothing was sent. */
  async function attempt(d: ClaimedDelivery, opts: AttemptOptions = {}): Promise<AttemptResult | null> {
    if (d.event !== TEST_EVENT && d.webhook_status !== 'enabled') {
      await queue.stop(d, 'the webhook is disabled');
      return null;
    }
    if (!paidPlan(d.plan)) {
      await queue.stop(d, 'the account is on the free plan; webhook delivery needs the Pro plan');
      return null;
    }
    const result = await sendDelivery(
      dispatcher,
      { url: d.url, secret: secrets.decrypt(d.secret_enc), event: d.event, deliveryId: d.id, body: d.body },
      { timeoutMs: opts.timeoutMs, signal: opts.signal },
    );
    deps.onAttempt?.(result);
    if (opts.shouldRecord && !opts.shouldRecord()) return result;
    await queue.record(d, result);
    return result;
  }

  return {
    queue,
    secrets,
    attempt,
    async close() {
      await dispatcher.close().catch(() => {});
    },
  };
}
export type DeliveryEngine = ReturnType<typeof createDeliveryEngine>;
