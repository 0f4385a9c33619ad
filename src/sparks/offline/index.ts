import { convertHtml } from '../../runtime/html-convert.js';
import { markdownToHtml } from './markdown.js';
import { extractTodos, wordCount } from './text.js';

/**
 * Sparks that run in-process, with no AI provider: pure functions of the content. HTML is read the way
 * sheets are (src/runtime/html-convert.ts): nesting flattened for Markdown, long content in a worker thread
 * (Turndown on 12,000 nested <div> overflowed the stack after 9 s on the event loop).
 */
export const OFFLINE_RUNNERS = {
  word_count: wordCount,
  extract_todos: extractTodos,
  html_to_text: (content: string) => convertHtml('text', content, 'content'),
  markdown_to_html: markdownToHtml,
  html_to_markdown: (content: string) => convertHtml('markdown', content, 'content'),
} satisfies Record<string, (content: string) => string | Promise<string>>;

export type OfflineRunner = keyof typeof OFFLINE_RUNNERS;
