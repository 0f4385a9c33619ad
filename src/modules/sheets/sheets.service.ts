import type { Clock } from '../../clock.js';
import { normalizeForSearch, searchTerms } from '../../db/dialect.js';
import type { SheetsTable, Trx } from '../../db/types.js';
import { forbidden, notFound } from '../../errors.js';
import type { Outbox, TxRunner } from '../../events/outbox.js';
import { newId } from '../../ids.js';
import { htmlToText } from '../../lib/html-text.js';
import type { SheetsRepo } from './sheets.repo.js';
import type { CreateSheetInput, SheetView, UpdateSheetInput } from './sheets.schemas.js';

export const LIST_DEFAULT = 50;
export const LIST_MAX = 100;
export const TRASH_RETENTION_MS = 30 * 24 * 3600 * 1000;

type Content = Record<string, string>;
type Field = 'title' | 'content' | 'folder' | 'tags';

export function toSheetView(row: SheetsTable): SheetView {
  return {
    id: row.id,
    title: row.title,
    content: JSON.parse(row.content) as Content,
    folder: row.folder,
    tags: JSON.parse(row.tags) as string[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    trashedAt: row.trashed_at,
  };
}

/** What q searches: the title and the visible text of every column. */
export function sheetSearchText(title: string, content: Content): string {
  const columns = Object.keys(content).sort((a, b) => Number(a.slice(3)) - Number(b.slice(3)));
  return normalizeForSearch([title, ...columns.map((k) => htmlToText(content[k]))].join('\n'));
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function createSheetsService(deps: { repo: SheetsRepo; outbox: Outbox; tx: TxRunner; clock: Clock }) {
  const { repo, outbox, tx, clock } = deps;

  async function owned(userId: string, id: string, exec?: Trx) {
    const row = await repo.findById(id, exec);
    if (!row) throw notFound('sheet', id);
    if (row.user_id !== userId) throw forbidden('sheet', id);
    return row;
  }

  /** Creates a sheet inside the caller's transaction (handovers reuse this). */
  async function createIn(trx: Trx, userId: string, input: CreateSheetInput): Promise<SheetView> {
    const now = clock.now();
    const content = input.content ?? {};
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
    };
    await repo.insert(row, trx);
    await outbox.emit(trx, userId, 'sheet.created', { sheet_id: row.id, name: row.title, created_at: row.created_at });
    return toSheetView(row);
  }

  return {
    createIn,

    async list(userId: string, query: { limit?: number; offset?: number; q?: string; trashed?: boolean }) {
      const { rows, total } = await repo.list({
        userId,
        trashed: query.trashed ?? false,
        terms: searchTerms(query.q),
        limit: Math.min(query.limit ?? LIST_DEFAULT, LIST_MAX),
        offset: query.offset ?? 0,
      });
      return { sheets: rows.map(toSheetView), total };
    },

    async get(userId: string, id: string) {
      return toSheetView(await owned(userId, id));
    },

    create(userId: string, input: CreateSheetInput) {
      return tx((trx) => createIn(trx, userId, input));
    },

    /** Merge-update: content merges by column key (null removes one); an update that changes nothing fires no event. */
    update(userId: string, id: string, input: UpdateSheetInput) {
      return tx(async (trx) => {
        const row = await owned(userId, id, trx);
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
        const changes = (['title', 'content', 'folder', 'tags'] as Field[]).filter((f) => !sameJson(current[f], next[f]));
        if (changes.length === 0) return current;

        next.updatedAt = clock.now().toISOString();
        await repo.update(
          id,
          {
            title: next.title,
            content: JSON.stringify(next.content),
            folder: next.folder,
            tags: JSON.stringify(next.tags),
            search_text: sheetSearchText(next.title, next.content),
            updated_at: next.updatedAt,
          },
          trx,
        );
        await outbox.emit(trx, userId, 'sheet.updated', { sheet_id: id, changes, updated_at: next.updatedAt });
        return next;
      });
    },

    /** Moves to the trash, or with permanent removes for good. sheet.deleted fires when a sheet leaves the active set. */
    remove(userId: string, id: string, permanent = false) {
      return tx(async (trx) => {
        const row = await owned(userId, id, trx);
        const now = clock.now().toISOString();
        if (permanent) await repo.remove(id, trx);
        else if (!row.trashed_at) await repo.update(id, { trashed_at: now }, trx);
        if (!row.trashed_at) await outbox.emit(trx, userId, 'sheet.deleted', { sheet_id: id, deleted_at: now });
        return { id, trashedAt: permanent ? null : (row.trashed_at ?? now), deleted: permanent };
      });
    },

    async restore(userId: string, id: string) {
      const row = await owned(userId, id);
      if (row.trashed_at) await repo.update(id, { trashed_at: null });
      return toSheetView({ ...row, trashed_at: null });
    },

    purgeTrash() {
      return repo.purgeTrashedBefore(new Date(clock.now().getTime() - TRASH_RETENTION_MS).toISOString());
    },
  };
}
export type SheetsService = ReturnType<typeof createSheetsService>;
