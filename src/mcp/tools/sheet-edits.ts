import { z } from 'zod';
import type { SheetsService } from '../../modules/sheets/sheets.service.js';
import { expectedVersions } from '../../auth/expected-versions.js';
import { IdParams, expectedVersionField } from '../../lib/schema-fields.js';
import { AddColumnBody, AddColumnResponse, AppendBody, ColumnParams, ListRevisionsResponse, ReplaceBody, ReplaceResponse, RevisionResponse, SheetResponse } from '../../modules/sheets/sheets.schemas.js';
import { hasMore } from '../paging.js';
import { SheetInWorkspace as InWorkspace } from '../../modules/sheets/sheets.schemas.js';
import { ADDITIVE, READ_ONLY, type ToolRegistry } from '../tool.js';

const SheetId = IdParams.shape.id.describe('Sheet id, e.g. sht_01j...');
const Version = z.number({ error: 'version must be a positive integer' }).int({ error: 'version must be a positive integer' }).min(1, { error: 'version must be a positive integer' });
const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;
const page = (name: string) =>
  z
    .number({ error: `${name} must be a non-negative integer` })
    .int()
    .min(0)
    .max(999_999_999)
    .optional();

/** The services these tools call. */
export interface SheetEditToolDeps {
  sheets: SheetsService;
}

/** Revisions and the edits that need no read first (REST: /sheets/{id}/revisions, /append, /replace, /columns). */
export function registerSheetEditTools(t: ToolRegistry, deps: SheetEditToolDeps): void {
  t.define('list_sheet_revisions', {
    title: 'List earlier versions of a sheet',
    description:
      'List the kept earlier versions of a sheet (not the current one), newest first: version, title, what that write changed, when, and who (API key, console or OAuth client, and the member account user_id). ' +
      'Use get_sheet_revision to read one and restore_sheet_revision to bring it back.',
    input: z.object({ id: SheetId, limit: page('limit').describe('Default 50, at most 100.'), offset: page('offset'), workspace_id: InWorkspace }),
    output: ListRevisionsResponse.extend({ has_more: z.boolean() }),
    annotations: READ_ONLY,
    source: 'querystring',
    run: async ({ id, workspace_id, ...q }, auth) => {
      const r = await deps.sheets.listRevisions(auth, id, q, { workspace_id });
      return { success: true as const, ...r, has_more: hasMore(r.total, q.offset, r.revisions.length) };
    },
  });

  t.define('get_sheet_revision', {
    title: 'Read an earlier version of a sheet',
    description: 'Fetch one kept earlier version of a sheet with its full content.',
    input: z.object({ id: SheetId, version: Version, workspace_id: InWorkspace }),
    output: RevisionResponse,
    annotations: READ_ONLY,
    run: async (args, auth) => ({ success: true as const, revision: await deps.sheets.getRevision(auth, args.id, args.version, { workspace_id: args.workspace_id }) }),
  });

  t.define('restore_sheet_revision', {
    title: 'Restore an earlier version of a sheet',
    description: 'Make an earlier version current again. This writes a new version (nothing is lost: the replaced state becomes a revision too). Fires sheet.updated.',
    input: z.object({ id: SheetId, version: Version, expected_version: expectedVersionField, workspace_id: InWorkspace }),
    output: SheetResponse,
    annotations: WRITE,
    run: async ({ id, version, expected_version, workspace_id }, auth) => ({
      success: true as const,
      sheet: await deps.sheets.restoreRevision(auth, id, version, expectedVersions(undefined, expected_version), { workspace_id }),
    }),
  });

  t.define('append_to_sheet', {
    title: 'Append to a sheet',
    description:
      'Add HTML at the end of one column without reading the sheet first; safe while other agents write. ' +
      'Default column: the highest-numbered one (col1 on an empty sheet); a named column that does not exist is created. ' +
      'separator (e.g. "<hr>") goes between the old and the new text.',
    input: AppendBody.extend({ id: SheetId, workspace_id: InWorkspace }),
    output: SheetResponse,
    annotations: WRITE,
    creates: true, // a retried append would land twice: it takes idempotency_key
    run: async ({ id, expected_version, workspace_id, ...input }, auth) => ({
      success: true as const,
      ...(await deps.sheets.append(auth, id, input, expectedVersions(undefined, expected_version), { workspace_id })),
    }),
  });

  t.define('replace_in_sheet', {
    title: 'Find and replace in a sheet',
    description:
      'Replace plain text in the stored HTML of one column (or of all columns) without reading the sheet first. ' +
      'Without all=true the text must occur exactly once: otherwise a no_match or ambiguous_match error (with count).',
    input: ReplaceBody.extend({ id: SheetId, workspace_id: InWorkspace }),
    output: ReplaceResponse,
    annotations: WRITE,
    run: async ({ id, expected_version, workspace_id, ...input }, auth) => ({
      success: true as const,
      ...(await deps.sheets.replace(auth, id, input, expectedVersions(undefined, expected_version), { workspace_id })),
    }),
  });

  t.define('add_column', {
    title: 'Add a column to a sheet',
    description: 'Add a new column with the lowest unused key (col1..col99), empty unless html is given. Returns the new key.',
    input: AddColumnBody.extend({ id: SheetId, workspace_id: InWorkspace }),
    output: AddColumnResponse,
    annotations: ADDITIVE,
    creates: true,
    run: async ({ id, expected_version, workspace_id, ...input }, auth) => ({
      success: true as const,
      ...(await deps.sheets.addColumn(auth, id, input, expectedVersions(undefined, expected_version), { workspace_id })),
    }),
  });

  t.define('remove_column', {
    title: 'Remove a column from a sheet',
    description: 'Remove one column (e.g. col3) from a sheet. Its text stays recoverable through the sheet revisions.',
    input: z.object({ id: SheetId, col: ColumnParams.shape.col, expected_version: expectedVersionField, workspace_id: InWorkspace }),
    output: SheetResponse,
    annotations: { ...WRITE, destructiveHint: true, idempotentHint: true },
    run: async ({ id, col, expected_version, workspace_id }, auth) => ({
      success: true as const,
      ...(await deps.sheets.removeColumn(auth, id, col, expectedVersions(undefined, expected_version), { workspace_id })),
    }),
  });
}
