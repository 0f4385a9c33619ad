import { z } from 'zod';
import type { SheetsService } from '../../modules/sheets/sheets.service.js';
import type { Caller } from '../../modules/workspaces/workspaces.access.js';
import { expectedVersions } from '../../auth/expected-versions.js';
import { IdParams, expectedVersionField } from '../../lib/schema-fields.js';
import {
  Sheet,
  CreateSheetBody,
  CreateSheetResponse,
  ListSheetsQuery,
  ListSheetsResponse,
  SheetInWorkspace as InWorkspace,
  SheetResponse,
  TrashSheetResponse,
  UpdateSheetBody,
} from '../../modules/sheets/sheets.schemas.js';
import { McpPage, NextPage, paged } from '../paging.js';
import { ADDITIVE, READ_ONLY, type ToolRegistry } from '../tool.js';
import { registerSheetEditTools } from './sheet-edits.js';

const SheetId = IdParams.shape.id.describe('Sheet id, e.g. sht_01j...');
/** What list_sheets and search_sheets show of each sheet (plus snippet with q): never its content. */
export const COMPACT_SHEET_FIELDS = Object.keys(Sheet.shape).filter((k) => k !== 'content' && k !== 'createdAt');
const ListInput = ListSheetsQuery.omit({ fields: true }).extend({
  ...McpPage,
  limit: McpPage.limit.describe('How many sheets to return: default 50, at most 100.'),
  offset: McpPage.offset.describe('How many to skip, for the next page (use when has_more is true).'),
  trashed: z.boolean({ error: 'trashed must be true or false' }).optional().describe('true lists the trash instead of active sheets.'),
});
const SearchInput = ListInput.extend({
  q: z
    .string()
    .trim()
    .min(1, 'q must not be empty')
    .max(200)
    .describe(ListSheetsQuery.shape.q.description ?? 'Search words'),
});
const ListOutput = ListSheetsResponse.extend({ has_more: z.boolean().describe('true when more sheets match beyond this page.'), next: NextPage });

/** The services these tools call. */
export interface SheetToolDeps {
  sheets: SheetsService;
}

export function registerSheetTools(t: ToolRegistry, deps: SheetToolDeps): void {
  const list = async (tool: string, args: z.output<typeof ListInput>, caller: Caller) => {
    const r = await deps.sheets.list(caller, { ...args, fields: COMPACT_SHEET_FIELDS });
    return { success: true as const, ...r, ...paged(tool, r.total, args.offset, r.sheets.length) };
  };

  t.define('list_sheets', {
    title: 'List sheets',
    description:
      "List the user's sheets (documents made of HTML columns col1..col99), newest first, with total and has_more. " +
      'Use offset to page. Set trashed=true to see the trash. To find sheets by words, prefer search_sheets. ' +
      'workspace_id (from list_workspaces) lists a team workspace instead of your personal one; every item says its workspace_id. ' +
      'Items are compact (id, title, folder, tags, updatedAt, no content): read a sheet with get_sheet_content (in pieces, outline first) or get_sheet (whole).',
    input: ListInput,
    output: ListOutput,
    annotations: READ_ONLY,
    source: 'querystring',
    run: (args, auth) => list('list_sheets', args, auth),
  });

  t.define('search_sheets', {
    title: 'Search sheets',
    description:
      'Find sheets whose title or visible text contains all the given words (case-insensitive, works for Japanese/Chinese/Korean). ' +
      'Returns compact items best match first (sort=updated: last changed first) (id, title, folder, tags, updatedAt and a snippet: up to 240 characters around the match, matched words in <mark>), ' +
      'with total and has_more. workspace_id searches a team workspace instead of your personal one. Read a found sheet with get_sheet_content.',
    input: SearchInput,
    output: ListOutput,
    annotations: READ_ONLY,
    source: 'querystring',
    run: (args, auth) => list('search_sheets', args, auth),
  });

  t.define('get_sheet', {
    title: 'Get a sheet',
    description:
      'Fetch one sheet by id with all its columns as HTML (trashed sheets too; trashedAt is then set). ' +
      'For a large sheet prefer get_sheet_content (outline first, then one column in pieces); a result over the size limit is cut with a note.',
    input: z.object({ id: SheetId, workspace_id: InWorkspace }),
    output: SheetResponse,
    annotations: READ_ONLY,
    run: async (args, auth) => ({ success: true as const, sheet: await deps.sheets.get(auth, args.id, 'records.read', { workspace_id: args.workspace_id }) }),
  });

  t.define('create_sheet', {
    creates: true,
    title: 'Create a sheet',
    description:
      'Create a new sheet. content maps column keys col1..col99 to HTML strings (e.g. {"col1": "<h1>Plan</h1><p>...</p>"}). ' +
      'Optional folder and tags; optional workspace_id (from list_workspaces) creates it in a team workspace (needs the editor role). Fires the sheet.created webhook event.',
    input: CreateSheetBody,
    output: CreateSheetResponse,
    annotations: ADDITIVE,
    run: async (args, auth) => {
      const sheet = await deps.sheets.create(auth, args);
      return { success: true as const, id: sheet.id, title: sheet.title, sheet };
    },
  });

  t.define('update_sheet', {
    title: 'Update a sheet',
    description:
      'Change a sheet. Only the fields you send change. content merges by column: keys sent replace those columns, ' +
      'a key sent as null removes that column, other columns stay. Fires sheet.updated listing the changed fields (nothing if nothing changed). ' +
      'The answer has the new version; send expected_version to write only if nobody changed the sheet since you read it (else a version_conflict error naming current_version). ' +
      'To add text without rewriting a column, prefer append_to_sheet or replace_in_sheet.',
    input: UpdateSheetBody.extend({ id: SheetId, workspace_id: InWorkspace }),
    output: SheetResponse,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async ({ id, expected_version, workspace_id, ...patch }, auth) => ({
      success: true as const,
      sheet: await deps.sheets.update(auth, id, patch, expectedVersions(undefined, expected_version), { workspace_id }),
    }),
  });

  t.define('trash_sheet', {
    title: 'Move a sheet to the trash',
    description: 'Move a sheet to the trash (recoverable with restore_sheet for 30 days, then purged). ' + 'With permanent=true it is removed for good instead, which cannot be undone. Fires sheet.deleted.',
    input: z.object({
      id: SheetId,
      permanent: z.boolean().optional().describe('true deletes the sheet for good instead of trashing it. Only when the user asked for that.'),
      expected_version: expectedVersionField,
      workspace_id: InWorkspace,
    }),
    output: TrashSheetResponse,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async ({ id, permanent, expected_version, workspace_id }, auth) => ({
      success: true as const,
      ...(await deps.sheets.remove(auth, id, permanent, expectedVersions(undefined, expected_version), { workspace_id })),
    }),
  });

  t.define('restore_sheet', {
    title: 'Restore a trashed sheet',
    description: 'Bring a sheet back from the trash. Restoring a sheet that is not trashed changes nothing.',
    input: z.object({ id: SheetId, expected_version: expectedVersionField, workspace_id: InWorkspace }),
    output: SheetResponse,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async ({ id, expected_version, workspace_id }, auth) => ({
      success: true as const,
      sheet: await deps.sheets.restore(auth, id, expectedVersions(undefined, expected_version), { workspace_id }),
    }),
  });

  registerSheetEditTools(t, deps);
}
