import { htmlToText } from '../../lib/html-text.js';

/**
 * The next steps of a handover, and which of them later work has done. Pure functions over what the
 * briefing already read; a handover's HTML is read through a bounded prefix, so a huge sheet costs what
 * a small one does.
 */

const STEPS_HTML_MAX = 64 * 1024;
const TODO_SNAPSHOT = '<h3>Open todos</h3>';

/** The items of the first ordered or unordered list in the handover's next-steps column (col2), in order. */
export function nextSteps(content: Record<string, string>): string[] {
  let html = (content.col2 ?? '').slice(0, STEPS_HTML_MAX);
  const snapshot = html.indexOf(TODO_SNAPSHOT);
  if (snapshot >= 0) html = html.slice(0, snapshot);
  // The list may run past the prefix read: its end tag is then not there.
  const list = /<(ol|ul)\b[^>]*>([\s\S]*?)(?:<\/\1>|$)/i.exec(html);
  if (!list) return [];
  return list[2]
    .split(/<li\b[^>]*>/i)
    .slice(1)
    .map((item) => oneLine(htmlToText(item)))
    .filter((s) => s.length > 0);
}

/** The handover's other text (notes, summary), without the next steps and the todo snapshot. */
export function handoverText(content: Record<string, string>, maxHtml: number): { notes: string; summary: string; unread: number } {
  const text = (key: string) => {
    const html = (content[key] ?? '').slice(0, maxHtml);
    return htmlToText(html)
      .replace(/^(Notes|Summary)\s*\n/, '')
      .replace(/\n?Files changed\s*\nNone recorded\.\s*$/, '')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
  };
  const notes = text('col3');
  const unread = ['col1', 'col3'].reduce((n, k) => n + Math.max(0, (content[k]?.length ?? 0) - maxHtml), 0);
  return { notes: notes === 'No notes.' ? '' : notes, summary: text('col1'), unread };
}

export const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

const STOP = new Set(['a', 'an', 'the', 'to', 'of', 'and', 'or', 'in', 'on', 'for', 'with', 'it', 'is', 'be', 'by', 'at', 'as', 'from', 'that', 'this']);

/** Lower-case words without stop words; CJK text counts each character pair, so 「移行する」 matches 「移行」. */
function words(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text
    .toLowerCase()
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}]+/u)) {
    if (!w || STOP.has(w)) continue;
    if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(w) && w.length > 2) {
      for (let i = 0; i < w.length - 1; i++) out.add(w.slice(i, i + 2));
    } else out.add(w.length > 4 ? w.replace(/(ing|ed|es|s)$/, '') : w);
  }
  return out;
}

/**
 * Whether `done` (a completed todo or task) says the step is done: the same words, or most of the
 * step's words (at least two thirds, and every one of a step of two words or fewer).
 */
export function stepMatches(step: string, done: string): boolean {
  const a = words(step);
  const b = words(done);
  if (a.size === 0 || b.size === 0) return false;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return a.size <= 2 ? shared === a.size : shared / a.size >= 2 / 3 && shared / b.size >= 1 / 2;
}

/** For each step, the first done text that matches it (undefined: still to do). */
export function doneSteps(steps: string[], doneTexts: string[]): (string | undefined)[] {
  return steps.map((step) => doneTexts.find((d) => stepMatches(step, d)));
}
