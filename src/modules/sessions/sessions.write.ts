import type { Clock } from '../../clock.js';
import { normalizeForSearch } from '../../lib/search-text.js';
import type { SessionsTable, Trx } from '../../db/types.js';
import { invalid, notFound } from '../../errors.js';
import type { Outbox, TxRunner } from '../../events/outbox.js';
import { newId } from '../../ids.js';
import { workspaceIdOf } from '../../lib/workspace-ids.js';
import { requireInWorkspace, type Caller, type WorkspaceAccess } from '../workspaces/workspaces.access.js';
import type { SessionsRepo } from './sessions.repo.js';
import type { CreateSessionInput, SessionView, UpdateSessionInput } from './sessions.schemas.js';

export function toSessionView(row: SessionsTable): SessionView {
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    project: row.project,
    tags: JSON.parse(row.tags) as string[],
    files_changed: JSON.parse(row.files_changed) as string[],
    external_id: row.external_id,
    workspace_id: workspaceIdOf(row.user_id),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A call by id that names a workspace must name the session's (403 elsewhere, as for every record). */
export function requireSessionWorkspace(row: SessionsTable, wanted: string | undefined, why = ''): void {
  requireInWorkspace('session', row.id, workspaceIdOf(row.user_id), wanted, why);
}

/** The fields a save or an update sets, in the order session.updated names them. */
const FIELDS = ['title', 'summary', 'project', 'tags', 'files_changed'] as const;
type Fields = Pick<SessionsTable, (typeof FIELDS)[number] | 'search_text'>;

/** What q searches: title, summary, project and tags. */
function searchText(f: Omit<Fields, 'search_text'>): string {
  return normalizeForSearch([f.title, f.summary, f.project ?? '', (JSON.parse(f.tags) as string[]).join(' ')].join('\n'));
}

function withSearchText(f: Omit<Fields, 'search_text'>): Fields {
  return { ...f, search_text: searchText(f) };
}

/** A save's fields: omitted optional ones are empty ("" project means none), so a PUT replaces them all. */
function savedFields(input: CreateSessionInput): Fields {
  return withSearchText({
    title: input.title,
    summary: input.summary,
    project: input.project ? input.project : null,
    tags: JSON.stringify(input.tags ?? []),
    files_changed: JSON.stringify(input.files_changed ?? []),
  });
}

/** An update's fields: the given ones over the row's. */
function patchedFields(row: SessionsTable, input: UpdateSessionInput): Fields {
  return withSearchText({
    title: input.title ?? row.title,
    summary: input.summary ?? row.summary,
    project: input.project === undefined ? row.project : input.project || null,
    tags: input.tags ? JSON.stringify(input.tags) : row.tags,
    files_changed: input.files_changed ? JSON.stringify(input.files_changed) : row.files_changed,
  });
}

/**
 * Creating, upserting and updating sessions: session.saved when a session is created, session.updated
 * (naming the changed fields) when a write changes one. A write that changes nothing keeps updatedAt
 * and fires nothing, so a client may save the same session as often as it likes.
 */
export function createSessionWrites(deps: { repo: SessionsRepo; access: WorkspaceAccess; outbox: Outbox; tx: TxRunner; clock: Clock }) {
  const { repo, access, outbox, tx, clock } = deps;

  async function insert(trx: Trx, caller: Caller, ownerKey: string, fields: Fields, externalId: string | null): Promise<SessionsTable | undefined> {
    const now = clock.now();
    const row: SessionsTable = { id: newId('ses', now.getTime()), user_id: ownerKey, ...fields, external_id: externalId, created_at: now.toISOString(), updated_at: null };
    if (externalId === null) await repo.insert(row, trx);
    else if (!(await repo.insertUnlessExternalTaken(row, trx))) return undefined;
    await outbox.emit(trx, ownerKey, 'session.saved', { session_id: row.id, title: row.title }, caller.userId);
    return row;
  }

  async function change(trx: Trx, caller: Caller, row: SessionsTable, fields: Fields): Promise<SessionsTable> {
    const changes = FIELDS.filter((f) => fields[f] !== row[f]);
    if (changes.length === 0) return row;
    const updatedAt = clock.now().toISOString();
    await repo.update(row.id, { ...fields, updated_at: updatedAt }, trx);
    await outbox.emit(trx, row.user_id, 'session.updated', { session_id: row.id, title: fields.title, changes, updated_at: updatedAt }, caller.userId);
    return { ...row, ...fields, updated_at: updatedAt };
  }

  // Access is decided before the transaction opens: a team workspace's role is read on the database,
  // which on SQLite would wait for the very connection the transaction holds.
  return {
    async create(caller: Caller, input: CreateSessionInput) {
      const ownerKey = await access.ownerKey(caller, input.workspace_id, 'records.write');
      return tx(async (trx) => toSessionView((await insert(trx, caller, ownerKey, savedFields(input), null))!));
    },

    /**
     * The workspace's session with this external_id gets the input's fields, or is created with them.
     * The insert goes through the unique (user_id, external_id) index, so concurrent upserts of one
     * reference make exactly one row: the losers find it (PostgreSQL waits for the winner's commit).
     */
    async upsert(caller: Caller, externalId: string, input: CreateSessionInput) {
      const ownerKey = await access.ownerKey(caller, input.workspace_id, 'records.write');
      const fields = savedFields(input);
      return tx(async (trx) => {
        // Twice at most: a session is never deleted, so a taken reference is found on the second look.
        for (let attempt = 0; attempt < 2; attempt++) {
          const created = await insert(trx, caller, ownerKey, fields, externalId);
          if (created) return { created: true, session: toSessionView(created) };
          const existing = await repo.findByExternalIdLocked(ownerKey, externalId, trx);
          if (existing) return { created: false, session: toSessionView(await change(trx, caller, existing, fields)) };
        }
        throw new Error(`session external_id kept changing under upsert (owner ${ownerKey})`);
      });
    },

    async update(caller: Caller, id: string, input: UpdateSessionInput, opts: { workspace_id?: string } = {}) {
      if (FIELDS.every((f) => input[f] === undefined)) throw invalid(`body must give at least one of ${FIELDS.join(', ')}`);
      requireSessionWorkspace(await access.ownedRow(await repo.findById(id), caller, 'session', id, 'records.write'), opts.workspace_id);
      return tx(async (trx) => {
        // A session never changes workspace, so the check above holds for the locked row.
        const row = await repo.findByIdLocked(id, trx);
        if (!row) throw notFound('session', id); // its workspace was deleted meanwhile
        return toSessionView(await change(trx, caller, row, patchedFields(row, input)));
      });
    },
  };
}
