import { z } from 'zod';
import { invalid } from '../../errors.js';
import type { ZApp } from '../../http/types.js';
import { IdParams, queryInt, responses } from '../../http/schemas.js';
import { outlineColumns } from './sheets.outline.js';
import { IN_PLACE_MAX_CHARS, convertHtml } from '../../lib/html-convert.js';
import { htmlToText } from '../../lib/html-text.js';
import { pickFields } from '../../lib/fields.js';
import { bestSnippet } from '../../lib/snippet.js';
import { COLUMN_KEY, SheetResponse, type SheetView } from './sheets.schemas.js';
import type { SheetsService } from './sheets.service.js';
import { READ_FORMATS, orderedKeys, parseLines, windowContent, type SheetWindow, type WindowRequest } from './sheets.window.js';

/** Reads sized for an agent: which columns, in which form, which window of them (docs/agents.md). */

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

export const ColumnList = z
  .string()
  .max(1000)
  .transform((v, ctx) => {
    const keys = [...new Set(v.split(',').map((s) => s.trim()).filter((s) => s.length > 0))];
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

/** The window request of a GET, or undefined when none of its parameters was given (the sheet as stored). */
export function windowRequest(q: GetSheetQueryInput): WindowRequest | undefined {
  if (q.columns === undefined && q.format === undefined && q.max_chars === undefined && q.offset_chars === undefined && q.lines === undefined) return undefined;
  if (q.lines && q.offset_chars !== undefined) throw invalid("query parameter 'lines': use either lines or offset_chars, not both");
  return { format: q.format ?? 'html', columns: q.columns, maxChars: q.max_chars, offsetChars: q.offset_chars, lines: q.lines };
}

export const GetSheetResponse = SheetResponse.extend({ window: SheetWindowSchema.optional() });

/** GET /sheets/{id}'s body: the sheet as stored, or with its content windowed as the query asks. */
export async function readSheet<T extends { content: Record<string, string> }>(sheet: T, query: GetSheetQueryInput): Promise<{ sheet: T; window?: SheetWindow }> {
  const req = windowRequest(query);
  if (!req) return { sheet };
  const { content, window } = await windowContent(sheet.content, req);
  return { sheet: { ...sheet, content }, window };
}

/** A sheet as a list shows it: the chosen fields, and with search terms a snippet of its text (or title). */
export function sheetListItem(view: SheetView, fields: string[] | undefined) {
  return pickFields(view, fields);
}

/**
 * A list item with a snippet of its text (or title) for the search terms. A sheet longer than
 * IN_PLACE_MAX_CHARS is read column by column through convertHtml: long columns off the event loop.
 */
export async function sheetSearchItem(view: SheetView, terms: string[], fields: string[] | undefined) {
  const item = pickFields(view, fields);
  const keys = orderedKeys(view.content);
  const total = keys.reduce((n, k) => n + view.content[k].length, 0);
  const texts: string[] = [];
  for (const k of keys) {
    const html = view.content[k];
    texts.push(total <= IN_PLACE_MAX_CHARS ? htmlToText(html) : await convertHtml('text', html, `column ${k} of sheet ${view.id}`));
  }
  return { ...item, snippet: bestSnippet([texts.join('\n'), view.title], terms) };
}

const Heading = z.object({ level: z.number().int(), text: z.string(), line: z.number().int().describe('Line of the markdown form.') });
export const ColumnOutlineSchema = z.object({
  key: z.string(),
  chars: z.number().int().describe('Length of the HTML as stored, in code points.'),
  text_chars: z.number().int().describe('Length of the visible text, in code points.'),
  lines: z.number().int().describe('Lines of the markdown form (what lines=A-B reads).'),
  headings: z.array(Heading),
});
export const OutlineResponse = z.object({ success: z.literal(true), columns: z.array(ColumnOutlineSchema) });

export function registerSheetReadRoutes(app: ZApp, sheets: Pick<SheetsService, 'get'>) {
  app.get('/sheets/:id/columns', {
    schema: {
      tags: ['Sheets'],
      operationId: 'outlineSheet',
      summary: 'Outline of a sheet: per column its size, lines and headings, to choose what to read',
      params: IdParams,
      response: responses(OutlineResponse, 403, 404),
    },
    handler: async (req) => ({ success: true as const, columns: await outlineColumns((await sheets.get(req.auth.userId, req.params.id)).content) }),
  });
}
