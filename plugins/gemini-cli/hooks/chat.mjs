// Reads a Gemini CLI chat file (~/.gemini/tmp/<project>/chats/session-*.jsonl, the transcript_path its hooks get) into
// what the session record needs: the typed prompts (without the <hook_context> the briefing added, nor the CLI's own
// <session_context>), the closing message, the files the writing tools touched, the todos (write_todos) and the shell
// commands that failed ("Exit Code: N" other than 0, or an errored call) with their first error line. A later line with
// the same message id replaces the earlier one (the CLI rewrites a message when its tool calls finish); `$set` lines are
// bookkeeping. The older single-JSON chat file ({messages: [...]}) is read too. No LLM, no network.
import { envValues, readsEnvFile } from '../../claude-code/scripts/env-values.mjs';
import { firstErrorLine } from '../../claude-code/scripts/transcript.mjs';

const FILE_TOOLS = new Set(['write_file', 'replace', 'edit']);
const MAX_ERRORS = 30;
const TODO_DONE = new Set(['completed']);

function messagesOf(text) {
  const trimmed = String(text).trim();
  if (trimmed.startsWith('{') && !trimmed.includes('\n')) {
    try {
      const whole = JSON.parse(trimmed);
      if (Array.isArray(whole?.messages)) return whole.messages;
    } catch {
      /* JSONL after all */
    }
  }
  const byId = new Map();
  for (const line of trimmed.split('\n')) {
    let m;
    try {
      m = JSON.parse(line);
    } catch {
      continue;
    }
    if (Array.isArray(m?.$set?.messages)) for (const x of m.$set.messages) if (x?.id) byId.set(x.id, x);
    if (m && typeof m.id === 'string' && typeof m.type === 'string') byId.set(m.id, m);
  }
  return [...byId.values()];
}

const partsText = (content) => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('\n') : '');

function resultOutput(call) {
  const out = [];
  for (const r of Array.isArray(call?.result) ? call.result : []) {
    const resp = r?.functionResponse?.response;
    if (typeof resp?.output === 'string') out.push(resp.output);
    if (typeof resp?.error === 'string') out.push(resp.error);
  }
  return out.join('\n').replace(/<\/?untrusted_context>/g, '');
}

export function parseChat(text) {
  const prompts = [];
  const files = [];
  const errors = [];
  const secrets = new Set();
  let todos = [];
  let lastAssistant = '';
  for (const m of messagesOf(text)) {
    if (m.type === 'user') {
      if (Array.isArray(m.content) && m.content.some((p) => p?.functionResponse)) continue;
      const t = partsText(m.content)
        .replace(/<hook_context>[\s\S]*?<\/hook_context>/g, '')
        .replace(/<session_context>[\s\S]*?<\/session_context>/g, '')
        .trim();
      if (t) prompts.push(t);
    } else if (m.type === 'gemini') {
      const t = partsText(m.content).trim();
      if (t) lastAssistant = t;
      for (const call of Array.isArray(m.toolCalls) ? m.toolCalls : []) {
        const args = call?.args ?? {};
        if (FILE_TOOLS.has(call.name) && call.status !== 'error' && typeof args.file_path === 'string') files.push(args.file_path);
        if (call.name === 'write_todos' && Array.isArray(args.todos)) {
          todos = args.todos.filter((x) => typeof x?.description === 'string' && x.status !== 'cancelled').map((x) => ({ subject: x.description.trim(), status: x.status }));
        }
        if (call.name !== 'run_shell_command' || typeof args.command !== 'string') continue;
        const output = resultOutput(call);
        if (readsEnvFile({ id: 'x', name: 'Bash', input: { command: args.command } })) envValues(output, secrets);
        const exit = /Exit Code: (-?\d+)/.exec(output);
        const failed = call.status === 'error' || (exit && exit[1] !== '0');
        if (failed && errors.length < MAX_ERRORS) {
          const body = output.replace(/^Output: ?/m, '').replace(/^(Exit Code|Process Group PGID|Signal|Background PIDs|Error): .*$/gm, '');
          errors.push({ command: args.command, error: firstErrorLine(body.trim() ? body : output) });
        }
      }
    }
  }
  return {
    prompts,
    lastAssistant,
    files,
    secrets: [...secrets],
    tasksDone: todos.filter((t) => TODO_DONE.has(t.status)).map((t) => t.subject),
    tasksOpen: todos.filter((t) => !TODO_DONE.has(t.status)).map((t) => t.subject),
    errors,
  };
}
