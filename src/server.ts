import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { createContainer } from './container.js';
import { IDLE_COLLECT_MS, startIdleCollector } from './runtime/idle-gc.js';
import { loggerOptions, startBanner, urlHost } from './logging.js';
import { startContainerNotifier, startContainerWorker } from './webhook-delivery/start.js';

export type ServeMode = 'all' | 'api' | 'worker';

const PURGE_INTERVAL_MS = 3600_000;
const FIRST_PURGE_DELAY_MS = 5_000;
/** A drain that takes longer than this (a hung request or receiver) ends with exit code 1. */
const DRAIN_TIMEOUT_MS = 30_000;

/** Starts the process: migrations, bootstrap owner, HTTP, background jobs, and a draining SIGTERM. */
export async function serve({ mode }: { mode: ServeMode }): Promise<void> {
  const config = loadConfig();
  const logger = pino(loggerOptions(config.logLevel));
  const c = await createContainer(config, { logger });

  const owner = config.bootstrapOwner ? await c.accounts.bootstrapOwner() : null;

  // Worker mode serves no HTTP, so it can run beside an API process on the same PORT.
  const requestLog = process.stdout.isTTY ? 'line' : 'records';
  const app = mode === 'worker' ? null : await buildApp(c, { logger: loggerOptions(config.logLevel), requestLog });
  const worker = mode !== 'api' && config.webhooks.worker ? await startContainerWorker(c, { logger }) : null;
  const unnotify = mode !== 'worker' ? startContainerNotifier(c, logger) : () => {};
  const purge = () => {
    // After the trash purge, so the exports of the sheets it removed go in the same round.
    c.sheets
      .purgeTrash()
      .catch((err) => logger.warn({ err }, 'trash purge failed'))
      .then(() => c.exports.purgeExpired())
      .catch((err) => logger.warn({ err }, 'expired export purge failed'));
    c.consoleSessions.purgeExpired().catch((err) => logger.warn({ err }, 'expired console session purge failed'));
    c.idempotency.purgeExpired().catch((err) => logger.warn({ err }, 'expired idempotency key purge failed'));
  };
  // The first purge runs shortly after start, not before listening. Trashed sheets are found
  // through their own index (migration 017): 0.6-3 ms at 100,000 sheets, where a scan took
  // 240-290 ms warm and 5 s cold.
  const firstPurge = setTimeout(purge, FIRST_PURGE_DELAY_MS).unref();
  const purgeTimer = setInterval(purge, PURGE_INTERVAL_MS).unref();

  const idle = startIdleCollector({
    idleMs: IDLE_COLLECT_MS,
    onCollect: ({ ms, usedBefore, usedAfter }) => logger.debug({ ms: Math.round(ms), usedBeforeMb: Math.round(usedBefore / 2 ** 20), usedAfterMb: Math.round(usedAfter / 2 ** 20) }, 'idle heap collection'),
  });
  // A raw listener, not a Fastify hook: it is one assignment per request.
  app?.server.on('request', idle.touch);

  await app?.listen({ port: config.port, host: config.host });
  const root = app ? (config.publicUrl ?? `http://${urlHost(config.host)}:${(app.server.address() as AddressInfo).port}`) : null;
  if (root || owner) process.stdout.write(startBanner(root, owner));
  logger.info({ mode, url: app ? `http://${config.host}:${(app.server.address() as AddressInfo).port}/v1` : null, webhookWorker: !!worker, database: c.database.dialect }, 'Sheet Workspace is up');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'draining');
    setTimeout(() => {
      logger.error({ timeoutMs: DRAIN_TIMEOUT_MS }, 'drain timed out; exiting');
      process.exit(1);
    }, DRAIN_TIMEOUT_MS).unref();
    clearTimeout(firstPurge);
    clearInterval(purgeTimer);
    idle.stop();
    try {
      // Stop accepting (new requests get 503, idle keep-alive sockets close) and finish in-flight
      // requests, while in-flight deliveries finish and are recorded; unsent ones stay queued in the database.
      await Promise.all([app?.close().finally(unnotify), worker?.stop()]);
      await c.close();
    } catch (err) {
      logger.error({ err }, 'error while draining');
      process.exit(1);
    }
    logger.info({ signal }, 'drained; exiting');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
