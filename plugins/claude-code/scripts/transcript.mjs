// Builds the session record from a Claude Code transcript (JSONL, one event per line).
import fs from 'node:fs';
import path from 'node:path';
import { redact, redactWith } from './redact.mjs';
import { envValues, readsEnvFile } from './env-values.mjs';

export const LIMITS = { title: 1000, summary: 200_000, files: 1000, fileChars: 1000 };
const TITLE_CHARS = 80;
const PROMPT_CHARS = 2000;
const PROMPTS_CHARS = 120_000;
const LAST_MESSAGE_CHARS = 60_000;
const FILE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/**
 * Prompts, the last assistant text, the touched file paths (absolute, as the tools got them) and the values of the
 * .env files the session read (a Read of one, or a Bash command naming one): where one of those values turns up in a
 * prompt or a message, it is removed there too.
 */
export function parseTranscript(text) {
  const prompts = [];
  const files = [];
  const secrets = new Set();
  const envReads = new Set();
  let lastAssistant = '';
  for (const line of text.split('\n')) {
    // Most lines are attachments, tool results and bookkeeping: skip them before paying for JSON.parse.
    if (!line.includes('"user"') && !line.includes('"assistant"')) continue;
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      continue; // a torn last line while the CLI is still writing
    }
    const content = entry?.message?.content;
    if (entry.type === 'user' && Array.isArray(content) && envReads.size) {
      for (const block of content) if (block?.type === 'tool_result' && envReads.has(block.tool_use_id)) envValues(block.content, secrets);
    }
    if (entry.type === 'user' && !entry.isMeta && !entry.isCompactSummary && !entry.isSidechain) {
      const prompt = promptText(content);
      if (prompt) prompts.push(prompt);
    } else if (entry.type === 'assistant' && Array.isArray(content)) {
      for (const block of content) {
        if (block?.type === 'text' && typeof block.text === 'string' && block.text.trim() && !entry.isSidechain) lastAssistant = block.text.trim();
        if (block?.type === 'tool_use' && readsEnvFile(block)) envReads.add(block.id);
        if (block?.type === 'tool_use' && FILE_TOOLS.has(block.name)) {
          const file = block.input?.file_path ?? block.input?.notebook_path;
          if (typeof file === 'string' && file) files.push(file);
        }
      }
    }
  }
  return { prompts, lastAssistant, files, secrets: [...secrets] };
}

/** A typed prompt: a string, or text blocks; tool results and slash-command echoes are not prompts. */
function promptText(content) {
  let text = '';
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    if (content.some((b) => b?.type === 'tool_result')) return '';
    text = content.filter((b) => b?.type === 'text' && typeof b.text === 'string').map((b) => b.text).join('\n');
  }
  text = text.trim();
  if (/^<(command-|local-command-)/.test(text) || text.startsWith('Caveat: ')) return '';
  return text;
}

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

const cut = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const oneLine = (s) => s.replace(/\s+/g, ' ').trim();

/** The PUT body for a session: redacted, within the service's limits; null when the session holds nothing. */
export function buildSession({ parsed, project, root, sessionId }) {
  const clean = redactWith(parsed.secrets ?? []);
  const prompts = parsed.prompts.map((p) => clean(p));
  const files = relativeFiles(parsed.files, root)
    .map((f) => redact(f))
    .filter((f) => f.length <= LIMITS.fileChars)
    .slice(0, LIMITS.files);
  if (prompts.length === 0 && files.length === 0 && !parsed.lastAssistant) return null;
  const title = cut(oneLine(prompts[0] ?? '') || `Claude Code session ${sessionId.slice(0, 8)}`, Math.min(TITLE_CHARS, LIMITS.title));
  const parts = [];
  if (prompts.length) {
    let used = 0;
    const lines = [];
    for (const p of prompts) {
      const line = `- ${cut(p, PROMPT_CHARS).replace(/\n/g, '\n  ')}`;
      if (used + line.length > PROMPTS_CHARS) {
        lines.push(`- … ${prompts.length - lines.length} more prompts left out`);
        break;
      }
      lines.push(line);
      used += line.length + 1;
    }
    parts.push(`Prompts:\n${lines.join('\n')}`);
  }
  if (parsed.lastAssistant) parts.push(`Last assistant message:\n${cut(clean(parsed.lastAssistant), LAST_MESSAGE_CHARS)}`);
  if (files.length) parts.push(`Files changed: ${files.length}`);
  const summary = cut(parts.join('\n\n'), LIMITS.summary);
  return { title, summary, project, tags: ['claude-code'], files_changed: files };
}

/** The transcript's text, or '' when it cannot be read. */
export function readTranscript(file) {
  try {
    return file ? fs.readFileSync(file, 'utf8') : '';
  } catch {
    return '';
  }
}
