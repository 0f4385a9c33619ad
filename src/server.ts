import { pino } from 'pino';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { createContainer } from './container.js';
import { startContainerNotifier, startContainerWorker } from './webhooks/start.js';

export type ServeMode = 'all' | 'api' | 'worker';

const PURGE_INTERVAL_MS = 3600_000;

/** Starts the process: migrations, bootstrap owner, HTTP, background jobs, and a draining SIGTERM. */
export async function serve({ mode }: { mode: ServeMode }): Promise<void> {
  const config = loadConfig();
  const logger = pino({ level: config.logLevel });
  const c = await createContainer(config, { logger });

  if (config.bootstrapOwner) {
    const owner = await c.accounts.bootstrapOwner();
    if (owner) {
      process.stdout.write(
        `\nCreated the owner account ${owner.user_id} (business plan). Its API key, shown only now:\n\n  ${owner.api_key}\n\n`,
      );
    }
  }

  // Worker mode serves no HTTP, so it can run beside an API process on the same PORT.
  const app = mode === 'worker' ? null : await buildApp(c, { logger: { level: config.logLevel } });
  const worker = mode !== 'api' && config.webhooks.worker ? await startContainerWorker(c, { logger }) : null;
  const unnotify = mode !== 'worker' ? startContainerNotifier(c, logger) : () => {};
  const purge = () => {
    c.sheets.purgeTrash().catch((err) => logger.warn({ err }, 'trash purge failed'));
    c.exports.purgeExpired().catch((err) => logger.warn({ err }, 'expired export purge failed'));
  };
  void purge();
  const purgeTimer = setInterval(purge, PURGE_INTERVAL_MS).unref();

  await app?.listen({ port: config.port, host: config.host });
  logger.info({ mode, url: app ? `http://${config.host}:${config.port}/v1` : null, webhookWorker: !!worker, database: c.database.dialect }, 'Sheet Workspace is up');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'draining');
    clearInterval(purgeTimer);
    await app?.close();
    unnotify();
    // In-flight deliveries finish and are recorded; anything unsent stays queued in the database.
    await worker?.stop();
    await c.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
