import { columnToMarkdown } from './html-markdown.js';
import { htmlToText } from './html-text.js';
import { sanitizeHtml } from './sanitize-html.js';

/** The forms a stored column is read in besides its HTML as stored. */
export type HtmlConversion = 'markdown' | 'text' | 'sanitized';

export function convertInPlace(kind: HtmlConversion, html: string): string {
  if (kind === 'markdown') return columnToMarkdown(html);
  if (kind === 'text') return htmlToText(html);
  return sanitizeHtml(html);
}
