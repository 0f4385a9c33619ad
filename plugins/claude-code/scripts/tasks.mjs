// TodoWrite lists and TaskCreate / TaskUpdate tasks as POST /v1/todos bodies (the service matches by project + content).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { redact } from './redact.mjs';

const STATUSES = new Set(['pending', 'in_progress', 'completed']);
const MAX_ITEMS = 500;
const CONTENT_CHARS = 10_000;

const item = (content, status, activeForm) => {
  const c = redact(String(content ?? ''))
    .trim()
    .slice(0, CONTENT_CHARS);
  if (!c || !STATUSES.has(status)) return null;
  const out = { content: c, status };
  if (typeof activeForm === 'string' && activeForm.trim()) out.activeForm = redact(activeForm).slice(0, CONTENT_CHARS);
  return out;
};

/** The todo items one hook event carries, or [] when it carries none worth sending. */
export function todoItems(payload, taskMap) {
  const event = payload.hook_event_name;
  if (event === 'TaskCreated') {
    taskMap.set(payload.task_id, { subject: payload.task_subject, status: 'pending' });
    return [item(payload.task_subject, 'pending')].filter(Boolean);
  }
  if (event === 'TaskCompleted') {
    taskMap.set(payload.task_id, { subject: payload.task_subject, status: 'completed' });
    return [item(payload.task_subject, 'completed')].filter(Boolean);
  }
  if (event !== 'PostToolUse') return [];
  const input = payload.tool_input ?? {};
  const response = payload.tool_response ?? {};
  if (payload.tool_name === 'TodoWrite') {
    const todos = Array.isArray(input.todos) ? input.todos : [];
    return todos
      .slice(0, MAX_ITEMS)
      .map((t) => item(t?.content, t?.status, t?.activeForm))
      .filter(Boolean);
  }
  if (payload.tool_name === 'TaskCreate') {
    const id = String(response?.task?.id ?? response?.taskId ?? '');
    const subject = input.subject ?? response?.task?.subject;
    const known = id ? taskMap.get(id) : undefined;
    if (id) taskMap.set(id, { subject, status: 'pending', activeForm: input.activeForm });
    // The TaskCreated hook of the same call has already sent it.
    if (known && known.subject === subject) return [];
    return [item(subject, 'pending', input.activeForm)].filter(Boolean);
  }
  if (payload.tool_name === 'TaskUpdate') {
    const id = String(input.taskId ?? response?.taskId ?? '');
    const status = input.status ?? response?.statusChange?.to;
    const known = taskMap.get(id) ?? readCliTask(payload.session_id, id);
    const subject = input.subject ?? known?.subject;
    if (!subject || !STATUSES.has(status ?? known?.status)) return [];
    const next = status ?? known.status;
    const unchanged = known && known.subject === subject && known.status === next && !input.activeForm;
    taskMap.set(id, { subject, status: next, activeForm: input.activeForm ?? known?.activeForm });
    // TaskCompleted fired just before this PostToolUse and sent the same change.
    if (unchanged) return [];
    return [item(subject, next, input.activeForm ?? known?.activeForm)].filter(Boolean);
  }
  return [];
}

/** The CLI keeps each task in ~/.claude/tasks/<session>/<id>.json: the fallback when our map missed it. */
function readCliTask(sessionId, id) {
  if (!sessionId || !/^[\w.-]+$/.test(String(sessionId)) || !/^[\w.-]+$/.test(id)) return undefined;
  const base = process.env.CLAUDE_CONFIG_DIR || path.join(process.env.HOME || os.homedir(), '.claude');
  try {
    const t = JSON.parse(fs.readFileSync(path.join(base, 'tasks', sessionId, `${id}.json`), 'utf8'));
    return typeof t?.subject === 'string' ? { subject: t.subject, status: t.status, activeForm: t.activeForm } : undefined;
  } catch {
    return undefined;
  }
}

/** taskId -> {subject, status} for one session, kept in <stateDir>/tasks/<session>.json (owner-only). */
export function loadTaskMap(stateDir, sessionId) {
  const safe = String(sessionId || 'none')
    .replace(/[^\w.-]/g, '_')
    .slice(0, 100);
  const dir = path.join(stateDir, 'tasks');
  const file = path.join(dir, `${safe}.json`);
  let data = {};
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    /* a new session */
  }
  let changed = false;
  return {
    get: (id) => data[id],
    set(id, value) {
      if (!id) return;
      data[id] = value;
      changed = true;
    },
    save() {
      if (!changed) return;
      try {
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        const tmp = `${file}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, JSON.stringify(data), { mode: 0o600 });
        fs.renameSync(tmp, file);
      } catch {
        /* the CLI's own task files are the fallback */
      }
    },
  };
}

const TASK_MAP_DAYS = 30;

/** Forgets the task maps of sessions untouched for a month (a resumed session falls back to the CLI's task files). */
export function pruneTaskMaps(stateDir, now = Date.now()) {
  const dir = path.join(stateDir, 'tasks');
  let names;
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) {
    const file = path.join(dir, n);
    try {
      if (now - fs.statSync(file).mtimeMs > TASK_MAP_DAYS * 86_400_000) fs.rmSync(file, { force: true });
    } catch {
      /* removed by another hook */
    }
  }
}
