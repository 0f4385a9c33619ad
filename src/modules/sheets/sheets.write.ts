import type { Clock } from '../../clock.js';
import { lockedForUpdate } from '../../db/dialect.js';
import type { SheetsTable, Trx } from '../../db/types.js';
import { versionConflict } from '../../errors.js';
import { rowOwnedBy } from '../../db/owned.js';
import type { Outbox } from '../../events/outbox.js';
import type { AuthContext } from '../../auth/context.js';
import type { ExpectedVersions } from '../../auth/expected-versions.js';
import { columnOrder } from './sheets.columns.js';
import { checkNesting } from './sheets.nesting.js';
import type { SheetRevisionsRepo } from './sheets.revisions.repo.js';
import type { SheetView } from './sheets.schemas.js';
import { sheetSearchText, sheetView, type Content } from './sheets.view.js';

export type Field = 'title' | 'content' | 'folder' | 'tags';
/** What a write did, as revisions list it: changed fields, or one of the lifecycle steps. */
export type Change = Field | 'created' | 'trashed' | 'restored';

export interface SheetState {
  title: string;
  content: Content;
  folder: string | null;
  tags: string[];
  trashedAt: string | null;
}

/**
 * The stored actor of a write: the credential and the account that used it (`user_id`), so a team's
 * revisions name the member who wrote. null for writes with no credential (a handover made inside a session write).
 */
export const actorJson = (auth: AuthContext | undefined) => JSON.stringify(auth ? { ...auth.actor, user_id: auth.userId } : null);

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const FIELDS: Field[] = ['title', 'content', 'folder', 'tags'];

export const fieldChanges = (a: SheetState, b: SheetState): Field[] => FIELDS.filter((f) => !sameJson(a[f], b[f]));

/** Column keys whose HTML differs (added, changed or removed), in column order. */
function changedColumns(a: Content, b: Content): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return columnOrder([...keys].filter((k) => a[k] !== b[k]));
}

/**
 * Every change to a sheet goes through here, inside the caller's transaction: the row is read locked
 * (FOR UPDATE on PostgreSQL; SQLite transactions hold the write lock), the expected version checked,
 * the replaced state kept as a revision, and the row written with version + 1.
 */
export function createSheetWriter(deps: { revisions: SheetRevisionsRepo; outbox: Outbox; clock: Clock; keep: number }) {
  const { revisions, outbox, clock, keep } = deps;

  return {
    /**
     * The sheet under `workspaceId` (the one the caller's access was checked for before the transaction:
     * the workspace role is read outside it), locked for this transaction; 412 when `expected` does not name its version.
     */
    async lockOwned(trx: Trx, workspaceId: string, id: string, expected?: ExpectedVersions): Promise<SheetsTable> {
      const row = rowOwnedBy(await lockedForUpdate(trx, trx.selectFrom('sheets').selectAll().where('id', '=', id)).executeTakeFirst(), 'workspace_id', workspaceId, 'sheet', id);
      if (expected && !expected.includes(row.version)) throw versionConflict('sheet', id, row.version);
      return row;
    },

    /**
     * Writes `next` over `row` as version + 1, keeping `row` as a revision. `event` false for trash,
     * which has its own event (sheet.deleted). A restore is a sheet.updated with changes ['restored'],
     * so lists that dropped the sheet on sheet.deleted learn it is back.
     */
    async save(trx: Trx, auth: AuthContext, row: SheetsTable, next: SheetState, changes: Change[], event = true): Promise<SheetView> {
      const nextContent = JSON.stringify(next.content);
      const contentChanged = nextContent !== row.content;
      // The stored content is parsed only when it changed (a trash, restore or title edit of a 1 MB sheet skips it).
      const columns = contentChanged ? changedColumns(JSON.parse(row.content) as Content, next.content) : [];
      checkNesting(next.content, columns);
      await revisions.keep(row, keep, trx);
      const patch: Partial<SheetsTable> = {
        title: next.title,
        folder: next.folder,
        tags: JSON.stringify(next.tags),
        trashed_at: next.trashedAt,
        version: row.version + 1,
        last_changes: JSON.stringify(changes),
        last_actor: actorJson(auth),
      };
      if (contentChanged) patch.content = nextContent;
      if (contentChanged || next.title !== row.title) patch.search_text = sheetSearchText(next.title, next.content);
      const fields = changes.filter((c): c is Field => (FIELDS as string[]).includes(c));
      if (fields.length > 0) patch.updated_at = clock.now().toISOString();
      await trx.updateTable('sheets').set(patch).where('id', '=', row.id).execute();
      const after = sheetView({ ...row, ...patch }, next.content, next.tags);
      const announced = changes.filter((c): c is Field | 'restored' => c === 'restored' || (FIELDS as string[]).includes(c));
      if (event && announced.length > 0) {
        await outbox.emit(
          trx,
          row.workspace_id,
          'sheet.updated',
          {
            sheet_id: row.id,
            changes: announced,
            columns,
            version: after.version,
            updated_at: after.updatedAt,
          },
          auth.userId,
        );
      }
      return after;
    },
  };
}
export type SheetWriter = ReturnType<typeof createSheetWriter>;
