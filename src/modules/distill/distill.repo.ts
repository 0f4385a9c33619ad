import { dialectOf, skipLockedSuffix } from '../../db/dialect.js';
import type { Db, DistillRunsTable, Executor, KnowledgeSuggestionsTable, SessionDistillsTable } from '../../db/types.js';

type SuggestionStatus = KnowledgeSuggestionsTable['status'];

export function createDistillRepo(db: Db) {
  return {
    /** Queues the session (or moves its due time): the row commits with the session change that queued it. */
    async queue(exec: Executor, row: { session_id: string; workspace_id: string; due_at: string; now: string }) {
      await exec
        .insertInto('session_distills')
        .values({ session_id: row.session_id, workspace_id: row.workspace_id, state: 'pending', due_at: row.due_at, attempts: 0, claim: null, decisions: '[]', learnings: '[]', updated_at: row.now })
        .onConflict((oc) => oc.column('session_id').doUpdateSet({ state: 'pending', due_at: row.due_at, attempts: 0, claim: null, updated_at: row.now }))
        .execute();
    },

    /**
     * Takes the session due first (due_at <= now) for one run: its due_at moves to the lease's end (a
     * worker that dies leaves it to be taken again then), `claim` names this run. Undefined when none is due.
     */
    async claimDue(exec: Executor, now: string, leaseUntil: string, claim: string): Promise<SessionDistillsTable | undefined> {
      const row = await exec
        .selectFrom('session_distills')
        .selectAll()
        .where('due_at', 'is not', null)
        .where('due_at', '<=', now)
        .orderBy('due_at')
        .limit(1)
        .modifyEnd(skipLockedSuffix(dialectOf(exec)))
        .executeTakeFirst();
      if (!row) return undefined;
      await exec
        .updateTable('session_distills')
        .set({ due_at: leaseUntil, claim, attempts: row.attempts + 1 })
        .where('session_id', '=', row.session_id)
        .execute();
      return { ...row, due_at: leaseUntil, claim, attempts: row.attempts + 1 };
    },

    /** The earliest due time of any queued session, for the runner's next wake-up. */
    async nextDue(): Promise<string | undefined> {
      const r = await db
        .selectFrom('session_distills')
        .select((eb) => eb.fn.min('due_at').as('due'))
        .where('due_at', 'is not', null)
        .executeTakeFirst();
      return (r?.due as string | null | undefined) ?? undefined;
    },

    find(sessionId: string, exec: Executor = db) {
      return exec.selectFrom('session_distills').selectAll().where('session_id', '=', sessionId).executeTakeFirst();
    },

    /** Ends this run's claim with `patch`; false when the session was queued again meanwhile (the claim is gone). */
    async finish(exec: Executor, sessionId: string, claim: string, patch: Partial<SessionDistillsTable>): Promise<boolean> {
      const r = await exec
        .updateTable('session_distills')
        .set({ ...patch, claim: null })
        .where('session_id', '=', sessionId)
        .where('claim', '=', claim)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /** Stores a result without touching the queue fields (the session was queued again while it ran). */
    async storeResult(exec: Executor, sessionId: string, patch: Partial<SessionDistillsTable>) {
      await exec.updateTable('session_distills').set(patch).where('session_id', '=', sessionId).execute();
    },

    async insertRun(exec: Executor, row: DistillRunsTable) {
      await exec.insertInto('distill_runs').values(row).execute();
    },

    /** An account's tokens and runs on one UTC day. */
    async usage(accountId: string, day: string, exec: Executor = db) {
      const r = await exec
        .selectFrom('distill_runs')
        .select((eb) => [eb.fn.sum<string | number>('tokens_in').as('tin'), eb.fn.sum<string | number>('tokens_out').as('tout'), eb.fn.countAll<string | number>().as('n')])
        .where('account_id', '=', accountId)
        .where('day', '=', day)
        .executeTakeFirst();
      return { tokens_in: Number(r?.tin ?? 0), tokens_out: Number(r?.tout ?? 0), runs: Number(r?.n ?? 0) };
    },

    /** The session's suggestions (any status), to skip ones already made, accepted or dismissed. */
    suggestionsOf(sessionId: string, exec: Executor) {
      return exec.selectFrom('knowledge_suggestions').select(['id', 'title', 'error', 'status']).where('session_id', '=', sessionId).execute();
    },

    async insertSuggestions(exec: Executor, rows: KnowledgeSuggestionsTable[]) {
      if (rows.length) await exec.insertInto('knowledge_suggestions').values(rows).execute();
    },

    async removePending(exec: Executor, ids: string[]) {
      if (ids.length) await exec.deleteFrom('knowledge_suggestions').where('id', 'in', ids).where('status', '=', 'pending').execute();
    },

    listPending(workspaceId: string, limit: number, offset: number) {
      return db.selectFrom('knowledge_suggestions').selectAll().where('workspace_id', '=', workspaceId).where('status', '=', 'pending').orderBy('id', 'desc').limit(limit).offset(offset).execute();
    },

    async countPending(workspaceId: string) {
      const r = await db
        .selectFrom('knowledge_suggestions')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('workspace_id', '=', workspaceId)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },

    findSuggestion(id: string) {
      return db.selectFrom('knowledge_suggestions').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Moves a suggestion from one status to another; false when it was not in `from` (someone else decided first). */
    async moveSuggestion(id: string, from: SuggestionStatus, patch: Partial<KnowledgeSuggestionsTable> & { status: SuggestionStatus }): Promise<boolean> {
      const r = await db.updateTable('knowledge_suggestions').set(patch).where('id', '=', id).where('status', '=', from).executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
  };
}
export type DistillRepo = ReturnType<typeof createDistillRepo>;
