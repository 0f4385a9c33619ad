import type { Clock } from '../../clock.js';
import { AppError } from '../../errors.js';
import { newId } from '../../ids.js';
import { convertHtml } from '../../runtime/html-convert.js';
import { renderSheet } from '../exports/exports.render.js';
import type { SheetsService } from '../sheets/sheets.service.js';
import type { InWorkspace, SheetView } from '../sheets/sheets.schemas.js';
import type { Caller } from '../workspaces/workspaces.access.js';
import type { SharesRepo } from './shares.repo.js';
import type { SharedSheetView } from './shares.schemas.js';
import { hashSecretToken, newSecretToken } from '../../lib/secret-token.js';

/** Where the read-only page of a link lives (outside /v1: no key). */
export const SHARE_PAGE_PATH = '/s';

// Unknown, expired, revoked, and links of trashed or deleted sheets all look the same from outside.
const gone = () => new AppError('not_found', 'share link not found: it may have expired or been revoked');

export function createSharesService(deps: { repo: SharesRepo; sheets: Pick<SheetsService, 'get'>; clock: Clock }) {
  const { repo, sheets, clock } = deps;

  /**
   * The sheet, when the caller may manage its links: its own, or a team sheet with the editor role or
   * higher ('shares.manage'); 404 unknown, 403 (with required_role for a team's) otherwise.
   */
  const managed = (caller: Caller, sheetId: string, opts: InWorkspace = {}) => sheets.get(caller, sheetId, 'shares.manage', opts);

  /** The sheet, when the caller may share it; a trashed sheet cannot be shared. */
  async function shareable(caller: Caller, sheetId: string, opts: InWorkspace) {
    const sheet = await managed(caller, sheetId, opts);
    if (sheet.trashedAt !== null) throw new AppError('conflict', `sheet ${sheetId} is in the trash; restore it before sharing it`);
    return sheet;
  }

  /**
   * The sheet behind a live link, read as the link's maker with the role sharing needs: a link to a team
   * sheet stops working when its maker leaves the workspace or drops below editor (the workspaces service
   * also deletes such links then, so rejoining brings none back). Any miss is the same 404.
   */
  async function resolve(token: string): Promise<SheetView> {
    const share = await repo.findByTokenHash(hashSecretToken(token));
    if (!share || (share.expires_at !== null && share.expires_at <= clock.now().toISOString())) throw gone();
    const sheet = await sheets.get({ userId: share.created_by }, share.sheet_id, 'shares.manage').catch((err: unknown) => {
      if (err instanceof AppError && (err.code === 'not_found' || err.code === 'forbidden')) throw gone();
      throw err;
    });
    if (sheet.trashedAt !== null) throw gone();
    return sheet;
  }

  return {
    async create(caller: Caller, sheetId: string, input: { expires_in_hours?: number }, origin: string, opts: InWorkspace = {}) {
      await shareable(caller, sheetId, opts);
      const at = clock.now();
      const token = newSecretToken();
      const id = newId('shr', at.getTime());
      const expiresAt = input.expires_in_hours === undefined ? null : new Date(at.getTime() + input.expires_in_hours * 3_600_000).toISOString();
      await repo.insert({ id, sheet_id: sheetId, created_by: caller.userId, token_hash: hashSecretToken(token), created_at: at.toISOString(), expires_at: expiresAt });
      return { id, url: `${origin}${SHARE_PAGE_PATH}/${token}`, token, expires_at: expiresAt };
    },

    async list(caller: Caller, sheetId: string, opts: InWorkspace = {}) {
      await managed(caller, sheetId, opts);
      const rows = await repo.listForSheet(sheetId);
      return rows.map((r) => ({ id: r.id, created_by: r.created_by, created_at: r.created_at, expires_at: r.expires_at }));
    },

    /** Ends a link at once: the next read of its token is a 404. */
    async revoke(caller: Caller, sheetId: string, shareId: string, opts: InWorkspace = {}) {
      await managed(caller, sheetId, opts);
      if (!(await repo.remove(sheetId, shareId))) throw new AppError('not_found', `share ${shareId} of sheet ${sheetId} not found`);
      return { id: shareId, revoked: true as const };
    },

    /** GET /v1/shared/{token}: the sheet without anything of its owner, columns sanitized. */
    async read(token: string): Promise<SharedSheetView> {
      const sheet = await resolve(token);
      const content: Record<string, string> = {};
      for (const [key, html] of Object.entries(sheet.content)) content[key] = await convertHtml('sanitized', html, `column ${key}`);
      return { title: sheet.title, content, folder: sheet.folder, tags: sheet.tags, updatedAt: sheet.updatedAt, version: sheet.version };
    },

    /** GET /s/{token}: the sheet as a self-contained page, sanitized, no scripts (exports' HTML renderer). */
    async page(token: string): Promise<string> {
      return (await renderSheet(await resolve(token), 'html')).body;
    },
  };
}
export type SharesService = ReturnType<typeof createSharesService>;
