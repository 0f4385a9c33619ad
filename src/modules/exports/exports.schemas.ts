import { z } from 'zod';
import { Timestamp, WorkspaceIdInput, WorkspaceIdView } from '../../lib/schema-fields.js';

export const EXPORT_FORMATS = ['markdown', 'html', 'txt', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Optional on export routes: the sheet must be in this workspace (a check, since the sheet decides where its exports live). */
const SheetWorkspaceId = WorkspaceIdInput.describe("The workspace (wsp_...) the sheet is expected in; optional, the sheet's own workspace is used");

export const CreateExportBody = z.object({
  format: z.enum(EXPORT_FORMATS, { error: 'format must be one of markdown, html, txt, json' }),
  workspace_id: SheetWorkspaceId,
});

export const ExportsQuery = z.object({ workspace_id: SheetWorkspaceId });

export const CreateExportResponse = z.object({
  success: z.literal(true),
  export_id: z.string(),
  format: z.enum(EXPORT_FORMATS),
  url: z.string().describe('Absolute address of the file. Downloads without an API key until expires_at (24 hours).'),
  expires_at: Timestamp,
  workspace_id: WorkspaceIdView.describe("The workspace (wsp_...) the export is in: its sheet's"),
});

export const ExportTokenParams = z.object({ token: z.string().min(1).max(200) });

export const ExportParams = z.object({ id: z.string().min(1).max(100), export_id: z.string().min(1).max(100) });

export const ExportSummary = z.object({
  export_id: z.string(),
  format: z.enum(EXPORT_FORMATS),
  filename: z.string(),
  created_at: Timestamp,
  expires_at: Timestamp,
  workspace_id: WorkspaceIdView,
});

export const ListExportsResponse = z.object({
  success: z.literal(true),
  exports: z.array(ExportSummary).describe('Exports of the sheet that can still be downloaded, newest first. Download urls are shown only once, at creation.'),
});

export const RevokeExportResponse = z.object({
  success: z.literal(true),
  export_id: z.string(),
  revoked: z.literal(true).describe('The download url answers 404 from now on.'),
});
