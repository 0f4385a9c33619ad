import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db, Dialect } from '../db/types.js';
import type { Outbox } from '../events/outbox.js';
import type { DeliveryEngine } from './delivery.js';
import { startOutboxNotifier, startWebhookWorker, type WebhookWorker, type WorkerOptions } from './worker.js';

/** What a worker needs of the container (src/container.ts satisfies it; the domain layer does not import the app). */
export interface WorkerHost {
  db: Db;
  database: { dialect: Dialect };
  outbox: Outbox;
  webhookDelivery: DeliveryEngine;
  clock: Clock;
  config: Pick<Config, 'databaseUrl' | 'webhooks'>;
}

/** Runs a delivery worker over a container's database (server.ts modes all/worker, and tests). */
export function startContainerWorker(c: WorkerHost, opts: WorkerOptions & { logger?: Parameters<typeof startWebhookWorker>[0]['logger'] } = {}): Promise<WebhookWorker> {
  return startWebhookWorker(
    {
      db: c.db,
      dialect: c.database.dialect,
      outbox: c.outbox,
      engine: c.webhookDelivery,
      clock: c.clock,
      databaseUrl: c.config.databaseUrl,
      logger: opts.logger,
    },
    { ...opts, perWebhook: opts.perWebhook ?? c.config.webhooks.maxInFlight },
  );
}

/** NOTIFY workers in other processes after each local commit (PostgreSQL; a no-op on SQLite). */
export function startContainerNotifier(c: Pick<WorkerHost, 'db' | 'database' | 'outbox'>, logger?: Pick<Logger, 'warn'>): () => void {
  return startOutboxNotifier({ db: c.db, dialect: c.database.dialect, outbox: c.outbox, logger });
}

export type { WebhookWorker, WorkerOptions };
