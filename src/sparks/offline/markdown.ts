import { Marked } from 'marked';
import { sanitizeHtml } from '../../lib/sanitize-html.js';

const marked = new Marked({ gfm: true, breaks: false, async: false });

/**
 * Markdown (GitHub flavour) rendered to HTML that is safe to insert into a page:
 * the project's allowlist sanitizer (src/lib/sanitize-html.ts) removes scripts,
 * event handlers, styles, iframes and javascript:/data: links from the result,
 * including raw HTML written inside the Markdown.
 */
export function markdownToHtml(content: string): string {
  return sanitizeHtml(marked.parse(content) as string).trim();
}
