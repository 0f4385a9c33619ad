import { htmlToText } from '../../lib/html-text.js';
import { htmlToMarkdown, markdownToHtml } from './markdown.js';
import { extractTodos, wordCount } from './text.js';

/** Sparks that run in-process, with no AI provider: pure functions of the content. */
export const OFFLINE_RUNNERS = {
  word_count: wordCount,
  extract_todos: extractTodos,
  html_to_text: htmlToText,
  markdown_to_html: markdownToHtml,
  html_to_markdown: htmlToMarkdown,
} satisfies Record<string, (content: string) => string>;

export type OfflineRunner = keyof typeof OFFLINE_RUNNERS;
