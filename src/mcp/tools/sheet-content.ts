import { z } from 'zod';
import type { SheetsService } from '../../modules/sheets/sheets.service.js';
import { AppError, invalid } from '../../errors.js';
import { IdParams, WorkspaceIdView } from '../../lib/schema-fields.js';
import { SheetInWorkspace as InWorkspace } from '../../modules/sheets/sheets.schemas.js';
import { outlineColumns } from '../../modules/sheets/sheets.outline.js';
import { COLUMN_KEY, ColumnOutlineSchema, ReadFormat, SheetWindowSchema } from '../../modules/sheets/sheets.schemas.js';
import { columnOrder } from '../../modules/sheets/sheets.columns.js';
import { parseLines, windowContent, type ReadFormat as Format } from '../../modules/sheets/sheets.window.js';
import { READ_ONLY, type ToolRegistry } from '../tool.js';

export const CONTENT_DEFAULT_CHARS = 20_000;
/** Room for everything around the window (ids, window numbers, note) and JSON escaping of the text. */
const FRAME = 2_000;

const Input = z.object({
  id: IdParams.shape.id.describe('Sheet id, e.g. sht_01j...'),
  column: z.string().regex(COLUMN_KEY, 'column must be a column key col1..col99').optional().describe('Which column (col1..col99); default the first one.'),
  format: ReadFormat.optional().describe('markdown (default; sanitized, GFM tables), text (visible text) or html (as stored).'),
  max_chars: z
    .number()
    .int()
    .min(1, 'max_chars must be at least 1')
    .max(1_000_000)
    .optional()
    .describe(`At most this many characters (default ${CONTENT_DEFAULT_CHARS}); lowered when the result would exceed the result size limit.`),
  offset: z.number().int().min(0, 'offset must be a non-negative integer').optional().describe("Where to start, in characters of the chosen format: the previous answer's window.next_offset."),
  lines: z.string().max(40).optional().describe('Lines A-B (1-based, inclusive) of the markdown or text form, e.g. "120-180"; headings\' line numbers come from summary_only.'),
  summary_only: z.boolean().optional().describe('true: no content, only the outline of every column (sizes, lines, headings).'),
  workspace_id: InWorkspace,
});

const Output = z.object({
  success: z.literal(true),
  id: z.string(),
  title: z.string(),
  version: z.number().int().describe("The sheet's version: send it as expected_version to write only if nobody changed it since."),
  workspace_id: WorkspaceIdView,
  column: z.string().optional(),
  format: ReadFormat.optional(),
  content: z.string().optional().describe('The window of the column.'),
  window: SheetWindowSchema.shape.columns.valueType.optional(),
  next: z.string().optional().describe('How to read on, when the column continues.'),
  columns: z.array(ColumnOutlineSchema).optional().describe('With summary_only: the outline.'),
});

function linesArgument(value: string) {
  try {
    return parseLines(value);
  } catch {
    throw invalid("field 'lines': lines must look like A-B (1-based, inclusive, A <= B)");
  }
}

/** The services these tools call. */
export interface SheetContentToolDeps {
  sheets: SheetsService;
}

export function registerSheetContentTools(t: ToolRegistry, deps: SheetContentToolDeps): void {
  t.define('get_sheet_content', {
    title: 'Read part of a sheet',
    description:
      'Read a sheet in pieces that fit the context: one column, as markdown (default), text or html, at most max_chars characters ' +
      `(default ${CONTENT_DEFAULT_CHARS}) from offset, or lines A-B. window.next_offset says where the next piece starts (null: the end). ` +
      'summary_only=true returns the outline instead (per column: size, lines, headings with line numbers): read it first for a large sheet.',
    input: Input,
    output: Output,
    annotations: READ_ONLY,
    run: async (args, auth) => {
      const sheet = await deps.sheets.get(auth, args.id, 'records.read', { workspace_id: args.workspace_id });
      const head = { success: true as const, id: sheet.id, title: sheet.title, version: sheet.version, workspace_id: sheet.workspace_id };
      if (args.summary_only) return { ...head, columns: await outlineColumns(sheet.content) };
      const format: Format = args.format ?? 'markdown';
      if (args.lines !== undefined && args.offset !== undefined) throw invalid("field 'lines': use either lines or offset, not both");
      const lines = args.lines === undefined ? undefined : linesArgument(args.lines);
      const column = args.column ?? columnOrder(Object.keys(sheet.content))[0];
      if (!column || !(column in sheet.content)) throw new AppError('not_found', `column ${column ?? 'col1'} not found in sheet ${sheet.id}`);

      const budget = t.maxResultChars;
      let maxChars = Math.min(args.max_chars ?? CONTENT_DEFAULT_CHARS, budget);
      for (;;) {
        const { content, window } = await windowContent(sheet.content, { format, columns: [column], maxChars, offsetChars: args.offset, lines });
        const w = window.columns[column];
        const out = {
          ...head,
          column,
          format,
          content: content[column],
          window: w,
          ...(w.next_offset !== null && { next: `More follows: call get_sheet_content with offset=${w.next_offset} (same id, column and format).` }),
        };
        const size = JSON.stringify(out, null, 2).length;
        if (size <= budget - FRAME / 2 || maxChars <= 1) return out;
        // JSON escaping (quotes, line breaks, control characters) made the text longer than its characters: shrink and cut again.
        maxChars = Math.max(1, Math.floor((maxChars * (budget - FRAME)) / size));
      }
    },
  });
}
