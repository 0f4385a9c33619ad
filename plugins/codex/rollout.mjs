// Reads a Codex session file (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl, the transcript_path its hooks get) into what
// the session record needs: the typed prompts, the closing message, the files changed, the plan's steps and the commands
// that failed with their first error line. Codex 0.171 writes `item_completed` events (UserMessage, AgentMessage,
// CommandExecution, FileChange); older versions `user_message`, `agent_message`, `exec_command_end`, `patch_apply_end`
// events: both are read. No LLM, no network.
import { envValues, readsEnvFile } from '../claude-code/scripts/env-values.mjs';
import { firstErrorLine } from '../claude-code/scripts/transcript.mjs';

const MAX_ERRORS = 30;
const OUTPUT_CHARS = 20_000;
const PLAN_STATUSES = new Set(['pending', 'in_progress', 'completed']);

/** The command as typed: `bash -lc "<cmd>"` gives <cmd>. */
function commandText(command) {
  if (typeof command === 'string') return command;
  if (!Array.isArray(command)) return '';
  const parts = command.map(String);
  if (parts.length >= 3 && /(^|\/)(ba|z|da)?sh$/.test(parts[0]) && /^-l?c$/.test(parts[1])) return parts.slice(2).join(' ');
  return parts.join(' ');
}

function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((c) => (typeof c?.text === 'string' ? c.text : '')).join('\n');
}

export function parseRollout(text) {
  const prompts = [];
  const files = [];
  const errors = [];
  const secrets = new Set();
  let plan = [];
  let lastAssistant = '';
  const command = (cmd, exitCode, output) => {
    const c = commandText(cmd).trim();
    if (!c) return;
    if (readsEnvFile({ id: 'x', name: 'Bash', input: { command: c } })) envValues(String(output ?? ''), secrets);
    if (exitCode !== 0 && exitCode !== undefined && exitCode !== null && errors.length < MAX_ERRORS) {
      errors.push({ command: c, error: firstErrorLine(String(output ?? '').slice(0, OUTPUT_CHARS)) });
    }
  };
  for (const line of String(text).split('\n')) {
    if (!line.includes('"event_msg"') && !line.includes('"function_call"')) continue;
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      continue; // a torn last line while Codex is still writing
    }
    const p = entry?.payload;
    if (!p || typeof p !== 'object') continue;
    if (entry.type === 'response_item' && p.type === 'function_call' && p.name === 'update_plan') {
      try {
        const steps = JSON.parse(p.arguments)?.plan;
        if (Array.isArray(steps)) plan = steps.filter((s) => typeof s?.step === 'string' && PLAN_STATUSES.has(s.status)).map((s) => ({ subject: s.step.trim(), status: s.status }));
      } catch {
        /* not JSON */
      }
      continue;
    }
    if (entry.type !== 'event_msg') continue;
    if (p.type === 'item_completed' && p.item) {
      const it = p.item;
      if (it.type === 'UserMessage') {
        const t = textOf(it.content).trim();
        if (t) prompts.push(t);
      } else if (it.type === 'AgentMessage') {
        const t = textOf(it.content).trim();
        if (t) lastAssistant = t;
      } else if (it.type === 'CommandExecution') {
        const code = typeof it.exit_code === 'number' ? it.exit_code : it.status === 'failed' ? 1 : 0;
        command(it.command, code, it.aggregated_output ?? '');
      } else if (it.type === 'FileChange' && it.changes && typeof it.changes === 'object' && it.status !== 'failed') {
        files.push(...Object.keys(it.changes));
      }
    } else if (p.type === 'user_message' && typeof p.message === 'string' && p.message.trim()) {
      prompts.push(p.message.trim());
    } else if (p.type === 'agent_message' && typeof p.message === 'string' && p.message.trim()) {
      lastAssistant = p.message.trim();
    } else if (p.type === 'exec_command_end') {
      command(p.command, p.exit_code, p.aggregated_output ?? `${p.stdout ?? ''}\n${p.stderr ?? ''}`);
    } else if (p.type === 'patch_apply_end' && p.success !== false && p.changes && typeof p.changes === 'object') {
      files.push(...Object.keys(p.changes));
    } else if (p.type === 'task_complete' && typeof p.last_agent_message === 'string' && p.last_agent_message.trim()) {
      lastAssistant = p.last_agent_message.trim();
    }
  }
  return {
    prompts,
    lastAssistant,
    files,
    secrets: [...secrets],
    tasksDone: plan.filter((t) => t.status === 'completed').map((t) => t.subject),
    tasksOpen: plan.filter((t) => t.status !== 'completed').map((t) => t.subject),
    errors,
  };
}
