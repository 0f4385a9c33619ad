import type { Logger } from 'pino';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { SHEETS_SEARCH } from './modules/search/substring/search-index.js';
import { openDatabase, type DatabaseHandle } from './db/index.js';
import { prepareSqliteSearchIndex } from './modules/search/substring/sqlite-index-file.js';
import { startSearchIndexer } from './modules/search/substring/search-indexer.js';
import { startVocabPruner } from './modules/search/substring/pg-token-vocab-prune.js';
import { createOutbox, createTxRunner } from './events/outbox.js';
import { createAccountsRepo } from './modules/accounts/accounts.repo.js';
import { createAccountsService } from './modules/accounts/accounts.service.js';
import { createWorkspacesRepo } from './modules/workspaces/workspaces.repo.js';
import { createWorkspacesService } from './modules/workspaces/workspaces.service.js';
import { createWorkspaceAccess } from './modules/workspaces/workspaces.access.js';
import { createSharesRepo } from './modules/shares/shares.repo.js';
import { createSharesService } from './modules/shares/shares.service.js';
import { createApiKeysRepo } from './modules/api-keys/api-keys.repo.js';
import { createApiKeysService } from './modules/api-keys/api-keys.service.js';
import { createExportsRepo } from './modules/exports/exports.repo.js';
import { createConsoleSessionsRepo } from './modules/console/console.repo.js';
import { createConsoleSessionsService } from './modules/console/console.service.js';
import { createExportsService } from './modules/exports/exports.service.js';
import { createSheetsRepo } from './modules/sheets/sheets.repo.js';
import { createSheetRevisionsRepo } from './modules/sheets/sheets.revisions.repo.js';
import { createSheetsService } from './modules/sheets/sheets.service.js';
import { createKnowledgeRepo } from './modules/knowledge/knowledge.repo.js';
import { createKnowledgeService } from './modules/knowledge/knowledge.service.js';
import { createSessionsRepo } from './modules/sessions/sessions.repo.js';
import { createSessionsService } from './modules/sessions/sessions.service.js';
import { createDistill } from './modules/distill/distill.start.js';
import { createBriefingService } from './modules/briefing/briefing.service.js';
import { createBriefingRepo } from './modules/briefing/briefing.repo.js';
import { createSearchService } from './modules/search/search.service.js';
import { createAccountExport } from './modules/account/account.export.js';
import { createAccountImport } from './modules/account/account.import.js';
import { createAccountRepo } from './modules/account/account.repo.js';
import pkg from '../package.json' with { type: 'json' };
import { createSparksRepo } from './modules/sparks/sparks.repo.js';
import { createSparksService } from './modules/sparks/sparks.service.js';
import { createProvider } from './sparks/providers/index.js';
import { createStatsRepo } from './modules/stats/stats.repo.js';
import { createStatsService } from './modules/stats/stats.service.js';
import { createTodosRepo } from './modules/todos/todos.repo.js';
import { createTodosService } from './modules/todos/todos.service.js';
import { createIdempotencyRepo } from './modules/idempotency/idempotency.repo.js';
import { createIdempotencyService } from './modules/idempotency/idempotency.service.js';
import { createSecretBox, loadServerKey } from './webhook-delivery/secrets.js';
import { createWebhooksRepo } from './modules/webhooks/webhooks.repo.js';
import { createWebhooksService } from './modules/webhooks/webhooks.service.js';
import { createEventsService } from './modules/events/events.service.js';
import { createOAuthClients, oauthHttpClient } from './modules/oauth/oauth.clients.js';
import { createOAuthRepo } from './modules/oauth/oauth.repo.js';
import { createOAuthService } from './modules/oauth/oauth.service.js';
import { createDeliveryEngine } from './webhook-delivery/delivery.js';
import { countPendingDeliveries, createMetrics } from './ops/metrics.js';
import { openRedis } from './ops/redis.js';
import { concurrencyGate } from './lib/concurrency-gate.js';

/** Wires every service once, by hand. Tests build one per database. */
export async function createContainer(config: Config, opts: { clock?: Clock; logger?: Logger } = {}) {
  const clock = opts.clock ?? systemClock;
  // Before the database opens: a half-configured AI provider stops the start with a ConfigError.
  const aiProvider = createProvider(config.ai);
  const database: DatabaseHandle = await openDatabase(config);
  const { db } = database;
  try {
    if (database.sqliteFile) prepareSqliteSearchIndex(database.sqliteFile);
  } catch (err) {
    await database.close();
    throw err;
  }
  const outbox = createOutbox(clock);
  const tx = createTxRunner(db, outbox);
  // SQLite: sheet writes queue their text for the search index; this indexes the queue after each commit.
  const searchIndexer = startSearchIndexer(db, SHEETS_SEARCH, (err) => opts.logger?.warn({ err }, 'search indexing failed; retried on the next write'));
  outbox.onCommitted(searchIndexer.nudge);
  // PostgreSQL: drops token vocabulary rows no sheet uses, a small batch at a time.
  const vocabPruner = startVocabPruner(db, (err) => opts.logger?.warn({ err }, 'token vocabulary pruning failed; retried on the next tick'));
  // Redis holds only the shared rate-limit counters; everything else lives in the database.
  const redis = config.redisUrl ? await openRedis(config.redisUrl, opts.logger) : undefined;
  const metrics = createMetrics({ defaultMetrics: !!opts.logger });

  const workspacesRepo = createWorkspacesRepo(db);
  // Decides every access to records in workspaces (docs/teams.md); each record service asks it.
  const access = createWorkspaceAccess(workspacesRepo);
  const apiKeys = createApiKeysService({
    repo: createApiKeysRepo(db),
    clock,
    access,
    onTouchError: (err) => opts.logger?.warn({ err }, 'could not update last_used_at'),
  });
  const accounts = createAccountsService({ db, repo: createAccountsRepo(db), workspaces: workspacesRepo, apiKeys, clock });
  const sharesRepo = createSharesRepo(db);
  const webhooksRepo = createWebhooksRepo(db);
  // A member who leaves or loses a role loses what they made with it (invitations, share links, webhooks).
  const workspaces = createWorkspacesService({ db, repo: workspacesRepo, clock, shares: sharesRepo, webhooks: webhooksRepo });
  const sheets = createSheetsService({
    repo: createSheetsRepo(db, { rankMaxMatches: config.searchRankMaxMatches, pgSearchGate: database.dialect === 'postgres' ? concurrencyGate(config.searchConcurrency) : undefined }),
    revisions: createSheetRevisionsRepo(db),
    access,
    outbox,
    tx,
    clock,
    revisionsKeep: config.revisionsKeep,
  });
  const todosRepo = createTodosRepo(db);
  const todos = createTodosService({ repo: todosRepo, access, outbox, tx, clock });
  const idempotency = createIdempotencyService({ repo: createIdempotencyRepo(db), clock, box: createSecretBox(loadServerKey(config)) });
  const knowledge = createKnowledgeService({ repo: createKnowledgeRepo(db), access, outbox, tx, clock });
  // Optional LLM distillation (DISTILL=1, docs/distillation.md): session writes queue their session; a runner calls the provider later.
  const distill = createDistill({ db, access, knowledge, tx, outbox, clock, provider: aiProvider, config, logger: opts.logger });
  const sessions = createSessionsService({ repo: createSessionsRepo(db), access, todos: todosRepo, sheets, outbox, tx, clock, onWritten: distill.service.queue });
  // GET /v1/search: triggers queue each changed record; this indexes the queue after each commit and before each search.
  const search = createSearchService({
    db,
    access,
    workspaces: workspacesRepo,
    onIndexError: (err) => opts.logger?.warn({ err }, 'search indexing failed; retried on the next write'),
    embeddings: config.embeddings,
    onEmbedError: (err, message) => opts.logger?.warn({ err }, message),
  });
  outbox.onCommitted(search.indexer.nudge);
  // Semantic search (EMBEDDINGS_URL): records are embedded in the background after each commit, never in a request.
  if (search.embedder) outbox.onCommitted(search.embedder.nudge);
  const briefing = createBriefingService({ sessions, todos: todosRepo, knowledge, search, repo: createBriefingRepo(db), access, clock });
  search.indexer.nudge();
  search.embedder?.nudge();
  const sparks = createSparksService({
    ...{ repo: createSparksRepo(db), access, outbox, tx, clock, sheets, provider: aiProvider, timeoutMs: config.ai.timeoutMs },
    onProviderError: (err, message) => opts.logger?.warn({ err }, message),
  });
  const stats = createStatsService({ repo: createStatsRepo(db), access, clock });
  const exports = createExportsService({ repo: createExportsRepo(db), access, sheets, outbox, tx, clock });
  const accountRepo = createAccountRepo(db);
  const accountExport = createAccountExport({ repo: accountRepo, serviceVersion: pkg.version, now: () => clock.now() });
  const consoleSessions = createConsoleSessionsService({ repo: createConsoleSessionsRepo(db), apiKeys, clock });
  const oauthRepo = createOAuthRepo(db);
  const oauthClients = createOAuthClients({ repo: oauthRepo, clock, client: oauthHttpClient(config.webhooks) });
  const oauth = createOAuthService({ db, repo: oauthRepo, clients: oauthClients, clock, access, workspaces, onTouchError: (err) => opts.logger?.warn({ err }, "could not update a grant's last_used_at") });
  // The worker itself is started by server.ts (or a test), not here: API-only processes share this engine for POST /webhooks/{id}/test.
  const webhookDelivery = createDeliveryEngine({ db, dialect: database.dialect, clock, config, onAttempt: metrics.observeDeliveryAttempt });
  metrics.setQueueDepthSource(() => countPendingDeliveries(db));
  const webhooks = createWebhooksService({ repo: webhooksRepo, access, tx, clock, engine: webhookDelivery, wake: () => outbox.committed({ deliveriesDue: true, workspaces: [] }) });
  const events = createEventsService({
    db,
    outbox,
    access,
    clock,
    dialect: database.dialect,
    databaseUrl: config.databaseUrl,
    pollMs: config.eventStreamPollMs,
    heartbeatMs: config.eventStreamHeartbeatMs,
    caps: config.eventStreamCaps,
    onRead: (kind) => metrics.eventStreamOutboxReads.inc({ kind }),
    logger: opts.logger,
  });

  return {
    config,
    clock,
    database,
    db,
    outbox,
    tx,
    searchIndexer,
    redis,
    metrics,
    apiKeys,
    accounts,
    workspaces,
    access,
    shares: createSharesService({ repo: sharesRepo, sheets, clock }),
    sheets,
    sessions,
    briefing,
    search,
    knowledge,
    distill: distill.service,
    distillRunner: distill.runner,
    sparks,
    todos,
    idempotency,
    stats,
    exports,
    accountExport,
    accountImport: createAccountImport({ accounts, apiKeys, sheets, sessions, knowledge, todos, stats, sparks, webhooks, repo: accountRepo }),
    consoleSessions,
    oauth,
    oauthClients,
    webhookDelivery,
    webhooks,
    events,
    async close() {
      await events.close();
      await distill.close();
      await webhookDelivery.close();
      await oauthClients.close();
      await searchIndexer.close();
      await search.close();
      await vocabPruner.close();
      await redis?.close();
      await database.close();
    },
  };
}
export type Container = Awaited<ReturnType<typeof createContainer>>;
