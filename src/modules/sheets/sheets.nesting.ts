import { invalid } from '../../errors.js';
import { HTML_MAX_DEPTH } from '../../lib/html-text.js';
import { preparedHtmlDepth } from '../../runtime/html-text-pool.js';
import type { Content } from './sheets.view.js';

/**
 * Refuses columns nesting HTML elements deeper than HTML_MAX_DEPTH: every reader that builds a tree
 * (Markdown, viewers) pays for depth, and 19,000 nested blockquotes overflowed the stack. Only the
 * named columns are judged, so a sheet stored before the limit can still have its other fields changed.
 */
export function checkNesting(content: Content, columns: Iterable<string>): void {
  for (const key of columns) {
    const html = content[key];
    if (html === undefined) continue;
    const depth = preparedHtmlDepth(html);
    if (depth > HTML_MAX_DEPTH) {
      throw invalid(`content.${key} nests HTML elements ${depth} deep; at most ${HTML_MAX_DEPTH} nested elements are allowed`);
    }
  }
}
