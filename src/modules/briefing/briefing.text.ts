import { columnToMarkdown } from '../../lib/html-markdown.js';

/**
 * Pieces of the briefing text, each cut to a budget. Pure functions: everything the briefing shows
 * passes through here, so the text can never grow past what it was given, however much is stored.
 */

/** A string of at most `max` UTF-16 units, never ending inside a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** At most `max` characters, ending at a line break when one lies in the last fifth. */
export function cutAtLine(text: string, max: number): string {
  if (text.length <= max) return text;
  const nl = text.lastIndexOf('\n', max);
  return nl >= max * 0.8 ? text.slice(0, nl).trimEnd() : clip(text, max).trimEnd();
}

/** A prefix of HTML of about `max` characters, cut before a tag so no tag or entity is split. */
function htmlPrefix(html: string, max: number): string {
  if (html.length <= max) return html;
  const lt = html.lastIndexOf('<', max);
  if (lt >= max / 2) return html.slice(0, lt);
  const amp = html.lastIndexOf('&', max);
  return clip(html, amp > max - 12 ? amp : max);
}

/** Characters of visible text in HTML from `from` on, roughly and in one pass without copying (tags dropped, entities counted as written). */
export function roughTextLength(html: string, from = 0): number {
  let n = 0;
  let inTag = false;
  for (let i = from; i < html.length; i++) {
    const c = html.charCodeAt(i);
    if (inTag) inTag = c !== 0x3e;
    else if (c === 0x3c) inTag = true;
    else n++;
  }
  return n;
}

/**
 * The generated handover (src/modules/sessions/sessions.handover.ts) lists the project's open todos of
 * that moment after its next steps; the briefing lists them as they are now, so the copy is left out.
 */
const TODO_SNAPSHOT = '<h3>Open todos</h3>';

/** Column keys in the order the briefing reads them: next steps (col2), notes (col3), summary (col1), the rest. */
export function handoverColumnOrder(content: Record<string, string>): string[] {
  const rest = Object.keys(content)
    .filter((k) => !['col1', 'col2', 'col3'].includes(k))
    .sort((a, b) => Number(a.slice(3)) - Number(b.slice(3)));
  return ['col2', 'col3', 'col1', ...rest].filter((k) => k in content);
}

/**
 * The handover's columns as Markdown within `budget` characters. Only a bounded prefix of each column
 * is converted (half as much again as could still be shown, CONVERT_TOTAL_FACTOR times the budget in all), so a
 * 1 MB handover costs what a small one does; what is left out is counted roughly.
 */
const CONVERT_TOTAL_FACTOR = 3;

export function handoverMarkdown(content: Record<string, string>, budget: number): { text: string; omitted: number } {
  const parts: string[] = [];
  let room = budget;
  let convertLeft = budget * CONVERT_TOTAL_FACTOR;
  let omitted = 0;
  for (const key of handoverColumnOrder(content)) {
    let html = content[key];
    if (key === 'col2' && html.includes(TODO_SNAPSHOT)) html = html.slice(0, html.indexOf(TODO_SNAPSHOT));
    const sep = parts.length ? 2 : 0;
    if (room - sep < 40 || convertLeft <= 0) {
      omitted += roughTextLength(html);
      continue;
    }
    const prefix = htmlPrefix(html, Math.min(convertLeft, Math.ceil(1.5 * room) + 500));
    convertLeft -= prefix.length;
    const md = columnToMarkdown(prefix);
    if (!md) continue;
    const shown = cutAtLine(md, room - sep);
    parts.push(shown);
    room -= shown.length + sep;
    omitted += md.length - shown.length + roughTextLength(html, prefix.length);
  }
  return { text: parts.join('\n\n'), omitted };
}

export interface BriefingTodo {
  id: string;
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
  priority: 'low' | 'medium' | 'high';
}

const TODO_LINE_MAX = 300;
const STATUS = { pending: 'pending', in_progress: 'in progress', completed: 'done' } as const;

export function todoLine(t: BriefingTodo): string {
  const content = t.content.replace(/\s+/g, ' ').trim();
  const cut = content.length > TODO_LINE_MAX ? `${clip(content, TODO_LINE_MAX - 1)}…` : content;
  return `- [${STATUS[t.status]}] ${cut}${t.priority === 'medium' ? '' : ` (${t.priority} priority)`}`;
}

/** As many todo lines as fit in `budget` characters (joined by line breaks), in the order given. */
export function fittingTodos(todos: BriefingTodo[], budget: number): { lines: string[]; shown: BriefingTodo[] } {
  const lines: string[] = [];
  const shown: BriefingTodo[] = [];
  let used = 0;
  for (const t of todos) {
    const line = todoLine(t);
    const cost = line.length + (lines.length ? 1 : 0);
    if (used + cost > budget) break;
    lines.push(line);
    shown.push(t);
    used += cost;
  }
  return { lines, shown };
}
