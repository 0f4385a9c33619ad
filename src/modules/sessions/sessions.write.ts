import type { Clock } from '../../clock.js';
import { normalizeForSearch } from '../../lib/search-text.js';
import type { SessionsTable, Trx } from '../../db/types.js';
import { ownedRow } from '../../db/owned.js';
import { invalid } from '../../errors.js';
import type { Outbox, TxRunner } from '../../events/outbox.js';
import { newId } from '../../ids.js';
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
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
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
export function createSessionWrites(deps: { repo: SessionsRepo; outbox: Outbox; tx: TxRunner; clock: Clock }) {
  const { repo, outbox, tx, clock } = deps;

  async function insert(trx: Trx, userId: string, fields: Fields, externalId: string | null): Promise<SessionsTable | undefined> {
    const now = clock.now();
    const row: SessionsTable = { id: newId('ses', now.getTime()), user_id: userId, ...fields, external_id: externalId, created_at: now.toISOString(), updated_at: null };
    if (externalId === null) await repo.insert(row, trx);
    else if (!(await repo.insertUnlessExternalTaken(row, trx))) return undefined;
    await outbox.emit(trx, userId, 'session.saved', { session_id: row.id, title: row.title });
    return row;
  }

  async function change(trx: Trx, row: SessionsTable, fields: Fields): Promise<SessionsTable> {
    const changes = FIELDS.filter((f) => fields[f] !== row[f]);
    if (changes.length === 0) return row;
    const updatedAt = clock.now().toISOString();
    await repo.update(row.id, { ...fields, updated_at: updatedAt }, trx);
    await outbox.emit(trx, row.user_id, 'session.updated', { session_id: row.id, title: fields.title, changes, updated_at: updatedAt });
    return { ...row, ...fields, updated_at: updatedAt };
  }

  return {
    create(userId: string, input: CreateSessionInput) {
      return tx(async (trx) => toSessionView((await insert(trx, userId, savedFields(input), null))!));
    },

    /**
     * The account's session with this external_id gets the input's fields, or is created with them.
     * The insert goes through the unique (user_id, external_id) index, so concurrent upserts of one
     * reference make exactly one row: the losers find it (PostgreSQL waits for the winner's commit).
     */
    upsert(userId: string, externalId: string, input: CreateSessionInput) {
      const fields = savedFields(input);
      return tx(async (trx) => {
        // Twice at most: a session is never deleted, so a taken reference is found on the second look.
        for (let attempt = 0; attempt < 2; attempt++) {
          const created = await insert(trx, userId, fields, externalId);
          if (created) return { created: true, session: toSessionView(created) };
          const existing = await repo.findByExternalIdLocked(userId, externalId, trx);
          if (existing) return { created: false, session: toSessionView(await change(trx, existing, fields)) };
        }
        throw new Error(`session external_id kept changing under upsert (user ${userId})`);
      });
    },

    update(userId: string, id: string, input: UpdateSessionInput) {
      if (FIELDS.every((f) => input[f] === undefined)) throw invalid(`body must give at least one of ${FIELDS.join(', ')}`);
      return tx(async (trx) => {
        const row = ownedRow(await repo.findByIdLocked(id, trx), userId, 'session', id);
        return toSessionView(await change(trx, row, patchedFields(row, input)));
      });
    },
  };
}
