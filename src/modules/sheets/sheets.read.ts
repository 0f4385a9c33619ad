import { IN_PLACE_MAX_CHARS, convertHtml } from '../../runtime/html-convert.js';
import { htmlToText } from '../../lib/html-text.js';
import { pickFields } from '../../lib/fields.js';
import { bestSnippet } from '../search/substring/list-snippet.js';
import { invalid } from '../../errors.js';
import type { GetSheetQueryInput, SheetView } from './sheets.schemas.js';
import { columnOrder } from './sheets.columns.js';
import { windowContent, type SheetWindow, type WindowRequest } from './sheets.window.js';

/** Reads sized for an agent: which columns, in which form, which window of them (docs/agents.md); list items with snippets. */

/** The window request of a GET, or undefined when none of its parameters was given (the sheet as stored). */
export function windowRequest(q: GetSheetQueryInput): WindowRequest | undefined {
  if (q.columns === undefined && q.format === undefined && q.max_chars === undefined && q.offset_chars === undefined && q.lines === undefined) return undefined;
  if (q.lines && q.offset_chars !== undefined) throw invalid("query parameter 'lines': use either lines or offset_chars, not both");
  return { format: q.format ?? 'html', columns: q.columns, maxChars: q.max_chars, offsetChars: q.offset_chars, lines: q.lines };
}

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
  const keys = columnOrder(Object.keys(view.content));
  const total = keys.reduce((n, k) => n + view.content[k].length, 0);
  const texts: string[] = [];
  for (const k of keys) {
    const html = view.content[k];
    texts.push(total <= IN_PLACE_MAX_CHARS ? htmlToText(html) : await convertHtml('text', html, `column ${k} of sheet ${view.id}`));
  }
  return { ...item, snippet: bestSnippet([texts.join('\n'), view.title], terms) };
}
