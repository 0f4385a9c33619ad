import type { Logger } from 'pino';
import type { Container } from '../container.js';
import { startOutboxNotifier, startWebhookWorker, type WebhookWorker, type WorkerOptions } from './worker.js';

/** Runs a delivery worker over a container's database (server.ts modes all/worker, and tests). */
export function startContainerWorker(
  c: Container,
  opts: WorkerOptions & { logger?: Parameters<typeof startWebhookWorker>[0]['logger'] } = {},
): Promise<WebhookWorker> {
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
export function startContainerNotifier(c: Container, logger?: Pick<Logger, 'warn'>): () => void {
  return startOutboxNotifier({ db: c.db, dialect: c.database.dialect, outbox: c.outbox, logger });
}

export type { WebhookWorker, WorkerOptions };
