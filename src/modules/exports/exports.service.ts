import type { Clock } from '../../clock.js';
import { AppError } from '../../errors.js';
import type { Outbox, TxRunner } from '../../events/outbox.js';
import { newId } from '../../ids.js';
import type { SheetView } from '../sheets/sheets.schemas.js';
import { requireInWorkspace, type Caller, type WorkspaceAccess } from '../workspaces/workspaces.access.js';
import type { ExportsRepo } from './exports.repo.js';
import { exportFilename, renderSheet } from './exports.render.js';
import type { ExportFormat } from './exports.schemas.js';
import { hashSecretToken, newSecretToken } from '../../lib/secret-token.js';

export const EXPORT_TTL_MS = 24 * 3600 * 1000;
export const EXPORT_PATH = '/exports';

/** 32 random bytes: SHA-256 at rest is enough, there is no dictionary to attack. */
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/** A sheet's exports live where the sheet does: a team sheet's are the workspace's (made and revoked by editors, listed by members). */
export function createExportsService(deps: {
  repo: ExportsRepo;
  access: WorkspaceAccess;
  /** Read check and view of the sheet (404 unknown, 403 one the caller may not read). */
  sheets: { get(caller: Caller, id: string): Promise<SheetView> };
  outbox: Outbox;
  tx: TxRunner;
  clock: Clock;
}) {
  const { repo, access, sheets, outbox, tx, clock } = deps;

  /**
   * The sheet when the caller may read it, and the workspace its exports are kept in when the caller
   * may do `action` there. `workspaceId`, when given, must be the sheet's workspace (elsewhere: 403, as for knowledge and todos).
   */
  async function sheetFor(caller: Caller, sheetId: string, workspaceId: string | undefined, action: 'records.read' | 'records.write') {
    const sheet = await sheets.get(caller, sheetId);
    requireInWorkspace('sheet', sheetId, sheet.workspace_id, workspaceId);
    return { sheet, workspaceId: await access.workspaceFor(caller, sheet.workspace_id, action) };
  }

  return {
    /**
     * Renders the sheet now and stores the file behind a fresh token. `baseUrl` is the public origin
     * (PUBLIC_URL, else the request's own). The event carries the same url the caller gets.
     */
    async create(caller: Caller, sheetId: string, input: { format: ExportFormat; workspace_id?: string }, baseUrl: string) {
      const { format } = input;
      const { sheet, workspaceId } = await sheetFor(caller, sheetId, input.workspace_id, 'records.write');
      const rendered = await renderSheet(sheet, format);
      const token = newSecretToken();
      const now = clock.now();
      const id = newId('exp', now.getTime());
      const url = `${baseUrl.replace(/\/$/, '')}${EXPORT_PATH}/${token}`;
      const expiresAt = new Date(now.getTime() + EXPORT_TTL_MS).toISOString();
      await tx(async (trx) => {
        await repo.insert(
          {
            id,
            workspace_id: workspaceId,
            user_id: caller.userId,
            sheet_id: sheet.id,
            format,
            token_hash: hashSecretToken(token),
            filename: exportFilename(sheet.title, rendered.extension),
            content_type: rendered.contentType,
            body: rendered.body,
            created_at: now.toISOString(),
            expires_at: expiresAt,
          },
          trx,
        );
        await outbox.emit(trx, workspaceId, 'export.completed', { sheet_id: sheet.id, format, url }, caller.userId);
      });
      return { export_id: id, format, url, expires_at: expiresAt, workspace_id: sheet.workspace_id };
    },

    /** The stored file for a download token; unknown and expired tokens look the same (404). */
    async download(token: string) {
      const row = TOKEN_FORMAT.test(token) ? await repo.findByTokenHash(hashSecretToken(token)) : undefined;
      if (!row || row.expires_at <= clock.now().toISOString()) {
        throw new AppError('not_found', 'Export not found or expired; exports can be downloaded for 24 hours');
      }
      return { filename: row.filename, contentType: row.content_type, body: row.body, expiresAt: row.expires_at };
    },

    /** The sheet's exports that can still be downloaded (whoever may read the sheet). */
    async list(caller: Caller, sheetId: string, workspaceId?: string) {
      await sheetFor(caller, sheetId, workspaceId, 'records.read');
      const rows = await repo.listLive(sheetId, clock.now().toISOString());
      return rows.map((r) => ({
        ...{ export_id: r.id, format: r.format, filename: r.filename, created_at: r.created_at, expires_at: r.expires_at },
        workspace_id: r.workspace_id,
      }));
    },

    /** Deletes one export of the sheet, so its url answers 404. */
    async revoke(caller: Caller, sheetId: string, exportId: string, workspaceId?: string) {
      await sheetFor(caller, sheetId, workspaceId, 'records.write');
      if (!(await repo.deleteOne(sheetId, exportId))) {
        throw new AppError('not_found', `Export ${exportId} not found for sheet ${sheetId} (already revoked, expired or never made)`);
      }
      return { export_id: exportId, revoked: true as const };
    },

    /** Expired exports, and those of sheets that no longer exist. */
    purgeExpired() {
      return repo.deleteExpired(clock.now().toISOString());
    },
  };
}
export type ExportsService = ReturnType<typeof createExportsService>;
