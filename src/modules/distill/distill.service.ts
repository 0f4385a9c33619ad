import { randomBytes } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { Db, KnowledgeSuggestionsTable, SessionsTable, Trx } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { TxRunner } from '../../events/outbox.js';
import { newId } from '../../ids.js';
import { completeWith } from '../../sparks/complete.js';
import type { AiProvider } from '../../sparks/providers/index.js';
import type { TokenUsage } from '../../sparks/providers/provider.js';
import type { KnowledgeService } from '../knowledge/knowledge.service.js';
import type { Caller, WorkspaceAccess } from '../workspaces/workspaces.access.js';
import { SYSTEM_PROMPT, buildUserPrompt, estimateTokens, inputHash, parseAnswer, type Distilled } from './distill.prompt.js';
import type { DistillRepo } from './distill.repo.js';

/** Provider calls per session for one change of it: the first and two retries, then it waits for the next change. */
export const MAX_ATTEMPTS = 3;
/** How long a claimed run holds its session beyond the provider's timeout before another worker may take it. */
const LEASE_EXTRA_MS = 60_000;
const SUGGESTIONS_DEFAULT = 50;
const SUGGESTIONS_MAX = 200;

export interface DistillSettings {
  enabled: boolean;
  /** Tokens (in + out) an account may spend per UTC day. */
  dailyTokens: number;
  /** How long after its last change a session is distilled; retries wait this, doubled per attempt. */
  debounceMs: number;
}

const utcDay = (d: Date) => d.toISOString().slice(0, 10);
const nextUtcMidnight = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)).toISOString();
const hasItems = (json: string) => json !== '[]' && json !== '';
export const capNote = (cap: number) => `distillation skipped: the daily token cap of ${cap} was reached; it resumes tomorrow`;

/** A session worth distilling: captured by a client, or carrying a record of the work (prompts, failed commands, tasks). */
function distillable(row: SessionsTable): boolean {
  return row.source === 'capture' || hasItems(row.prompts) || hasItems(row.errors) || hasItems(row.tasks_done);
}

const suggestionKey = (s: { error: string }) => s.error.trim().toLowerCase().replace(/\s+/g, ' ');

/**
 * Optional LLM distillation of sessions (docs/distillation.md). A session change queues the session in
 * the change's own transaction (`queue`); the runner (distill.runner.ts) calls `runDue` off the request
 * path, one session at a time. Every provider call is recorded with its tokens; an account past its
 * daily cap gets a note on the session instead of a call. Nothing happens, and nothing is sent, unless
 * DISTILL=1 and an AI provider is configured.
 */
export function createDistillService(deps: {
  db: Db;
  repo: DistillRepo;
  access: WorkspaceAccess;
  knowledge: Pick<KnowledgeService, 'create'>;
  tx: TxRunner;
  clock: Clock;
  provider: AiProvider | undefined;
  timeoutMs: number;
  settings: DistillSettings;
  /** Told the earliest time a queued session is due (the runner sets its timer). */
  onQueued?: (dueMs: number) => void;
  onProviderError?: (err: unknown, message: string) => void;
}) {
  const { db, repo, access, knowledge, tx, clock, provider, settings } = deps;
  const enabled = settings.enabled && provider !== undefined;
  const retryDelay = (attempt: number) => settings.debounceMs * 2 ** attempt;

  async function recordRun(exec: Trx | Db, session: SessionsTable, model: string, usage: TokenUsage, outcome: 'ok' | 'failed' | 'bad_answer') {
    const now = clock.now();
    await repo.insertRun(exec, {
      id: newId('drn', now.getTime()),
      session_id: session.id,
      account_id: session.user_id,
      day: utcDay(now),
      model,
      tokens_in: usage.input,
      tokens_out: usage.output,
      outcome,
      created_at: now.toISOString(),
    });
  }

  /** A failed attempt: retried after a pause while attempts remain, else left until the session changes again. */
  async function failed(sessionId: string, claim: string, attempts: number, why: string) {
    const now = clock.now();
    const retry = attempts < MAX_ATTEMPTS;
    const at = new Date(now.getTime() + retryDelay(attempts));
    const note = retry
      ? `distillation did not complete: ${why}; it is tried again at ${at.toISOString()} (attempt ${attempts} of ${MAX_ATTEMPTS})`
      : `distillation did not complete after ${MAX_ATTEMPTS} attempts: ${why}; it runs again when the session changes`;
    await repo.finish(db, sessionId, claim, { state: 'failed', due_at: retry ? at.toISOString() : null, note, updated_at: now.toISOString() });
  }

  /** The result on the session, and its knowledge entries in the review queue (new ones only; what was dismissed stays dismissed). */
  async function store(session: SessionsTable, claim: string, hash: string, result: Distilled, usage: TokenUsage) {
    const model = provider!.model;
    await tx(async (trx) => {
      const now = clock.now().toISOString();
      await recordRun(trx, session, model, usage, 'ok');
      const stored = {
        summary: result.summary,
        decisions: JSON.stringify(result.decisions),
        learnings: JSON.stringify(result.learnings),
        model,
        distilled_at: now,
        input_hash: hash,
        note: null,
        updated_at: now,
      };
      // Queued again while this ran: the result is kept and the newer change still runs.
      if (!(await repo.finish(trx, session.id, claim, { ...stored, state: 'done', due_at: null, attempts: 0 }))) await repo.storeResult(trx, session.id, stored);
      const existing = await repo.suggestionsOf(session.id, trx);
      const wanted = new Map(result.knowledge.map((k) => [suggestionKey(k), k]));
      await repo.removePending(
        trx,
        existing.filter((s) => s.status === 'pending' && !wanted.has(suggestionKey(s))).map((s) => s.id),
      );
      const known = new Set(existing.map(suggestionKey));
      const fresh: KnowledgeSuggestionsTable[] = [...wanted.entries()]
        .filter(([key]) => !known.has(key))
        .map(([, k]) => ({
          id: newId('ksg', Date.parse(now)),
          workspace_id: session.workspace_id,
          user_id: session.user_id,
          session_id: session.id,
          ...k,
          status: 'pending',
          knowledge_id: null,
          created_at: now,
          decided_at: null,
          decided_by: null,
        }));
      await repo.insertSuggestions(trx, fresh);
    });
  }

  return {
    enabled,

    /** Queues a session a write just saved, in that write's transaction (a no-op when distillation is off). */
    async queue(trx: Trx, row: SessionsTable): Promise<void> {
      if (!enabled || !distillable(row)) return;
      const now = clock.now();
      const due = now.getTime() + settings.debounceMs;
      await repo.queue(trx, { session_id: row.id, workspace_id: row.workspace_id, due_at: new Date(due).toISOString(), now: now.toISOString() });
      deps.onQueued?.(due);
    },

    /** The earliest due time of a queued session (ms), for the runner. */
    async nextDue(): Promise<number | undefined> {
      const due = await repo.nextDue();
      return due ? Date.parse(due) : undefined;
    },

    /** Distils the session due first, if any; false when none is due. Never throws for a provider failure (it becomes the session's note). */
    async runDue(): Promise<boolean> {
      if (!enabled) return false;
      const now = clock.now();
      const claim = randomBytes(8).toString('hex');
      const lease = new Date(now.getTime() + deps.timeoutMs + LEASE_EXTRA_MS).toISOString();
      const queued = await tx((trx) => repo.claimDue(trx, now.toISOString(), lease, claim));
      if (!queued) return false;
      const session = await db.selectFrom('sessions').selectAll().where('id', '=', queued.session_id).executeTakeFirst();
      if (!session) {
        await repo.finish(db, queued.session_id, claim, { state: 'failed', due_at: null, note: 'distillation skipped: the session is gone', updated_at: now.toISOString() });
        return true;
      }
      const user = buildUserPrompt(session);
      const hash = inputHash(user);
      if (hash === queued.input_hash && queued.distilled_at) {
        // Saved again without a change to what would be sent: the stored result stands, no call.
        await repo.finish(db, session.id, claim, { state: 'done', due_at: null, attempts: 0, note: null, updated_at: now.toISOString() });
        return true;
      }
      const account = session.user_id;
      const used = await repo.usage(account, utcDay(now));
      if (used.tokens_in + used.tokens_out >= settings.dailyTokens) {
        await repo.finish(db, session.id, claim, { state: 'capped', due_at: nextUtcMidnight(now), attempts: 0, note: capNote(settings.dailyTokens), updated_at: now.toISOString() });
        return true;
      }

      let usage: TokenUsage | undefined;
      let answer: string;
      try {
        answer = await completeWith(provider, deps.timeoutMs, { system: SYSTEM_PROMPT, user, onUsage: (u) => (usage = u) }, deps.onProviderError);
      } catch (err) {
        await recordRun(db, session, provider!.model, usage ?? { input: 0, output: 0 }, 'failed');
        await failed(session.id, claim, queued.attempts, err instanceof AppError ? err.message : 'the provider call failed');
        return true;
      }
      const spent = usage ?? { input: estimateTokens(SYSTEM_PROMPT + user), output: estimateTokens(answer) };
      const result = parseAnswer(answer);
      if (!result) {
        await recordRun(db, session, provider!.model, spent, 'bad_answer');
        await failed(session.id, claim, queued.attempts, `the model (${provider!.model}) did not answer with the JSON object asked for`);
        return true;
      }
      await store(session, claim, hash, result, spent);
      return true;
    },

    async listSuggestions(caller: Caller, query: { workspace_id?: string; limit?: number; offset?: number }) {
      const workspaceId = await access.workspaceFor(caller, query.workspace_id, 'records.read');
      const rows = await repo.listPending(workspaceId, Math.min(query.limit ?? SUGGESTIONS_DEFAULT, SUGGESTIONS_MAX), query.offset ?? 0);
      return rows.map((r) => ({ id: r.id, session_id: r.session_id, title: r.title, error: r.error, fix: r.fix, created_at: r.created_at, workspace_id: r.workspace_id }));
    },

    /** Creates the suggested solution through the knowledge service, in the suggestion's workspace. */
    async accept(caller: Caller, id: string): Promise<{ id: string; suggestion_id: string }> {
      const row = await access.ownedRow(await repo.findSuggestion(id), caller, 'knowledge suggestion', id, 'records.write');
      if (!(await repo.moveSuggestion(id, 'pending', { status: 'accepting' }))) throw decided(id, (await repo.findSuggestion(id))?.status);
      let created;
      try {
        created = await knowledge.create(caller, 'solutions', { title: row.title, error: row.error, content: row.fix, tags: ['distilled'], workspace_id: row.workspace_id });
      } catch (err) {
        await repo.moveSuggestion(id, 'accepting', { status: 'pending' });
        throw err;
      }
      const knowledgeId = created.type === 'solution' ? created.solution.id : created.snippet.id;
      await repo.moveSuggestion(id, 'accepting', { status: 'accepted', knowledge_id: knowledgeId, decided_at: clock.now().toISOString(), decided_by: caller.userId });
      return { id: knowledgeId, suggestion_id: id };
    },

    async dismiss(caller: Caller, id: string): Promise<{ id: string; dismissed: true }> {
      await access.ownedRow(await repo.findSuggestion(id), caller, 'knowledge suggestion', id, 'records.write');
      if (!(await repo.moveSuggestion(id, 'pending', { status: 'dismissed', decided_at: clock.now().toISOString(), decided_by: caller.userId }))) {
        throw decided(id, (await repo.findSuggestion(id))?.status);
      }
      return { id, dismissed: true };
    },

    /** The caller's distillation tokens today (UTC), the cap, and whether distillation runs at all. */
    async usage(caller: Caller) {
      const now = clock.now();
      const day = utcDay(now);
      const used = await repo.usage(caller.userId, day);
      return {
        enabled,
        model: enabled ? provider!.model : null,
        day,
        ...used,
        tokens: used.tokens_in + used.tokens_out,
        daily_cap: settings.dailyTokens,
      };
    },
  };
}
export type DistillService = ReturnType<typeof createDistillService>;

function decided(id: string, status: string | undefined): AppError {
  if (status === 'accepting') return new AppError('conflict', `knowledge suggestion ${id} is being accepted right now`);
  return new AppError('conflict', `knowledge suggestion ${id} was already ${status ?? 'removed'}`);
}
