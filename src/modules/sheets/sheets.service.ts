import type { AuthContext } from '../../auth/context.js';
import type { ExpectedVersions } from '../../auth/expected-versions.js';
import type { Clock } from '../../clock.js';
import { searchTerms } from '../../lib/search-text.js';
import { ownedRow } from '../../db/owned.js';
import type { SheetsTable, Trx } from '../../db/types.js';
import type { Outbox, TxRunner } from '../../events/outbox.js';
import { newId } from '../../ids.js';
import { OFF_THREAD_MIN_CHARS, prepareHtmlTexts } from '../../lib/html-text-pool.js';
import { mapInTurns } from '../../lib/next-turn.js';
import { createSheetEdits } from './sheets.edits.js';
import { checkNesting } from './sheets.nesting.js';
import { sheetListItem, sheetSearchItem } from './sheets.read.js';
import type { SheetsRepo } from './sheets.repo.js';
import { andThen, type MaybePromise } from '../../lib/maybe-async.js';
import { createSheetRevisions } from './sheets.revisions.js';
import type { SheetRevisionsRepo } from './sheets.revisions.repo.js';
import type { CreateSheetInput, SheetView, UpdateSheetInput } from './sheets.schemas.js';
import { sheetJson, sheetSearchText, sheetView, toSheetView, type Content } from './sheets.view.js';
import { createSheetWriter, fieldChanges } from './sheets.write.js';

export const LIST_DEFAULT = 50;
export const LIST_MAX = 100;
export const TRASH_RETENTION_MS = 30 * 24 * 3600 * 1000;
/** Earlier versions kept per sheet unless REVISIONS_KEEP says otherwise. */
export const REVISIONS_KEEP_DEFAULT = 100;

/**
 * The sheet rules, the one service REST and MCP call. Every write goes through sheets.write.ts (row lock,
 * expected version, kept revision, event); revisions and the edits that need no read first live in
 * sheets.revisions.ts and sheets.edits.ts and are merged in below.
 */
export function createSheetsService(deps: {
  repo: SheetsRepo;
  revisions: SheetRevisionsRepo;
  outbox: Outbox;
  tx: TxRunner;
  clock: Clock;
  revisionsKeep?: number;
}) {
  const { repo, outbox, tx, clock } = deps;
  const writer = createSheetWriter({ revisions: deps.revisions, outbox, clock, keep: deps.revisionsKeep ?? REVISIONS_KEEP_DEFAULT });

  async function owned(userId: string, id: string) {
    return ownedRow(await repo.findById(id), userId, 'sheet', id);
  }

  /**
   * The search text of a write covers the columns it keeps too: big stored ones are read off the event
   * loop first. `edit`, when given, is applied to a copy (an append or replace), so the columns it will
   * write are read there too; under the row lock it runs again, and finds them ready unless the sheet
   * changed in between.
   */
  async function prepareStoredColumns(userId: string, id: string, edit?: (content: Content) => unknown) {
    const row = await repo.findById(id);
    // Someone else's sheet: lockOwned answers 403 next; never parse content the caller cannot write.
    if (!row || row.user_id !== userId) return;
    if (row.content.length < OFF_THREAD_MIN_CHARS && !edit) return;
    const stored = JSON.parse(row.content) as Content;
    const edited = { ...stored };
    try {
      edit?.(edited);
    } catch {
      return; // The transaction throws the same error.
    }
    const changed = Object.keys(edited).filter((k) => edited[k] !== stored[k]).map((k) => edited[k]);
    await prepareHtmlTexts([...Object.values(stored), ...changed]);
  }

  /** Creates a sheet inside the caller's transaction (handovers reuse this). */
  async function createIn(trx: Trx, userId: string, input: CreateSheetInput, auth?: AuthContext): Promise<SheetView> {
    const now = clock.now();
    const content = input.content ?? {};
    checkNesting(content, Object.keys(content));
    const row: SheetsTable = {
      id: newId('sht', now.getTime()),
      user_id: userId,
      title: input.title,
      content: JSON.stringify(content),
      folder: input.folder ?? null,
      tags: JSON.stringify(input.tags ?? []),
      search_text: sheetSearchText(input.title, content),
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      trashed_at: null,
      version: 1,
      last_changes: JSON.stringify(['created']),
      last_actor: JSON.stringify(auth?.actor ?? null),
    };
    await repo.insert(row, trx);
    await outbox.emit(trx, userId, 'sheet.created', { sheet_id: row.id, name: row.title, created_at: row.created_at });
    return sheetView(row, content, input.tags ?? []);
  }

  return {
    createIn,

    async list(userId: string, query: { limit?: number; offset?: number; q?: string; trashed?: boolean; fields?: string[]; sort?: 'relevance' | 'updated' }) {
      const terms = searchTerms(query.q);
      const { rows, total } = await repo.list({
        userId,
        trashed: query.trashed ?? false,
        terms,
        sort: query.sort,
        limit: Math.min(query.limit ?? LIST_DEFAULT, LIST_MAX),
        offset: query.offset ?? 0,
      });
      // With q each item reads its HTML for a snippet (~0.1 ms for 2 KB): 10 per event-loop turn.
      // Five clients searching a common word held GET by id's p99 at 2-3x its p99 alone with the
      // whole page built in one turn.
      if (terms.length === 0) return { sheets: rows.map((row) => sheetListItem(toSheetView(row), query.fields)), total };
      return { sheets: await mapInTurns(rows, 10, (row) => sheetSearchItem(toSheetView(row), terms, query.fields)), total };
    },

    async get(userId: string, id: string) {
      return toSheetView(await owned(userId, id));
    },

    /** What get() answers, as JSON bytes (sheetJson), with its version for the ETag; at once when SQLite reads it at once. */
    getJson(userId: string, id: string): MaybePromise<{ version: number; json: Buffer }> {
      return andThen(repo.findStoredById(id), (found) => {
        const row = ownedRow(found, userId, 'sheet', id);
        return { version: row.version, json: sheetJson(row) };
      });
    },

    async create(auth: AuthContext, input: CreateSheetInput) {
      await prepareHtmlTexts(Object.values(input.content ?? {}));
      return tx((trx) => createIn(trx, auth.userId, input, auth));
    },

    /**
     * Merge-update under the row lock: content merges by column key (null removes one). An update
     * that changes nothing keeps the version and fires no event.
     */
    async update(auth: AuthContext, id: string, input: UpdateSheetInput, expected?: ExpectedVersions) {
      await prepareHtmlTexts(Object.values(input.content ?? {}));
      if (input.title !== undefined || input.content !== undefined) await prepareStoredColumns(auth.userId, id);
      return tx(async (trx) => {
        const row = await writer.lockOwned(trx, auth.userId, id, expected);
        const current = toSheetView(row);
        const next = { ...current };
        if (input.title !== undefined) next.title = input.title;
        if (input.folder !== undefined) next.folder = input.folder;
        if (input.tags !== undefined) next.tags = input.tags;
        if (input.content !== undefined) {
          const merged: Content = { ...current.content };
          for (const [key, html] of Object.entries(input.content)) {
            if (html === null) delete merged[key];
            else merged[key] = html;
          }
          next.content = merged;
        }
        const changes = fieldChanges(current, next);
        if (changes.length === 0) return current;
        return writer.save(trx, auth, row, next, changes);
      });
    },

    /** Moves to the trash, or with permanent removes for good. sheet.deleted fires when a sheet leaves the active set. */
    remove(auth: AuthContext, id: string, permanent = false, expected?: ExpectedVersions) {
      return tx(async (trx) => {
        const row = await writer.lockOwned(trx, auth.userId, id, expected);
        const now = clock.now().toISOString();
        if (permanent) {
          await deps.revisions.removeForSheet(id, trx);
          await repo.remove(id, trx);
        } else if (!row.trashed_at) {
          await writer.save(trx, auth, row, { ...toSheetView(row), trashedAt: now }, ['trashed'], false);
        }
        if (!row.trashed_at) await outbox.emit(trx, auth.userId, 'sheet.deleted', { sheet_id: id, deleted_at: now });
        return { id, trashedAt: permanent ? null : (row.trashed_at ?? now), deleted: permanent };
      });
    },

    /** Brings a trashed sheet back (a new version); restoring an active sheet changes nothing. */
    restore(auth: AuthContext, id: string, expected?: ExpectedVersions) {
      return tx(async (trx) => {
        const row = await writer.lockOwned(trx, auth.userId, id, expected);
        if (!row.trashed_at) return toSheetView(row);
        return writer.save(trx, auth, row, { ...toSheetView(row), trashedAt: null }, ['restored']);
      });
    },

    /** Sheets trashed more than 30 days ago go for good, with their revisions. */
    purgeTrash() {
      const cutoff = new Date(clock.now().getTime() - TRASH_RETENTION_MS).toISOString();
      return tx(async (trx) => {
        await deps.revisions.removeForTrashedBefore(cutoff, trx);
        return repo.purgeTrashedBefore(cutoff, trx);
      });
    },

    ...createSheetRevisions({ revisions: deps.revisions, writer, tx, owned }),
    ...createSheetEdits({ writer, tx, prepare: prepareStoredColumns }),
  };
}
export type SheetsService = ReturnType<typeof createSheetsService>;
