import { columnOrder } from './sheets.columns.js';
import { convertColumn, countLines } from './sheets.window.js';

/**
 * What an agent reads before deciding which part of a sheet to fetch: per column its size in each form and
 * its headings. `lines` and every heading's `line` count lines of the Markdown form, the form that
 * `lines=A-B` (and get_sheet_content's default) reads.
 */

export interface Heading {
  level: number;
  text: string;
  line: number;
}

export interface ColumnOutline {
  key: string;
  chars: number;
  text_chars: number;
  lines: number;
  headings: Heading[];
}

const codePoints = (s: string) => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/** ATX headings of Markdown, skipping fenced code blocks. */
export function markdownHeadings(md: string): Heading[] {
  const out: Heading[] = [];
  let fence: string | null = null;
  md.split('\n').forEach((line, i) => {
    const f = /^\s{0,3}(```+|~~~+)/.exec(line);
    if (f) {
      if (fence === null) fence = f[1][0];
      else if (f[1][0] === fence) fence = null;
      return;
    }
    if (fence !== null) return;
    const h = /^(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (h && h[2].length > 0) out.push({ level: h[1].length, text: h[2], line: i + 1 });
  });
  return out;
}

export async function outlineColumns(content: Record<string, string>): Promise<ColumnOutline[]> {
  const out: ColumnOutline[] = [];
  for (const key of columnOrder(Object.keys(content))) {
    const html = content[key];
    const md = await convertColumn(html, 'markdown', key);
    const text = await convertColumn(html, 'text', key);
    out.push({ key, chars: codePoints(html), text_chars: codePoints(text), lines: countLines(md), headings: markdownHeadings(md) });
  }
  return out;
}
