import type { AuthContext } from '../../auth/context.js';
import { type Caller, type RecordAction, type WorkspaceAccess } from '../workspaces/workspaces.access.js';
import type { ExpectedVersions } from '../../auth/expected-versions.js';
import type { Clock } from '../../clock.js';
import { searchTerms } from '../search/substring/search-text.js';
import type { SheetsTable, Trx } from '../../db/types.js';
import type { Outbox, TxRunner } from '../../events/outbox.js';
import { newId } from '../../ids.js';
import { OFF_THREAD_MIN_CHARS, prepareHtmlTexts } from '../../runtime/html-text-pool.js';
import { mapInTurns } from '../../lib/next-turn.js';
import { personalWorkspaceId } from '../../lib/workspace-ids.js';
import { createSheetEdits, type EditedBefore } from './sheets.edits.js';
import { checkNesting } from './sheets.nesting.js';
import { sheetListItem, sheetSearchItem } from './sheets.read.js';
import type { SheetsRepo } from './sheets.repo.js';
import { createSheetRevisions } from './sheets.revisions.js';
import type { SheetRevisionsRepo } from './sheets.revisions.repo.js';
import type { CreateSheetInput, InWorkspace, SheetView, UpdateSheetInput } from './sheets.schemas.js';
import { sheetJson, sheetListJson, sheetSearchText, sheetView, toSheetView, type Content, type SheetRow, type StoredSheetRow } from './sheets.view.js';
import { actorJson, createSheetWriter, fieldChanges } from './sheets.write.js';

/** getJson's answer: the sheet's JSON bytes and its version (the ETag). */
const jsonAnswer = (row: StoredSheetRow) => ({ version: row.version, json: sheetJson(row) });

/** What a list of sheets is asked for (GET /v1/sheets, list_sheets). */
type ListQuery = { limit?: number; offset?: number; q?: string; trashed?: boolean; fields?: string[]; sort?: 'relevance' | 'updated'; workspace_id?: string };

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
  /** Decides who may read and write a sheet in which workspace (src/modules/workspaces/workspaces.access.ts). */
  access: WorkspaceAccess;
  revisionsKeep?: number;
}) {
  const { repo, outbox, tx, clock, access } = deps;
  async function listFilter(caller: Caller, query: ListQuery, terms: string[]) {
    return {
      workspaceId: await access.workspaceFor(caller, query.workspace_id, 'records.read'),
      trashed: query.trashed ?? false,
      terms,
      sort: query.sort,
      limit: Math.min(query.limit ?? LIST_DEFAULT, LIST_MAX),
      offset: query.offset ?? 0,
    };
  }

  /** The sheet's JSON when the caller may read it (404 / 403 as `owned` says otherwise). */
  async function jsonOf(caller: Caller, found: StoredSheetRow | undefined, id: string): Promise<{ version: number; json: Buffer }> {
    if (found && caller.workspaceId === undefined && found.workspace_id === personalWorkspaceId(caller.userId)) return jsonAnswer(found);
    return jsonAnswer(await access.ownedRow(found, caller, 'sheet', id, 'records.read'));
  }
  const writer = createSheetWriter({ revisions: deps.revisions, outbox, clock, keep: deps.revisionsKeep ?? REVISIONS_KEEP_DEFAULT });

  /**
   * The sheet when the caller may do `action` with it (404 unknown, 403 another's or a role too low),
   * and, when `opts.workspace_id` names a workspace, it is the sheet's (403 otherwise).
   */
  async function owned(caller: Caller, id: string, action: RecordAction = 'records.read', opts: InWorkspace = {}): Promise<SheetRow> {
    return access.ownedRow(await repo.findById(id), caller, 'sheet', id, action, opts.workspace_id);
  }

  /**
   * Before a write's transaction: the caller's right to write the sheet (a team member's role is read
   * here, not under the row lock), and, with `prepare`, its stored columns' search text (below). Answers
   * the workspace the transaction locks the row under.
   */
  async function writable(caller: Caller, id: string, opts: InWorkspace, prepare = false): Promise<string> {
    const row = await owned(caller, id, 'records.write', opts);
    if (prepare) await prepareHtmlTexts(storedColumnsToPrepare(row.content));
    return row.workspace_id;
  }

  /**
   * Before an edit's transaction (append, replace, columns): as `writable`, and `edit` applied once, to the
   * content as read here, with the search text of every column it leaves read off the event loop. The
   * transaction uses that result when the sheet's version is still `version` (an edit runs once per write);
   * only when another write landed in between is it applied again, to the newer content.
   */
  async function editable<R>(caller: Caller, id: string, opts: InWorkspace, edit: (content: Content) => R): Promise<EditedBefore<R>> {
    const row = await owned(caller, id, 'records.write', opts);
    const stored = JSON.parse(row.content) as Content;
    const content = { ...stored };
    let outcome: EditedBefore<R>['outcome'];
    try {
      outcome = { result: edit(content) };
    } catch (error) {
      return { workspaceId: row.workspace_id, version: row.version, content, outcome: { error } };
    }
    const changed = Object.keys(content)
      .filter((k) => content[k] !== stored[k])
      .map((k) => content[k]);
    await prepareHtmlTexts([...storedColumnsToPrepare(row.content, stored), ...changed]);
    return { workspaceId: row.workspace_id, version: row.version, content, outcome };
  }

  /** The stored columns whose search text a write re-reads: only big ones go off the event loop. */
  function storedColumnsToPrepare(json: string, parsed?: Content): string[] {
    if (json.length < OFF_THREAD_MIN_CHARS) return [];
    return Object.values(parsed ?? (JSON.parse(json) as Content));
  }

  /** Creates `userId`'s sheet in `workspaceId` (access.workspaceFor's answer) inside the caller's transaction (handovers reuse this). */
  async function createIn(trx: Trx, workspaceId: string, userId: string, input: CreateSheetInput, auth?: AuthContext): Promise<SheetView> {
    return (await insertSheet(trx, workspaceId, userId, input, auth)).view;
  }

  async function insertSheet(trx: Trx, workspaceId: string, userId: string, input: CreateSheetInput, auth?: AuthContext): Promise<{ row: SheetsTable; view: SheetView }> {
    const now = clock.now();
    const content = input.content ?? {};
    checkNesting(content, Object.keys(content));
    const row: SheetsTable = {
      id: newId('sht', now.getTime()),
      workspace_id: workspaceId,
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
      last_actor: actorJson(auth),
    };
    await repo.insert(row, trx);
    await outbox.emit(trx, workspaceId, 'sheet.created', { sheet_id: row.id, name: row.title, created_at: row.created_at }, userId);
    return { row, view: sheetView(row, content, input.tags ?? []) };
  }

  async function createRow(auth: AuthContext, input: CreateSheetInput) {
    const { workspace_id, ...fields } = input;
    const workspaceId = await access.workspaceFor(auth, workspace_id, 'records.write');
    await prepareHtmlTexts(Object.values(fields.content ?? {}));
    return tx.insertsOnly((trx) => insertSheet(trx, workspaceId, auth.userId, fields, auth));
  }

  const revisions = createSheetRevisions({ revisions: deps.revisions, writer, tx, owned, writable });
  const edits = createSheetEdits({ writer, tx, editable });

  return {
    createIn,

    /** One workspace's sheets (`workspace_id`, default personal), or those matching `q`. */
    async list(caller: Caller, query: ListQuery) {
      const terms = searchTerms(query.q);
      const filter = await listFilter(caller, query, terms);
      if (terms.length === 0) {
        const { rows, total } = await repo.list(filter);
        return { sheets: rows.map((row) => sheetListItem(toSheetView(row), query.fields)), total };
      }
      // With q each item reads its HTML for a snippet (~0.1 ms for 2 KB): 10 per event-loop turn.
      // Five clients searching a common word held GET by id's p99 at 2-3x its p99 alone with the
      // whole page built in one turn.
      const { items, total } = await repo.search(filter, (rows) => mapInTurns(rows, 10, (row) => sheetSearchItem(toSheetView(row), terms, query.fields)));
      return { sheets: items, total };
    },

    /**
     * list()'s answer as JSON bytes when it is the plain page (no q, no fields), built from each sheet's
     * stored JSON as GET by id's is (sheetJson): the page's 50 contents are not parsed, checked against the
     * response schema and serialized again, which was most of the list's CPU. Undefined otherwise.
     */
    async listJson(caller: Caller, query: ListQuery): Promise<Buffer | undefined> {
      if (query.q !== undefined || query.fields !== undefined) return undefined;
      const { rows, total } = await repo.list(await listFilter(caller, query, []));
      return sheetListJson(rows, total);
    },

    /**
     * One sheet in any workspace the caller may read (`action`: what the caller is about to do with it,
     * e.g. shares.manage), or only in `opts.workspace_id` when given.
     */
    async get(caller: Caller, id: string, action: RecordAction = 'records.read', opts: InWorkspace = {}) {
      return toSheetView(await owned(caller, id, action, opts));
    },

    /**
     * What get() answers, as JSON bytes (sheetJson), with its version for the ETag. The caller's own sheet
     * is decided by one comparison (GET by id's speed rests on it); a team sheet, or a key restricted to a
     * workspace, takes access.ownedRow's path (a role read).
     */
    async getJson(caller: Caller, id: string): Promise<{ version: number; json: Buffer }> {
      return jsonOf(caller, await repo.findStoredById(id), id);
    },

    /** GET by id's read with the auth generation beside it (PostgreSQL; undefined on SQLite): see findStoredByIdWithAuthGeneration. */
    readForJson: (id: string) => repo.findStoredByIdWithAuthGeneration(id),

    /** getJson's answer for a row read by readForJson, once the caller is known. */
    jsonOf,

    /** A new sheet in `input.workspace_id` (default: the caller's personal workspace, or its key's). */
    async create(auth: AuthContext, input: CreateSheetInput) {
      return (await createRow(auth, input)).view;
    },

    /**
     * Merge-update under the row lock: content merges by column key (null removes one). An update
     * that changes nothing keeps the version and fires no event.
     */
    async update(auth: AuthContext, id: string, input: UpdateSheetInput, expected?: ExpectedVersions, opts: InWorkspace = {}) {
      await prepareHtmlTexts(Object.values(input.content ?? {}));
      const workspaceId = await writable(auth, id, opts, input.title !== undefined || input.content !== undefined);
      return tx(async (trx) => {
        const row = await writer.lockOwned(trx, workspaceId, id, expected);
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
    async remove(auth: AuthContext, id: string, permanent = false, expected?: ExpectedVersions, opts: InWorkspace = {}) {
      const workspaceId = await writable(auth, id, opts);
      return tx(async (trx) => {
        const row = await writer.lockOwned(trx, workspaceId, id, expected);
        const now = clock.now().toISOString();
        if (permanent) {
          await deps.revisions.removeForSheet(id, trx);
          await repo.remove(id, trx);
        } else if (!row.trashed_at) {
          await writer.save(trx, auth, row, { ...toSheetView(row), trashedAt: now }, ['trashed'], false);
        }
        if (!row.trashed_at) await outbox.emit(trx, workspaceId, 'sheet.deleted', { sheet_id: id, deleted_at: now }, auth.userId);
        return { id, trashedAt: permanent ? null : (row.trashed_at ?? now), deleted: permanent };
      });
    },

    /** Brings a trashed sheet back (a new version); restoring an active sheet changes nothing. */
    async restore(auth: AuthContext, id: string, expected?: ExpectedVersions, opts: InWorkspace = {}) {
      const workspaceId = await writable(auth, id, opts);
      return tx(async (trx) => {
        const row = await writer.lockOwned(trx, workspaceId, id, expected);
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

    // Revisions (sheets.revisions.ts) and edits in place (sheets.edits.ts): named here, so every method of the service is listed in this file.
    listRevisions: revisions.listRevisions,
    getRevision: revisions.getRevision,
    restoreRevision: revisions.restoreRevision,
    append: edits.append,
    replace: edits.replace,
    addColumn: edits.addColumn,
    removeColumn: edits.removeColumn,
  };
}
export type SheetsService = ReturnType<typeof createSheetsService>;
