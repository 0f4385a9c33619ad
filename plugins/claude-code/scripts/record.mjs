// The session record the capture sends (PUT /v1/sessions/external/cc:<id> with source 'capture'), built from a parsed
// transcript (transcript.mjs) without any LLM: a title from the work, the outcome, the tasks done and still open, the
// files changed, the commands that failed, the prompts (shortened) and a short summary composed of these. Everything
// is redacted here (redact.mjs, and the .env values the session read).
import path from 'node:path';
import { redact, redactWith } from './redact.mjs';

/** The service's limits (src/modules/sessions/sessions.schemas.ts) and what the record keeps within them. */
export const LIMITS = { title: 1000, summary: 200_000, files: 1000, fileChars: 1000, tasks: 200, taskChars: 1000, errors: 100, errorChars: 2000 };
const TITLE_CHARS = 80;
const OUTCOME_CHARS = 2000;
const PROMPT_CHARS = 300;
/** The first few prompts and the last ones (a long or resumed session's latest asks matter most). */
const PROMPTS_FIRST = 5;
const PROMPTS_LAST = 15;
const COMMAND_CHARS = 500;
const ERROR_LINE_CHARS = 300;
/** How much of each part the summary shows; the fields hold the rest. */
const SUMMARY = { outcome: 600, tasks: 8, files: 15, errors: 5, prompts: 3, promptChars: 160 };

const cut = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const oneLine = (s) =>
  String(s ?? '')
    .replace(/\s+/g, ' ')
    .trim();

/** Paths relative to the repository root, deduplicated, in first-touched order. */
export function relativeFiles(files, root) {
  const seen = new Set();
  for (const file of files) {
    const abs = path.resolve(root, file);
    const rel = path.relative(root, abs);
    const shown = rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : abs;
    seen.add(shown);
  }
  return [...seen];
}

/**
 * The first sentence of a message, as a title: the first line (Markdown marks gone) whose first sentence says something;
 * a heading or a sentence of fewer than three words ("Done.") does not. '' when none does.
 */
export function firstSentence(text) {
  for (const raw of String(text ?? '')
    .split('\n')
    .slice(0, 20)) {
    const flat = oneLine(raw.replace(/^(?:[#>*\-\s]|\d+[.)]\s)+/, '').replace(/[*_`]+/g, ''));
    const m = /^(.+?[.!?])(?:\s|$)/.exec(flat);
    const sentence = (m ? m[1] : flat).replace(/[.:]$/, '').trim();
    if (sentence.split(' ').length >= 3) return sentence;
  }
  return '';
}

/** Deduplicated, redacted, each within the service's limit. */
function taskList(subjects, clean) {
  const out = [];
  for (const s of subjects) {
    const t = cut(oneLine(clean(s)), LIMITS.taskChars);
    if (t && !out.includes(t)) out.push(t);
  }
  return out.slice(-LIMITS.tasks);
}

/** The title from the work: the tasks completed, else the closing message's first sentence, else the first prompt. */
function titleOf({ done, outcome, prompts, sessionId }) {
  let title = '';
  if (done.length) title = done.length > 3 ? `${done.slice(0, 3).join('; ')} (+${done.length - 3} more)` : done.join('; ');
  title ||= firstSentence(outcome) || oneLine(prompts[0] ?? '') || oneLine(outcome) || `Claude Code session ${sessionId.slice(0, 8)}`;
  return cut(oneLine(title), Math.min(TITLE_CHARS, LIMITS.title));
}

/** A few readable lines: what came of it, the tasks, the files, what failed, what was asked. */
function summaryOf({ outcome, done, open, files, errors, prompts }) {
  const list = (items, n) => `${items.slice(0, n).join('; ')}${items.length > n ? ` (+${items.length - n} more)` : ''}`;
  const lines = [];
  if (outcome) lines.push(`Outcome: ${cut(oneLine(outcome), SUMMARY.outcome)}`);
  if (done.length) lines.push(`Done: ${list(done, SUMMARY.tasks)}`);
  if (open.length) lines.push(`Still open: ${list(open, SUMMARY.tasks)}`);
  if (files.length) lines.push(`Files changed (${files.length}): ${files.slice(0, SUMMARY.files).join(', ')}${files.length > SUMMARY.files ? ', …' : ''}`);
  if (errors.length) {
    lines.push(`Failed commands (${errors.length}):`);
    for (const e of errors.slice(0, SUMMARY.errors)) lines.push(`- ${cut(oneLine(e.command), 120)}: ${cut(e.error, 160)}`);
  }
  if (prompts.length) {
    const shown = prompts.slice(0, SUMMARY.prompts).map((p) => `"${cut(oneLine(p), SUMMARY.promptChars)}"`);
    lines.push(`Asked: ${shown.join(' / ')}${prompts.length > SUMMARY.prompts ? ` (+${prompts.length - SUMMARY.prompts} more prompts)` : ''}`);
  }
  return cut(lines.join('\n'), LIMITS.summary);
}

/**
 * The PUT body for a session: redacted, within the service's limits, source 'capture' (the service merges it and never
 * replaces a curated title, summary or outcome); null when the session holds nothing.
 */
export function buildSession({ parsed, project, root, sessionId }) {
  const clean = redactWith(parsed.secrets ?? []);
  const allPrompts = parsed.prompts.map((p) => clean(p));
  const prompts = (allPrompts.length > PROMPTS_FIRST + PROMPTS_LAST ? [...allPrompts.slice(0, PROMPTS_FIRST), ...allPrompts.slice(-PROMPTS_LAST)] : allPrompts).map((p) => cut(p, PROMPT_CHARS));
  const files = relativeFiles(parsed.files, root)
    .map((f) => redact(f))
    .filter((f) => f.length <= LIMITS.fileChars)
    .slice(0, LIMITS.files);
  const done = taskList(parsed.tasksDone ?? [], clean);
  const open = taskList(parsed.tasksOpen ?? [], clean).filter((t) => !done.includes(t));
  const seen = new Set();
  const errors = [];
  for (const e of parsed.errors ?? []) {
    const error = { command: cut(clean(e.command).trim(), COMMAND_CHARS), error: cut(oneLine(clean(e.error)), ERROR_LINE_CHARS) || 'failed' };
    const key = `${error.command}\n${error.error}`;
    if (!error.command || seen.has(key)) continue;
    seen.add(key);
    errors.push(error);
  }
  errors.splice(LIMITS.errors);
  const outcome = parsed.lastAssistant ? cut(clean(parsed.lastAssistant), OUTCOME_CHARS) : '';
  if (!prompts.length && !files.length && !outcome && !done.length && !open.length && !errors.length) return null;
  const title = titleOf({ done, outcome, prompts, sessionId });
  const summary = summaryOf({ outcome, done, open, files, errors, prompts: allPrompts }) || title;
  const body = { title, summary, project, tags: ['claude-code'], files_changed: files, tasks_done: done, tasks_open: open, errors, prompts, agent: 'claude-code', source: 'capture' };
  if (outcome) body.outcome = outcome;
  return body;
}
