import type { Clock } from '../../clock.js';
import type { UserSparksTable } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { Outbox, TxRunner } from '../../events/outbox.js';
import { newId } from '../../ids.js';
import { completeWith } from '../../sparks/complete.js';
import { OFFLINE_RUNNERS } from '../../sparks/offline/index.js';
import { USER_SPARK_SYSTEM, fillTemplate, publicSystemPrompt, translateTask, wrapContent, type TargetLang } from '../../sparks/prompts.js';
import type { AiProvider } from '../../sparks/providers/index.js';
import { requireInWorkspace, type Caller, type WorkspaceAccess } from '../workspaces/workspaces.access.js';
import { PUBLIC_SPARKS, findPublicSpark } from './catalogue.js';
import type { SparksRepo } from './sparks.repo.js';
import { MAX_USER_SPARKS, type CreateSparkInput, type SparkView, type UpdateSparkInput } from './sparks.schemas.js';
import { listItem, publicView, userView } from './sparks.view.js';

export const TRANSLATE_SPARK = { id: 'translate', name: 'Translate' } as const;

/** Where a run happens: the spark to run, the text, and optionally the sheet it came from and the workspace it counts in. */
type RunTarget = { sheet_id?: string; workspace_id?: string };

export function createSparksService(deps: {
  repo: SparksRepo;
  outbox: Outbox;
  tx: TxRunner;
  clock: Clock;
  access: WorkspaceAccess;
  /** Read check for sheet_id (404 unknown, 403 one the caller may not read); its view names its workspace. */
  sheets: { get(caller: Caller, id: string): Promise<{ workspace_id: string }> };
  provider?: AiProvider;
  timeoutMs: number;
  /** Logs a provider failure in full; the client gets only the provider's name and status. */
  onProviderError?: (err: unknown, message: string) => void;
}) {
  const { repo, access, outbox, tx, clock, sheets, provider, timeoutMs } = deps;
  const complete = (req: { system: string; user: string }) => completeWith(provider, timeoutMs, req, deps.onProviderError);

  async function ownedUserSpark(caller: Caller, id: string, action: 'records.read' | 'records.write', wanted?: string) {
    return access.ownedRow(await repo.findById(id), caller, 'spark', id, action, wanted);
  }
  const changeable = (caller: Caller, id: string, wanted?: string) => {
    if (findPublicSpark(id)) throw new AppError('forbidden', `spark ${id} is a public spark and cannot be changed`);
    return ownedUserSpark(caller, id, 'records.write', wanted);
  };

  /**
   * The workspace a run counts in (GET /stats, spark.executed): the sheet's workspace when it names a
   * sheet (which the caller must be able to read), else workspace_id, else the personal one. Runs only read.
   */
  async function runOwner(caller: Caller, target: RunTarget): Promise<string> {
    if (!target.sheet_id) return access.workspaceFor(caller, target.workspace_id, 'records.read');
    const sheet = await sheets.get(caller, target.sheet_id);
    requireInWorkspace('sheet', target.sheet_id, sheet.workspace_id, target.workspace_id);
    return access.workspaceFor(caller, sheet.workspace_id, 'records.read');
  }

  /** Counts the run for GET /stats and tells webhooks, in one transaction. Only successful runs count. */
  async function recordRun(workspaceId: string, actorId: string, spark: { id: string; name: string }, sheetId: string | null) {
    const at = clock.now();
    await tx(async (trx) => {
      await repo.insertRun({ id: newId('run', at.getTime()), workspace_id: workspaceId, user_id: actorId, spark_id: spark.id, spark_name: spark.name, sheet_id: sheetId, created_at: at.toISOString() }, trx);
      await outbox.emit(
        trx,
        workspaceId,
        'spark.executed',
        {
          spark_id: spark.id,
          spark_name: spark.name,
          sheet_id: sheetId,
          executed_at: at.toISOString(),
        },
        actorId,
      );
    });
  }

  /** A public spark, or a user spark the caller may read (`wanted`: the workspace it is expected in). */
  async function get(caller: Caller, id: string, wanted?: string): Promise<SparkView> {
    const pub = findPublicSpark(id);
    if (pub) return publicView(pub);
    return userView(await ownedUserSpark(caller, id, 'records.read', wanted));
  }

  return {
    /** The public sparks and those of one workspace (default: personal). */
    async list(caller: Caller, workspaceId?: string) {
      const own = await repo.listInWorkspace(await access.workspaceFor(caller, workspaceId, 'records.read'));
      return {
        sparks: [...PUBLIC_SPARKS.map(publicView), ...own.map(userView)].map(listItem),
        ai_provider: (provider?.name ?? null) as 'openai' | 'anthropic' | null,
      };
    },

    get,

    async create(caller: Caller, input: CreateSparkInput): Promise<SparkView> {
      const { workspace_id, ...fields } = input;
      const workspaceId = await access.workspaceFor(caller, workspace_id, 'records.write');
      return tx(async (trx) => {
        if ((await repo.countInWorkspace(workspaceId, trx)) >= MAX_USER_SPARKS) {
          throw new AppError('invalid_request', `a workspace can have at most ${MAX_USER_SPARKS} sparks; delete one first`);
        }
        const now = clock.now();
        const row: UserSparksTable = {
          id: newId('spk', now.getTime()),
          workspace_id: workspaceId,
          user_id: caller.userId,
          ...fields,
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
        };
        await repo.insert(row, trx);
        return userView(row);
      });
    },

    async update(caller: Caller, id: string, input: UpdateSparkInput, wanted?: string): Promise<SparkView> {
      const row = await changeable(caller, id, wanted);
      const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<UserSparksTable>;
      if (Object.keys(patch).length === 0) return userView(row);
      patch.updated_at = clock.now().toISOString();
      await repo.update(id, patch);
      return userView({ ...row, ...patch });
    },

    async remove(caller: Caller, id: string, wanted?: string) {
      await changeable(caller, id, wanted);
      await repo.remove(id);
      return { id, deleted: true as const };
    },

    /** Runs a public or own spark on content. Checks run before the model is called, so a bad request costs nothing. */
    async run(caller: Caller, input: RunTarget & { spark_id: string; content: string }) {
      let spark: SparkView;
      let execute: () => Promise<string>;
      const pub = findPublicSpark(input.spark_id);
      if (pub) {
        spark = publicView(pub);
        execute = pub.kind === 'offline' ? async () => OFFLINE_RUNNERS[pub.runner](input.content) : () => complete({ system: publicSystemPrompt(pub.task), user: wrapContent(input.content) });
      } else {
        spark = await get(caller, input.spark_id);
        const template = spark.prompt!;
        execute = () => complete({ system: USER_SPARK_SYSTEM, user: fillTemplate(template, input.content) });
      }
      const owner = await runOwner(caller, input);
      const result = await execute();
      await recordRun(owner, caller.userId, spark, input.sheet_id ?? null);
      return { spark_id: spark.id, spark_name: spark.name, result };
    },

    async translate(caller: Caller, input: RunTarget & { content: string; target_lang: TargetLang }) {
      const owner = await runOwner(caller, input);
      const result = await complete({
        system: publicSystemPrompt(translateTask(input.target_lang)),
        user: wrapContent(input.content),
      });
      await recordRun(owner, caller.userId, TRANSLATE_SPARK, input.sheet_id ?? null);
      return { target_lang: input.target_lang, result };
    },
  };
}
export type SparksService = ReturnType<typeof createSparksService>;
