import { lockedForUpdate } from '../../db/dialect.js';
import { containsAllTerms } from '../search/substring/contains.js';
import type { Db, Executor, HandoversTable, SessionsTable } from '../../db/types.js';
import type { DistillView } from './sessions.schemas.js';

export interface SessionListFilter {
  workspaceId: string;
  terms: string[];
  project?: string;
  limit: number;
  offset: number;
}

export function createSessionsRepo(db: Db) {
  function filtered(f: SessionListFilter) {
    let q = db.selectFrom('sessions').where('workspace_id', '=', f.workspaceId).where(containsAllTerms('search_text', f.terms));
    // Sessions saved without a project store null; `?project=` (empty) selects them.
    if (f.project !== undefined) q = f.project === '' ? q.where('project', 'is', null) : q.where('project', '=', f.project);
    return q;
  }

  return {
    findById(id: string, exec: Executor = db) {
      return exec.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async list(f: SessionListFilter) {
      const [rows, count] = await Promise.all([
        filtered(f).selectAll().orderBy('id', 'desc').limit(f.limit).offset(f.offset).execute(),
        filtered(f)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },
    async insert(row: SessionsTable, exec: Executor) {
      await exec.insertInto('sessions').values(row).execute();
    },
    /**
     * Inserts unless the workspace already has a session with this external_id (INSERT ... ON CONFLICT DO
     * NOTHING on both dialects). On PostgreSQL a concurrent uncommitted insert of the same reference makes
     * this wait for that transaction, so concurrent upserts converge on one row. True when inserted.
     */
    async insertUnlessExternalTaken(row: SessionsTable, exec: Executor): Promise<boolean> {
      const inserted = await exec
        .insertInto('sessions')
        .values(row)
        .onConflict((oc) => oc.columns(['workspace_id', 'external_id']).doNothing())
        .returning('id')
        .executeTakeFirst();
      return inserted !== undefined;
    },
    findByExternalIdLocked(workspaceId: string, externalId: string, exec: Executor) {
      const q = exec.selectFrom('sessions').selectAll().where('workspace_id', '=', workspaceId).where('external_id', '=', externalId);
      return lockedForUpdate(exec, q).executeTakeFirst();
    },
    findByIdLocked(id: string, exec: Executor) {
      return lockedForUpdate(exec, exec.selectFrom('sessions').selectAll().where('id', '=', id)).executeTakeFirst();
    },
    async update(id: string, patch: Partial<SessionsTable>, exec: Executor) {
      await exec.updateTable('sessions').set(patch).where('id', '=', id).execute();
    },
    async insertHandover(row: HandoversTable, exec: Executor) {
      await exec.insertInto('handovers').values(row).execute();
    },
    /** Each session's newest handover sheet id (sessions without one are absent). */
    async newestHandovers(sessionIds: string[], exec: Executor = db): Promise<Map<string, string>> {
      if (sessionIds.length === 0) return new Map();
      const rows = await exec
        .selectFrom('handovers')
        .select(['session_id', (eb) => eb.fn.max('handover_id').as('handover_id')])
        .where('session_id', 'in', sessionIds)
        .groupBy('session_id')
        .execute();
      return new Map(rows.map((r) => [r.session_id, String(r.handover_id)]));
    },
    /** Each session's distillation (src/modules/distill writes them): the result, and the note of a run that did not happen. */
    async distills(sessionIds: string[], exec: Executor = db): Promise<Map<string, DistillView>> {
      if (sessionIds.length === 0) return new Map();
      const rows = await exec.selectFrom('session_distills').select(['session_id', 'summary', 'decisions', 'learnings', 'model', 'distilled_at', 'note']).where('session_id', 'in', sessionIds).execute();
      return new Map(
        rows.map((r) => [
          r.session_id,
          {
            distilled:
              r.summary !== null && r.distilled_at !== null
                ? { summary: r.summary, decisions: JSON.parse(r.decisions) as string[], learnings: JSON.parse(r.learnings) as string[], model: r.model ?? '', at: r.distilled_at }
                : null,
            note: r.note,
          },
        ]),
      );
    },
    /** Newest handover ids of a project ('' = no project), newest first; the caller skips removed sheets. */
    async handoverIds(workspaceId: string, project: string, limit: number) {
      let q = db.selectFrom('handovers').select(['handover_id', 'session_id']).where('workspace_id', '=', workspaceId);
      q = project === '' ? q.where('project', 'is', null) : q.where('project', '=', project);
      return q.orderBy('handover_id', 'desc').limit(limit).execute();
    },
  };
}
export type SessionsRepo = ReturnType<typeof createSessionsRepo>;
