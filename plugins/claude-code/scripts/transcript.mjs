// Reads a Claude Code transcript (JSONL, one event per line) for the session record (record.mjs builds it): the prompts,
// the closing assistant message, the files the writing tools touched, the tasks (TaskCreate / TaskUpdate / TodoWrite)
// with their last status, and the Bash commands that failed with their output's first error line. No LLM, no network.
import fs from 'node:fs';
import { envValues, readsEnvFile } from './env-values.mjs';

export { buildSession, relativeFiles, LIMITS } from './record.mjs';

const FILE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);
/** Tool calls whose results the parser needs: the failed commands and the tasks. */
const WATCHED = new Set(['Bash', 'TaskCreate', 'TaskUpdate', 'TodoWrite']);
const TASK_STATUSES = new Set(['pending', 'in_progress', 'completed']);
/** At most this many failed commands are kept from one transcript (the service takes 100). */
const MAX_ERRORS = 30;
const ERROR_OUTPUT_CHARS = 20_000;

/**
 * Prompts, the last assistant text, the touched file paths (absolute, as the tools got them), the tasks, the failed
 * commands and the values of the .env files the session read (a Read of one, or a Bash command naming one): where one
 * of those values turns up in a prompt, a message or a command, it is removed there too (record.mjs).
 */
export function parseTranscript(text) {
  const prompts = [];
  const files = [];
  const secrets = new Set();
  const envReads = new Set();
  /** tool_use id -> { name, input } of the watched tools, until their result comes. */
  const calls = new Map();
  /** task id -> { subject, status }, in creation order (a Map keeps it). */
  const tasks = new Map();
  let todos = [];
  const errors = [];
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
    if (entry.type === 'user' && Array.isArray(content)) {
      for (const block of content) {
        if (block?.type !== 'tool_result') continue;
        if (envReads.has(block.tool_use_id)) envValues(block.content, secrets);
        const call = calls.get(block.tool_use_id);
        if (!call) continue;
        calls.delete(block.tool_use_id);
        const failed = block.is_error === true;
        if (call.name === 'Bash') {
          if (failed && errors.length < MAX_ERRORS && typeof call.input?.command === 'string') {
            errors.push({ command: call.input.command, output: resultText(block.content).slice(0, ERROR_OUTPUT_CHARS) });
          }
        } else if (!failed && !entry.isSidechain) {
          if (call.name === 'TodoWrite') todos = todoList(call.input);
          else taskEvent(tasks, call, block, entry.toolUseResult);
        }
      }
    }
    if (entry.type === 'user' && !entry.isMeta && !entry.isCompactSummary && !entry.isSidechain) {
      const prompt = promptText(content);
      if (prompt) prompts.push(prompt);
    } else if (entry.type === 'assistant' && Array.isArray(content)) {
      for (const block of content) {
        if (block?.type === 'text' && typeof block.text === 'string' && block.text.trim() && !entry.isSidechain) lastAssistant = block.text.trim();
        if (block?.type !== 'tool_use') continue;
        if (readsEnvFile(block)) envReads.add(block.id);
        if (WATCHED.has(block.name) && typeof block.id === 'string') calls.set(block.id, { name: block.name, input: block.input ?? {} });
        if (FILE_TOOLS.has(block.name)) {
          const file = block.input?.file_path ?? block.input?.notebook_path;
          if (typeof file === 'string' && file) files.push(file);
        }
      }
    }
  }
  const all = [...tasks.values(), ...todos];
  return {
    prompts,
    lastAssistant,
    files,
    secrets: [...secrets],
    tasksDone: all.filter((t) => t.status === 'completed').map((t) => t.subject),
    tasksOpen: all.filter((t) => t.status !== 'completed').map((t) => t.subject),
    errors: errors.map((e) => ({ command: e.command, error: firstErrorLine(e.output) })),
  };
}

/** A TaskCreate's or TaskUpdate's effect on the session's tasks (their results name the task id). */
function taskEvent(tasks, call, block, result) {
  const input = call.input ?? {};
  if (call.name === 'TaskCreate') {
    const id = String(result?.task?.id ?? /#(\w+)/.exec(resultText(block.content))?.[1] ?? '');
    const subject = typeof input.subject === 'string' ? input.subject.trim() : '';
    if (id && subject) tasks.set(id, { subject, status: 'pending' });
    return;
  }
  const id = String(input.taskId ?? result?.taskId ?? '');
  const task = tasks.get(id);
  if (input.status === 'deleted') return void tasks.delete(id);
  const subject = typeof input.subject === 'string' && input.subject.trim() ? input.subject.trim() : task?.subject;
  const status = TASK_STATUSES.has(input.status) ? input.status : (task?.status ?? 'pending');
  if (!subject) return; // a task of an earlier transcript whose subject this one never named
  // Moved to the end when it changes: the newest work is last.
  tasks.delete(id);
  tasks.set(id, { subject, status });
}

/** TodoWrite's whole list (each call replaces the previous one). */
function todoList(input) {
  const list = Array.isArray(input?.todos) ? input.todos : [];
  return list.filter((t) => typeof t?.content === 'string' && t.content.trim() && TASK_STATUSES.has(t.status)).map((t) => ({ subject: t.content.trim(), status: t.status }));
}

/** A tool result's text: a string, or its text blocks. */
function resultText(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((c) => (typeof c?.text === 'string' ? c.text : '')).join('\n');
}

/** What reads as an error in a command's output. */
const ERROR_WORDS =
  /\b(?:error|errors|err!|fail|failed|failure|failing|fatal|cannot|can't|couldn't|could not|unable|not found|no such|denied|refused|exception|traceback|panic|invalid|missing|undefined|timed out|timeout|segmentation fault|killed)\b/i;
const EXIT_LINE = /^(?:Error: )?Exit code (\d+)$/;

/**
 * The first line of a failed command's output that reads as an error (the first line otherwise), without the CLI's
 * "Exit code N" line, which is kept only when the output says nothing else.
 */
export function firstErrorLine(output) {
  const lines = String(output ?? '')
    .replace(/<\/?tool_use_error>/g, '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const exit = lines.length && EXIT_LINE.test(lines[0]) ? lines.shift() : '';
  return lines.find((l) => ERROR_WORDS.test(l)) ?? lines[0] ?? (exit ? exit.replace(/^Error: /, '') : 'failed');
}

/** A typed prompt: a string, or text blocks; tool results and slash-command echoes are not prompts. */
function promptText(content) {
  let text = '';
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    if (content.some((b) => b?.type === 'tool_result')) return '';
    text = content
      .filter((b) => b?.type === 'text' && typeof b.text === 'string')
      .map((b) => b.text)
      .join('\n');
  }
  text = text.trim();
  if (/^<(command-|local-command-)/.test(text) || text.startsWith('Caveat: ')) return '';
  return text;
}

/** The transcript's text, or '' when it cannot be read. */
export function readTranscript(file) {
  try {
    return file ? fs.readFileSync(file, 'utf8') : '';
  } catch {
    return '';
  }
}
