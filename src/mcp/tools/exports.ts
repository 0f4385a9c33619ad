import type { ExportsService } from '../../modules/exports/exports.service.js';
import { IdParams } from '../../lib/schema-fields.js';
import { CreateExportBody, CreateExportResponse, ExportParams, ExportsQuery, ListExportsResponse, RevokeExportResponse } from '../../modules/exports/exports.schemas.js';
import { ADDITIVE, READ_ONLY, type ToolRegistry } from '../tool.js';

/** The services these tools call. */
export interface ExportToolDeps {
  exports: ExportsService;
}

/**
 * `origin` is the public origin the download link starts with, as REST's publicOrigin gives it:
 * PUBLIC_URL, else the origin the MCP client used (HTTP) or the one `serve` would answer on (stdio).
 */
export function registerExportTools(t: ToolRegistry, deps: ExportToolDeps, origin: string): void {
  t.define('export_sheet', {
    creates: true,
    title: 'Export a sheet as a file',
    description:
      'Render one sheet as a file and get a download link: format markdown (YAML front matter, columns separated by ---), ' +
      'html (a standalone, sanitized page), txt (plain text) or json (the sheet record). The url downloads without an API key ' +
      'until expires_at (24 hours); give it to the user. Each call makes a new file. Fires export.completed. ' +
      "The export is in the sheet's workspace (workspace_id in the result; a team workspace's sheet needs the editor role).",
    input: CreateExportBody.extend({ id: IdParams.shape.id.describe('Sheet id, e.g. sht_01j...') }),
    output: CreateExportResponse,
    annotations: ADDITIVE,
    run: async (args, auth) => ({ success: true as const, ...(await deps.exports.create(auth, args.id, args, origin)) }),
  });

  t.define('list_sheet_exports', {
    title: "List a sheet's live exports",
    description:
      'List the exports of one sheet that can still be downloaded (export_id, format, filename, created_at, expires_at), newest first. ' + 'The download urls themselves are shown only once, by export_sheet.',
    input: ExportsQuery.extend({ id: IdParams.shape.id.describe('Sheet id, e.g. sht_01j...') }),
    output: ListExportsResponse,
    annotations: READ_ONLY,
    run: async (args, auth) => ({ success: true as const, exports: await deps.exports.list(auth, args.id, args.workspace_id) }),
  });

  t.define('revoke_sheet_export', {
    title: 'Revoke a sheet export',
    description: 'Revoke one export of a sheet: its download url answers 404 from now on. Use list_sheet_exports to find export ids.',
    input: ExportParams.extend(ExportsQuery.shape).extend({ id: IdParams.shape.id.describe('Sheet id, e.g. sht_01j...'), export_id: ExportParams.shape.export_id.describe('Export id, e.g. exp_01j...') }),
    output: RevokeExportResponse,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: async (args, auth) => ({ success: true as const, ...(await deps.exports.revoke(auth, args.id, args.export_id, args.workspace_id)) }),
  });
}
