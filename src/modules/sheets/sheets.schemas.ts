import { z } from 'zod';
import { SnippetField, fieldsQuery } from '../../lib/fields.js';
import { Tags, Timestamp, WorkspaceIdInput, WorkspaceIdView, expectedVersionField, queryBool, queryInt, recordInWorkspace } from '../../lib/schema-fields.js';
import { READ_FORMATS, parseLines } from './sheets.window.js';

export const COLUMN_KEY = /^col[1-9][0-9]?$/;
const columnKey = z.string().regex(COLUMN_KEY, 'column keys must be col1..col99');
const Html = z.string().max(500_000);
/** Said in the API's words instead of zod's "expected record, received string". */
const contentShape = { error: (issue: { code?: string }) => (issue.code === 'invalid_type' ? 'content must be an object of column keys (col1..col99) to HTML strings, e.g. {"col1":"<p>text</p>"}' : undefined) };

export const Sheet = z
  .object({
    id: z.string(),
    title: z.string(),
    content: z.record(z.string(), z.string()).describe('Column key (col1..col99) to HTML string.'),
    folder: z.string().nullable(),
    tags: z.array(z.string()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    trashedAt: Timestamp.nullable().describe('Set while the sheet is in the trash; trashed sheets are purged after 30 days.'),
    version: z.number().int().describe('1 at creation, +1 on every change (trash and restore too); the ETag is this number in quotes.'),
    workspace_id: WorkspaceIdView,
  })
  .meta({ id: 'Sheet' });
export type SheetView = z.infer<typeof Sheet>;

export const ListSheetsQuery = z.object({
  limit: queryInt('limit').optional().describe('Default 50; values above 100 are clamped to 100.'),
  offset: queryInt('offset').optional(),
  q: z.string().max(200).optional().describe('Words matched (all of them) in the title and the text of the HTML, case-insensitively; works for CJK.'),
  trashed: queryBool('trashed').optional().describe('true lists the trash instead of active sheets.'),
  fields: fieldsQuery(Object.keys(Sheet.shape)).optional(),
  workspace_id: WorkspaceIdInput,
  sort: z
    .enum(['relevance', 'updated'])
    .optional()
    .describe(
      'With q: relevance (default; best matches first) or updated (last changed first). Without q the list is newest first. A query matching most of your sheets (more than half of them, and more than SEARCH_RANK_MAX_MATCHES, 10,000 by default) comes newest first under relevance, with its exact total.',
    ),
});

export const CreateSheetBody = z.object({
  title: z.string().trim().min(1, 'title must not be empty').max(1000),
  content: z.record(columnKey, Html, contentShape).optional(),
  folder: z.string().max(200).optional(),
  tags: Tags.optional(),
  workspace_id: WorkspaceIdInput,
});
export type CreateSheetInput = z.infer<typeof CreateSheetBody>;

export const UpdateSheetBody = z.object({
  title: z.string().trim().min(1, 'title must not be empty').max(1000).optional(),
  content: z.record(columnKey, Html.nullable(), contentShape).optional().describe('Merged by column key: sent keys replace, null removes, others stay.'),
  folder: z.string().max(200).nullable().optional(),
  tags: Tags.optional(),
  expected_version: expectedVersionField,
});
export type UpdateSheetInput = z.infer<typeof UpdateSheetBody>;

export type { InWorkspace } from '../workspaces/workspaces.access.js';
export const SheetInWorkspace = recordInWorkspace('sheet');

export const DeleteSheetQuery = z.object({
  permanent: queryBool('permanent').optional().describe('true removes the sheet for good instead of moving it to the trash.'),
});

export const SheetListItem = Sheet.partial()
  .extend({ id: z.string(), snippet: SnippetField.optional() })
  .meta({ id: 'SheetListItem', description: 'A sheet with the fields chosen by fields= (all by default), plus snippet when q is given.' });
export const ListSheetsResponse = z.object({ success: z.literal(true), sheets: z.array(SheetListItem), total: z.number().int() });
export const SheetResponse = z.object({ success: z.literal(true), sheet: Sheet });
export const CreateSheetResponse = z.object({ success: z.literal(true), id: z.string(), title: z.string(), sheet: Sheet });
export const TrashSheetResponse = z.object({
  success: z.literal(true),
  id: z.string(),
  trashedAt: Timestamp.nullable(),
  deleted: z.boolean().describe('true when the sheet was removed for good (permanent=true).'),
});

export const Actor = z
  .object({
    type: z.enum(['api_key', 'console', 'oauth_client']),
    id: z.string().nullable(),
    name: z.string().nullable(),
    user_id: z.string().nullable().describe('The account (usr_...) of the member who wrote, so a team sees who it was; null for writes older than workspaces.'),
  })
  .nullable()
  .describe(
    "Who made the write: an API key (its name and id), the web console (with the key it was opened with) or an OAuth client, and the account that used it; null for writes older than revisions. Another member's write on a team sheet shows only that member: user_id, and their account name as name (id null), never which of their keys or apps it was.",
  )
  .meta({ id: 'Actor' });

export const RevisionSummary = z.object({
  version: z.number().int(),
  title: z.string(),
  folder: z.string().nullable(),
  tags: z.array(z.string()),
  changes: z.array(z.string()).describe('What the write that made this version changed: title, content, folder, tags, created, trashed or restored.'),
  updatedAt: Timestamp,
  actor: Actor,
});
export const Revision = z.object({
  version: z.number().int(),
  title: z.string(),
  content: z.record(z.string(), z.string()),
  folder: z.string().nullable(),
  tags: z.array(z.string()),
  updatedAt: Timestamp,
});
export const RevisionParams = z.object({
  id: z.string().min(1).max(100),
  version: z
    .string()
    .regex(/^[1-9]\d{0,14}$/, 'version must be a positive integer')
    .transform(Number),
});
export const ListRevisionsQuery = z.object({
  limit: queryInt('limit').optional().describe('Default 50; values above 100 are clamped to 100.'),
  offset: queryInt('offset').optional(),
});
export const ListRevisionsResponse = z.object({
  success: z.literal(true),
  revisions: z.array(RevisionSummary),
  total: z.number().int(),
  current: RevisionSummary.pick({ version: true, changes: true, updatedAt: true, actor: true }).describe('The current version: what its write changed and who made it.'),
});
export const RevisionResponse = z.object({ success: z.literal(true), revision: Revision });

const columnChoice = columnKey.optional();
export const AppendBody = z.object({
  column: columnChoice.describe('Column to append to; default the highest-numbered column (col1 on an empty sheet). A column that does not exist is created.'),
  html: Html.min(1, 'html must not be empty'),
  separator: z.string().max(1000).optional().describe('Put between the old and the new text when the column is not empty; default none.'),
  expected_version: expectedVersionField,
});
export type AppendInput = z.infer<typeof AppendBody>;
export const ReplaceBody = z.object({
  column: columnChoice.describe('Search only this column; default all columns together.'),
  find: z.string().min(1, 'find must not be empty').max(100_000).describe('Plain text searched for in the stored HTML (no patterns).'),
  replace: Html.describe('What each occurrence becomes (may be empty).'),
  all: z.boolean().optional().describe('true replaces every occurrence; otherwise exactly one must exist (409 no_match / ambiguous_match with count).'),
  expected_version: expectedVersionField,
});
export type ReplaceInput = z.infer<typeof ReplaceBody>;
export const AddColumnBody = z.object({
  html: Html.optional().describe('Initial HTML of the new column; default empty.'),
  expected_version: expectedVersionField,
});
export type AddColumnInput = z.infer<typeof AddColumnBody>;
export const ColumnParams = z.object({ id: z.string().min(1).max(100), col: columnKey });
export const ReplaceResponse = z.object({ success: z.literal(true), replaced: z.number().int(), sheet: Sheet });
export const AddColumnResponse = z.object({ success: z.literal(true), column: z.string(), sheet: Sheet });

/** GET /sheets/{id}'s window parameters and answer, and the outline of GET /sheets/{id}/columns (docs/agents.md). */
const lineRange = (name: string) =>
  z
    .string()
    .max(40)
    .transform((v, ctx) => {
      try {
        return parseLines(v);
      } catch {
        ctx.addIssue({ code: 'custom', message: `${name} must look like A-B (1-based, inclusive, A <= B)` });
        return z.NEVER;
      }
    });

const ColumnList = z
  .string()
  .max(1000)
  .transform((v, ctx) => {
    const keys = [
      ...new Set(
        v
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s.length > 0),
      ),
    ];
    const bad = keys.find((k) => !COLUMN_KEY.test(k));
    if (bad !== undefined) {
      ctx.addIssue({ code: 'custom', message: `columns must be column keys col1..col99, got '${bad.slice(0, 20)}'` });
      return z.NEVER;
    }
    return keys;
  });

export const ReadFormat = z.enum(READ_FORMATS, { error: 'format must be one of: html, markdown, text' });

const positive = (name: string) => queryInt(name).refine((n) => n >= 1, `${name} must be at least 1`);

export const GetSheetQuery = z.object({
  columns: ColumnList.optional().describe('Comma-separated column keys (col1,col3): only those columns in content.'),
  format: ReadFormat.optional().describe('html (default: the HTML as stored), markdown (sanitized, GFM tables) or text (the visible text).'),
  max_chars: positive('max_chars').optional().describe('Per column: at most this many characters (Unicode code points of the chosen format).'),
  offset_chars: queryInt('offset_chars').optional().describe("Per column: where the window starts (a previous window's next_offset). Default 0."),
  lines: lineRange('lines').optional().describe('Per column: lines A-B (1-based, inclusive) of the markdown or text form; not with format=html.'),
});
export type GetSheetQueryInput = z.output<typeof GetSheetQuery>;

const ColumnWindowSchema = z.object({
  total_chars: z.number().int().describe('Length of the whole column in the chosen format, in code points.'),
  total_lines: z.number().int(),
  from: z.number().int().describe('Where this window starts.'),
  to: z.number().int().describe('Where it ends (exclusive).'),
  next_offset: z.number().int().nullable().describe('offset_chars of the next window; null when the column was read to its end.'),
});
export const SheetWindowSchema = z
  .object({ format: ReadFormat, columns: z.record(z.string(), ColumnWindowSchema) })
  .meta({ id: 'SheetWindow', description: 'Present when columns, format, max_chars, offset_chars or lines was given: where each returned column window sits.' });

export const GetSheetResponse = SheetResponse.extend({ window: SheetWindowSchema.optional() });

const Heading = z.object({ level: z.number().int(), text: z.string(), line: z.number().int().describe('Line of the markdown form.') });
export const ColumnOutlineSchema = z.object({
  key: z.string(),
  chars: z.number().int().describe('Length of the HTML as stored, in code points.'),
  text_chars: z.number().int().describe('Length of the visible text, in code points.'),
  lines: z.number().int().describe('Lines of the markdown form (what lines=A-B reads).'),
  headings: z.array(Heading),
});
export const OutlineResponse = z.object({ success: z.literal(true), columns: z.array(ColumnOutlineSchema) });
