import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/types.js';
import type { Outbox, TxRunner } from '../../events/outbox.js';
import type { AiProvider } from '../../sparks/providers/index.js';
import type { KnowledgeService } from '../knowledge/knowledge.service.js';
import type { WorkspaceAccess } from '../workspaces/workspaces.access.js';
import { createDistillRepo } from './distill.repo.js';
import { startDistillRunner, type DistillRunner } from './distill.runner.js';
import { createDistillService } from './distill.service.js';

/**
 * The distillation service and, when it is on, its runner. A session queued by a write wakes the runner
 * after that write commits (the outbox tells every commit), never inside the request.
 */
export function createDistill(deps: {
  db: Db;
  access: WorkspaceAccess;
  knowledge: Pick<KnowledgeService, 'create'>;
  tx: TxRunner;
  outbox: Outbox;
  clock: Clock;
  provider: AiProvider | undefined;
  config: Config;
  logger?: Logger;
}) {
  let wake = Infinity;
  const service = createDistillService({
    db: deps.db,
    repo: createDistillRepo(deps.db),
    access: deps.access,
    knowledge: deps.knowledge,
    tx: deps.tx,
    clock: deps.clock,
    provider: deps.provider,
    timeoutMs: deps.config.ai.timeoutMs,
    settings: deps.config.distill,
    onQueued: (due) => (wake = Math.min(wake, due)),
    onProviderError: (err, message) => deps.logger?.warn({ err }, message),
  });
  let runner: DistillRunner | undefined;
  if (service.enabled) {
    const started = startDistillRunner(service, (err) => deps.logger?.warn({ err }, 'distillation run failed; retried shortly'));
    runner = started;
    deps.outbox.onCommitted(() => {
      if (wake === Infinity) return;
      started.wakeAt(wake);
      wake = Infinity;
    });
  }
  return { service, runner, close: async () => runner?.close() };
}
