import { AppError } from '../../errors.js';
import { OFF_THREAD_MIN_CHARS, prepareHtmlTexts } from '../../lib/html-text-pool.js';
import type { TxRunner } from '../../events/outbox.js';
import type { AuthContext } from '../../auth/context.js';
import type { ExpectedVersions } from '../../auth/expected-versions.js';
import { unpackContent, type SheetRevisionsRepo } from './sheets.revisions.repo.js';
import { fieldChanges, type SheetWriter } from './sheets.write.js';
import { toSheetView, type Content, type SheetRow } from './sheets.view.js';

export const REVISIONS_LIST_DEFAULT = 50;
export const REVISIONS_LIST_MAX = 100;

const revisionNotFound = (id: string, version: number) =>
  new AppError('not_found', `sheet ${id} has no kept revision ${version} (GET /sheets/${id}/revisions lists them)`);

const parseJson = <T>(text: string | null, fallback: T): T => (text === null ? fallback : (JSON.parse(text) as T));

/** Earlier versions of a sheet: list, read, and restore one as a new version. */
export function createSheetRevisions(deps: {
  revisions: SheetRevisionsRepo;
  writer: SheetWriter;
  tx: TxRunner;
  owned: (userId: string, id: string) => Promise<SheetRow>;
}) {
  const { revisions, writer, tx, owned } = deps;

  async function revisionOf(userId: string, id: string, version: number) {
    await owned(userId, id);
    const row = await revisions.find(id, version);
    if (!row) throw revisionNotFound(id, version);
    return {
      version: row.version,
      title: row.title,
      content: JSON.parse(unpackContent(row.content)) as Content,
      folder: row.folder,
      tags: JSON.parse(row.tags) as string[],
      updatedAt: row.updated_at,
    };
  }

  /** The restored columns become the sheet's search text: long ones are read off the event loop before the transaction. */
  async function prepareRevision(userId: string, id: string, version: number) {
    // Never parse content the caller cannot restore; the transaction answers 403 or 404.
    if (!(await owned(userId, id).catch(() => undefined))) return;
    const kept = await revisions.find(id, version);
    if (!kept) return;
    const content = unpackContent(kept.content);
    if (content.length >= OFF_THREAD_MIN_CHARS) await prepareHtmlTexts(Object.values(JSON.parse(content) as Content));
  }

  return {
    async listRevisions(userId: string, id: string, query: { limit?: number; offset?: number }) {
      const sheet = await owned(userId, id);
      const { rows, total } = await revisions.list(id, Math.min(query.limit ?? REVISIONS_LIST_DEFAULT, REVISIONS_LIST_MAX), query.offset ?? 0);
      return {
        revisions: rows.map((r) => ({
          version: r.version,
          title: r.title,
          folder: r.folder,
          tags: JSON.parse(r.tags) as string[],
          changes: parseJson<string[]>(r.changes, []),
          updatedAt: r.updated_at,
          actor: parseJson(r.actor, null),
        })),
        total,
        current: {
          version: sheet.version,
          changes: parseJson<string[]>(sheet.last_changes, []),
          updatedAt: sheet.updated_at,
          actor: parseJson(sheet.last_actor, null),
        },
      };
    },

    getRevision: revisionOf,

    /** A new version equal to the revision (its trash state stays as it is); identical to the current one: no change. */
    async restoreRevision(auth: AuthContext, id: string, version: number, expected?: ExpectedVersions) {
      await prepareRevision(auth.userId, id, version);
      return tx(async (trx) => {
        const row = await writer.lockOwned(trx, auth.userId, id, expected);
        const kept = await revisions.find(id, version, trx);
        if (!kept) throw revisionNotFound(id, version);
        const current = toSheetView(row);
        const next = {
          ...current,
          title: kept.title,
          content: JSON.parse(unpackContent(kept.content)) as Content,
          folder: kept.folder,
          tags: JSON.parse(kept.tags) as string[],
        };
        const changes = fieldChanges(current, next);
        if (changes.length === 0) return current;
        return writer.save(trx, auth, row, next, changes);
      });
    },
  };
}
