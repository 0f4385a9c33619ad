import { createRequire } from 'node:module';
import type TurndownService from 'turndown';
import { HTML_MAX_DEPTH, htmlToText } from './html-text.js';
import { sanitizeHtml } from './sanitize-html.js';

/**
 * One HTML -> Markdown conversion for everything that hands a sheet out as Markdown (exports, windowed
 * reads, MCP): sanitized first, then Turndown with GitHub-flavoured pipe tables and HTML-looking text kept
 * as text. turndown-plugin-gfm is not a dependency, so the table rules are here (the plugin's approach:
 * the first row is the header row).
 */

let turndown: TurndownService | undefined;
let escapeText: (text: string) => string;

const cellText = (content: string) =>
  content
    .replace(/\s*\n+\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();

/** Each table's first row, found once: querySelector per row listed every row of the table (16,000 rows took minutes). */
const firstRows = new WeakMap<Node, Node | null>();

function firstRowOf(table: Node): Node | null {
  let first = firstRows.get(table);
  if (first !== undefined) return first;
  first = null;
  rows: for (const child of Array.from(table.childNodes)) {
    if (child.nodeName === 'TR') {
      first = child;
      break;
    }
    if (child.nodeName === 'THEAD' || child.nodeName === 'TBODY' || child.nodeName === 'TFOOT') {
      for (const row of Array.from(child.childNodes)) {
        if (row.nodeName === 'TR') {
          first = row;
          break rows;
        }
      }
    }
  }
  firstRows.set(table, first);
  return first;
}

function isFirstRow(tr: HTMLElement): boolean {
  const section = tr.parentNode as HTMLElement | null;
  if (!section) return true;
  const table = section.nodeName === 'TABLE' ? section : (section.parentNode as HTMLElement | null);
  return table ? firstRowOf(table) === tr : true;
}

function cellCount(tr: HTMLElement): number {
  let n = 0;
  for (const child of Array.from(tr.childNodes)) if (child.nodeName === 'TH' || child.nodeName === 'TD') n++;
  return n;
}

function build(): TurndownService {
  // require keeps this synchronous; Turndown's DOM (~50 modules) loads on first use, not at start.
  const Turndown = createRequire(import.meta.url)('turndown') as typeof TurndownService;
  const td = new Turndown({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' });
  const markdownEscape = td.escape.bind(td);
  escapeText = (text: string) => markdownEscape(text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
  td.escape = escapeText;
  td.addRule('image', {
    filter: 'img',
    replacement: (_content, node) => {
      const img = node as HTMLElement;
      const attr = (name: string) => (img.getAttribute(name) ?? '').replace(/(\n+\s*)+/g, '\n');
      const alt = escapeText(attr('alt'));
      const src = attr('src');
      const title = attr('title');
      return src ? `![${alt}](${src}${title ? ` "${escapeText(title).replace(/"/g, '\\"')}"` : ''})` : '';
    },
  });
  td.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content, node) => {
      const first = (node as HTMLElement).previousElementSibling == null;
      return `${first ? '| ' : ' '}${cellText(content)} |`;
    },
  });
  td.addRule('tableRow', {
    filter: 'tr',
    replacement: (content, node) => {
      const tr = node as HTMLElement;
      const row = `\n${content}`;
      if (!isFirstRow(tr)) return row;
      const divider = `\n|${' --- |'.repeat(Math.max(1, cellCount(tr)))}`;
      return row + divider;
    },
  });
  td.addRule('tableSection', { filter: ['thead', 'tbody', 'tfoot'], replacement: (content) => content });
  td.addRule('table', { filter: 'table', replacement: (content) => `\n\n${content.replace(/\n+/g, '\n').trim()}\n\n` });
  return td;
}

/**
 * Markdown renders raw HTML, so text that merely looks like HTML (a sheet about "<script>") would become
 * markup in a viewer. Text is entity-escaped (& first, so a literal "&lt;" survives), then Markdown-escaped.
 * Turndown calls this for text outside code only; code is literal in Markdown and stays verbatim.
 */
export function markdownText(text: string): string {
  turndown ??= build();
  return escapeText(text);
}

/**
 * A column's HTML as Markdown (sanitized first, trimmed). Turndown walks its DOM recursively, so
 * nesting is flattened below HTML_MAX_DEPTH first: columns stored before that limit nest deeper.
 */
export function columnToMarkdown(html: string): string {
  turndown ??= build();
  return turndown.turndown(sanitizeHtml(html, { maxDepth: HTML_MAX_DEPTH })).trim();
}

/** A column's HTML as plain text (the txt export's conversion). */
export function columnToText(html: string): string {
  return htmlToText(html);
}
