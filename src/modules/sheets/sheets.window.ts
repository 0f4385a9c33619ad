import { invalid } from '../../errors.js';
import { convertHtml } from '../../runtime/html-convert.js';
import { columnOrder } from './sheets.columns.js';

/**
 * Windowed reads of sheet columns, for readers that pay per character (agents). Pure functions: a column's
 * HTML in, a piece of it in the chosen format out, with where it sits. Offsets count Unicode code points of
 * the chosen format; a window is a contiguous slice, so windows read one after another (next_offset) and
 * concatenated give exactly the column. Cuts avoid splitting a tag, an entity or (markdown, text) a line
 * whenever such a boundary lies within the window's last 10%.
 */

export const READ_FORMATS = ['html', 'markdown', 'text'] as const;
export type ReadFormat = (typeof READ_FORMATS)[number];

export interface LineRange {
  from: number;
  to: number;
}

export interface WindowRequest {
  format: ReadFormat;
  /** Keys to return; all columns when absent. */
  columns?: string[];
  maxChars?: number;
  offsetChars?: number;
  lines?: LineRange;
}

export interface ColumnWindow {
  total_chars: number;
  total_lines: number;
  from: number;
  to: number;
  next_offset: number | null;
}

export interface SheetWindow {
  format: ReadFormat;
  columns: Record<string, ColumnWindow>;
}

/** Recent conversions: an agent reads a large column window after window, each read converting it again otherwise. Only finished ones are kept. */
const recent = new Map<string, string>();
const RECENT_MAX = 16;
const CACHE_FROM = 20_000;

/** A column in `format`; `key` names it in a 400 when it is too complex to convert (src/runtime/html-convert.ts). */
export async function convertColumn(html: string, format: ReadFormat, key: string): Promise<string> {
  if (format === 'html') return html;
  const convert = () => convertHtml(format, html, `column ${key}`);
  if (html.length < CACHE_FROM) return convert();
  const cacheKey = `${format}\u0000${html}`;
  let out = recent.get(cacheKey);
  if (out === undefined) {
    out = await convert();
    if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value!);
  } else recent.delete(cacheKey);
  recent.set(cacheKey, out);
  return out;
}

export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** "A-B" (1-based, inclusive) or "A"; throws a 400 naming the parameter otherwise. */
export function parseLines(value: string): LineRange {
  const m = /^(\d{1,9})(?:-(\d{1,9}))?$/.exec(value.trim());
  const from = m ? Number(m[1]) : 0;
  const to = m ? Number(m[2] ?? m[1]) : 0;
  if (!m || from < 1 || to < from) throw invalid("query parameter 'lines': lines must look like A-B with 1 <= A <= B");
  return { from, to };
}

/** Code-point positions where HTML may be cut: not inside a tag, comment or character reference. */
function htmlCuttable(cps: string[], upTo: number): (p: number) => boolean {
  const inTag = new Uint8Array(upTo + 1);
  let state: 'text' | 'tag' | 'comment' = 'text';
  let quote = '';
  for (let i = 0; i < upTo; i++) {
    const c = cps[i];
    if (state === 'text') {
      if (c === '<' && /[A-Za-z/!?]/.test(cps[i + 1] ?? '')) state = cps[i + 1] === '!' && cps[i + 2] === '-' && cps[i + 3] === '-' ? 'comment' : 'tag';
    } else if (state === 'tag') {
      if (quote) {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '>') state = 'text';
    } else if (c === '>' && cps[i - 1] === '-' && cps[i - 2] === '-') state = 'text';
    inTag[i + 1] = state === 'text' ? 0 : 1;
  }
  return (p) => {
    if (inTag[p]) return false;
    for (let q = p - 1; q >= 0 && q >= p - 33; q--) {
      const c = cps[q];
      if (c === '&') return false;
      if (!/[A-Za-z0-9#]/.test(c)) return true;
    }
    return true;
  };
}

/**
 * Where a window [from, end) ends: `end` itself at the column's end, else the latest good boundary in the
 * last 10% (never before from + 1, so every window makes progress), else a hard cut at `end`.
 */
export function cutPoint(cps: string[], format: ReadFormat, from: number, end: number, max: number): number {
  if (end >= cps.length) return cps.length;
  const floor = Math.max(from + 1, end - Math.floor(max / 10));
  const afterNewline = (p: number) => cps[p - 1] === '\n';
  if (format !== 'html') {
    for (let p = end; p >= floor; p--) if (afterNewline(p)) return p;
    return end;
  }
  const cuttable = htmlCuttable(cps, end);
  for (let p = end; p >= floor; p--) if (afterNewline(p) && cuttable(p)) return p;
  for (let p = end; p >= floor; p--) if (cuttable(p)) return p;
  return end;
}

/** Code-point offset where each line starts (index 0 is line 1). */
function lineStarts(cps: string[]): number[] {
  const starts = cps.length ? [0] : [];
  for (let i = 0; i < cps.length; i++) if (cps[i] === '\n' && i + 1 <= cps.length) starts.push(i + 1);
  return starts;
}

/** One column's window in an already converted text. */
export function windowText(text: string, format: ReadFormat, req: Omit<WindowRequest, 'format' | 'columns'>): { text: string; window: ColumnWindow } {
  const cps = Array.from(text);
  const total = cps.length;
  const totalLines = countLines(text);
  let from = Math.min(req.offsetChars ?? 0, total);
  let limit = total;
  if (req.lines) {
    const starts = lineStarts(cps);
    from = req.lines.from <= starts.length ? starts[req.lines.from - 1] : total;
    limit = req.lines.to < starts.length ? starts[req.lines.to] : total;
  }
  let to = limit;
  if (req.maxChars !== undefined && from + req.maxChars < limit) {
    to = cutPoint(cps, format, from, from + req.maxChars, req.maxChars);
  }
  return {
    text: cps.slice(from, to).join(''),
    window: { total_chars: total, total_lines: totalLines, from, to, next_offset: to < total ? to : null },
  };
}

/** The requested columns of a sheet, converted and windowed, plus the window description. */
export async function windowContent(content: Record<string, string>, req: WindowRequest): Promise<{ content: Record<string, string>; window: SheetWindow }> {
  if (req.lines && req.format === 'html') throw invalid("query parameter 'lines': lines needs format=markdown or format=text");
  const wanted = req.columns ? new Set(req.columns) : null;
  const out: Record<string, string> = {};
  const columns: Record<string, ColumnWindow> = {};
  for (const key of columnOrder(Object.keys(content))) {
    if (wanted && !wanted.has(key)) continue;
    const w = windowText(await convertColumn(content[key], req.format, key), req.format, req);
    out[key] = w.text;
    columns[key] = w.window;
  }
  return { content: out, window: { format: req.format, columns } };
}
