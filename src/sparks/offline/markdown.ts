import { createRequire } from 'node:module';
import { Marked } from 'marked';
import type TurndownService from 'turndown';
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

let turndown: TurndownService | undefined;

/** Turndown (and the DOM it parses with, ~50 modules) loads on first use, not at start; require keeps this synchronous. */
function getTurndown(): TurndownService {
  if (turndown) return turndown;
  const Turndown = createRequire(import.meta.url)('turndown') as typeof TurndownService;
  turndown = new Turndown({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' });
  turndown.remove(['script', 'style', 'noscript', 'template']);
  return turndown;
}

/** HTML (a sheet column) to Markdown. */
export function htmlToMarkdown(content: string): string {
  return getTurndown().turndown(content).trim();
}
