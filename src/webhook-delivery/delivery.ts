import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db, Dialect } from '../db/types.js';
import { paidPlan } from '../lib/plans.js';
import { TEST_EVENT, type ClaimedDelivery } from './claimed-delivery.js';
import { createDeliveryQueue } from './queue.js';
import { createSecretBox, loadServerKey, type SecretBox } from './secrets.js';
import { DELIVERY_TIMEOUT_MS, sendDelivery, type AttemptResult } from './sender.js';
import { createGuardedClient } from './guarded-client.js';

export interface AttemptOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** False once the worker was killed: its result is then left unrecorded, as if the process had died. */
  shouldRecord?: () => boolean;
  /** The receiver's part is over (answered, failed or never asked): called once, before the outcome is recorded. */
  onSent?: () => void;
}

/** What the worker and the test endpoint share: the queue, the guarded dispatcher and the server key. */
export function createDeliveryEngine(deps: {
  db: Db;
  dialect: Dialect;
  clock: Clock;
  config: Config;
  leaseMs?: number;
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
    leaseMs: deps.leaseMs ?? config.webhooks.leaseMs,
  });
  const client = createGuardedClient({
    allowPrivate: config.webhooks.allowPrivateTargets,
    caFile: config.webhooks.caFile,
    connectTimeoutMs: DELIVERY_TIMEOUT_MS,
  });

  function openSecret(sealed: string): { ok: true; value: string } | { ok: false; error: string } {
    try {
      return { ok: true, value: secrets.decrypt(sealed) };
    } catch {
      return { ok: false, error: "not sent: the webhook's secret cannot be decrypted with this server's key (SECRET_KEY or DATA_DIR/secret.key differs from the key it was stored under)" };
    }
  }

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
    const secret = openSecret(d.secret_enc);
    // A secret this server cannot open (SECRET_KEY differs from the key that sealed it) is a failed attempt
    // like any other, visible in the delivery log, instead of an error that leaves the delivery leased.
    const result = secret.ok
      ? await sendDelivery(client, { url: d.url, secret: secret.value, event: d.event, deliveryId: d.id, body: d.body }, { timeoutMs: opts.timeoutMs, signal: opts.signal })
      : { ok: false, statusCode: null, durationMs: 0, error: secret.error, responseBody: null };
    opts.onSent?.();
    if (secret.ok) deps.onAttempt?.(result);
    if (opts.shouldRecord && !opts.shouldRecord()) return result;
    await queue.record(d, result);
    return result;
  }

  return {
    queue,
    secrets,
    attempt,
    async close() {
      await client.close().catch(() => {});
    },
  };
}
export type DeliveryEngine = ReturnType<typeof createDeliveryEngine>;
