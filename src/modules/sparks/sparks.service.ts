import type { Clock } from '../../clock.js';
import type { UserSparksTable } from '../../db/types.js';
import { ownedRow } from '../../db/owned.js';
import { AppError } from '../../errors.js';
import type { Outbox, TxRunner } from '../../events/outbox.js';
import { newId } from '../../ids.js';
import { completeWith } from '../../sparks/complete.js';
import { OFFLINE_RUNNERS } from '../../sparks/offline/index.js';
import {
  USER_SPARK_SYSTEM,
  fillTemplate,
  publicSystemPrompt,
  translateTask,
  wrapContent,
  type TargetLang,
} from '../../sparks/prompts.js';
import type { AiProvider } from '../../sparks/providers/index.js';
import { PUBLIC_SPARKS, findPublicSpark, type Category, type PublicSpark } from './catalogue.js';
import type { SparksRepo } from './sparks.repo.js';
import { MAX_USER_SPARKS, type CreateSparkInput, type SparkView, type UpdateSparkInput } from './sparks.schemas.js';

export const TRANSLATE_SPARK = { id: 'translate', name: 'Translate' } as const;

function publicView(s: PublicSpark): SparkView {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    icon: s.icon,
    category: s.category,
    type: 'public',
    requires_ai: s.kind === 'model',
    prompt: s.kind === 'model' ? publicSystemPrompt(s.task) : null,
    created_at: null,
    updated_at: null,
  };
}

function userView(r: UserSparksTable): SparkView {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    icon: r.icon,
    category: r.category as Category,
    type: 'user',
    requires_ai: true,
    prompt: r.prompt,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

const listItem = ({ id, name, description, icon, category, type, requires_ai }: SparkView) => ({
  id, name, description, icon, category, type, requires_ai,
});

export function createSparksService(deps: {
  repo: SparksRepo;
  outbox: Outbox;
  tx: TxRunner;
  clock: Clock;
  /** Ownership check for sheet_id (404 unknown, 403 another account's). */
  sheets: { get(userId: string, id: string): Promise<unknown> };
  provider?: AiProvider;
  timeoutMs: number;
  /** Logs a provider failure in full; the client gets only the provider's name and status. */
  onProviderError?: (err: unknown, message: string) => void;
}) {
  const { repo, outbox, tx, clock, sheets, provider, timeoutMs } = deps;
  const complete = (req: { system: string; user: string }) => completeWith(provider, timeoutMs, req, deps.onProviderError);

  async function ownedUserSpark(userId: string, id: string) {
    if (findPublicSpark(id)) throw new AppError('forbidden', `spark ${id} is a public spark and cannot be changed`);
    return ownedRow(await repo.findById(id), userId, 'spark', id);
  }

  /** Counts the run for GET /stats and tells webhooks, in one transaction. Only successful runs count. */
  async function recordRun(userId: string, spark: { id: string; name: string }, sheetId: string | null) {
    const at = clock.now();
    await tx(async (trx) => {
      await repo.insertRun(
        { id: newId('run', at.getTime()), user_id: userId, spark_id: spark.id, spark_name: spark.name, sheet_id: sheetId, created_at: at.toISOString() },
        trx,
      );
      await outbox.emit(trx, userId, 'spark.executed', {
        spark_id: spark.id,
        spark_name: spark.name,
        sheet_id: sheetId,
        executed_at: at.toISOString(),
      });
    });
  }

  async function get(userId: string, id: string): Promise<SparkView> {
    const pub = findPublicSpark(id);
    if (pub) return publicView(pub);
    const row = ownedRow(await repo.findById(id), userId, 'spark', id);
    return userView(row);
  }

  return {
    async list(userId: string) {
      const own = await repo.listByUser(userId);
      return {
        sparks: [...PUBLIC_SPARKS.map(publicView), ...own.map(userView)].map(listItem),
        ai_provider: (provider?.name ?? null) as 'openai' | 'anthropic' | null,
      };
    },

    get,

    create(userId: string, input: CreateSparkInput): Promise<SparkView> {
      return tx(async (trx) => {
        if ((await repo.countByUser(userId, trx)) >= MAX_USER_SPARKS) {
          throw new AppError('invalid_request', `an account can have at most ${MAX_USER_SPARKS} sparks; delete one first`);
        }
        const now = clock.now();
        const row: UserSparksTable = {
          id: newId('spk', now.getTime()),
          user_id: userId,
          ...input,
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
        };
        await repo.insert(row, trx);
        return userView(row);
      });
    },

    async update(userId: string, id: string, input: UpdateSparkInput): Promise<SparkView> {
      const row = await ownedUserSpark(userId, id);
      const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<UserSparksTable>;
      if (Object.keys(patch).length === 0) return userView(row);
      patch.updated_at = clock.now().toISOString();
      await repo.update(id, patch);
      return userView({ ...row, ...patch });
    },

    async remove(userId: string, id: string) {
      await ownedUserSpark(userId, id);
      await repo.remove(id);
      return { id, deleted: true as const };
    },

    /** Runs a public or own spark on content. Checks run before the model is called, so a bad request costs nothing. */
    async run(userId: string, input: { spark_id: string; content: string; sheet_id?: string }) {
      let spark: SparkView;
      let execute: () => Promise<string>;
      const pub = findPublicSpark(input.spark_id);
      if (pub) {
        spark = publicView(pub);
        execute =
          pub.kind === 'offline'
            ? async () => OFFLINE_RUNNERS[pub.runner](input.content)
            : () => complete({ system: publicSystemPrompt(pub.task), user: wrapContent(input.content) });
      } else {
        spark = await get(userId, input.spark_id);
        const template = spark.prompt!;
        execute = () => complete({ system: USER_SPARK_SYSTEM, user: fillTemplate(template, input.content) });
      }
      if (input.sheet_id) await sheets.get(userId, input.sheet_id);
      const result = await execute();
      await recordRun(userId, spark, input.sheet_id ?? null);
      return { spark_id: spark.id, spark_name: spark.name, result };
    },

    async translate(userId: string, input: { content: string; target_lang: TargetLang; sheet_id?: string }) {
      if (input.sheet_id) await sheets.get(userId, input.sheet_id);
      const result = await complete({
        system: publicSystemPrompt(translateTask(input.target_lang)),
        user: wrapContent(input.content),
      });
      await recordRun(userId, TRANSLATE_SPARK, input.sheet_id ?? null);
      return { target_lang: input.target_lang, result };
    },
  };
}
export type SparksService = ReturnType<typeof createSparksService>;
