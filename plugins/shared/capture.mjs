// What the Codex and Gemini CLI hooks share: the settings, the briefing at session start, and sending a session record
// (or keeping it in the spool while the service is down). The Claude Code plugin's modules do the work (its redaction,
// record shape, spool, key fingerprint and HTTP client): they are imported from plugins/claude-code/scripts, not copied,
// so all three assistants redact and spool alike. The hooks run from this repository's folder (connect writes their
// absolute paths), so the relative imports resolve.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { briefingPath } from '../claude-code/scripts/brief.mjs';
import { send } from '../claude-code/scripts/client.mjs';
import { logLine, readConfig } from '../claude-code/scripts/config.mjs';
import { ownerOf, sameOwner } from '../claude-code/scripts/owner.mjs';
import { detectProject, findRepo } from '../claude-code/scripts/project.mjs';
import { buildSession } from '../claude-code/scripts/record.mjs';
import { createSpool } from '../claude-code/scripts/spool.mjs';
import { stateRefusal } from '../claude-code/scripts/state.mjs';

/** Each assistant's external id prefix and the name its records carry. */
export const AGENTS = {
  codex: { prefix: 'codex', agent: 'codex', label: 'Codex' },
  gemini: { prefix: 'gemini', agent: 'gemini-cli', label: 'Gemini CLI' },
};
const SESSION_PATH = /^\/v1\/sessions\/external\/(codex|gemini):[A-Za-z0-9._:-]{1,180}$/;
const BRIEFING_MS = 2500;
const SEND_MS = 2500;
const FLUSH_MS = 4000;

/**
 * The Claude Code plugin's settings (SHEET_WORKSPACE_URL, SHEET_WORKSPACE_API_KEY, SHEET_WORKSPACE_PROJECT, the briefing
 * budget), with a spool of this assistant's own beside Claude Code's: the Claude Code sender drops what is not its own.
 */
export function agentConfig(kind, env = process.env) {
  const cfg = readConfig({ ...connected(env), ...env });
  const spoolDir = path.join(cfg.stateDir, `${kind}-spool`);
  return { ...cfg, kind, spoolDir, inboxDir: spoolDir, log: (m) => logLine(cfg.stateDir, `${kind}: ${m}`) };
}

/**
 * What `sheet-workspace connect` wrote (~/.sheet-workspace/connect.json: url, api_key) as environment defaults; read
 * only when it is this user's own file that no one else can read or write.
 */
function connected(env) {
  const file = path.join(env.HOME || os.homedir(), '.sheet-workspace', 'connect.json');
  try {
    const st = fs.statSync(file);
    if ((st.mode & 0o077) !== 0 || (typeof process.getuid === 'function' && st.uid !== process.getuid())) return {};
    const v = JSON.parse(fs.readFileSync(file, 'utf8'));
    const out = {};
    if (typeof v?.url === 'string') out.SHEET_WORKSPACE_URL = v.url;
    if (typeof v?.api_key === 'string') out.SHEET_WORKSPACE_API_KEY = v.api_key;
    return out;
  } catch {
    return {};
  }
}

/** The hook's event JSON from stdin ({} when there is none or it is not JSON). */
export function readEvent() {
  try {
    const text = fs.readFileSync(0, 'utf8');
    const v = JSON.parse(text || '{}');
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

export const projectOf = (cfg, cwd) => detectProject(cwd || process.cwd(), cfg.project);
export const repoRoot = (cwd) => findRepo(cwd || process.cwd())?.root ?? path.resolve(cwd || process.cwd());

/**
 * The briefing text for this project (GET /v1/briefing), or a one-line notice of why there is none. Sends what waits
 * in the spool first (a session start is when a service that was down is back).
 */
export async function briefing(cfg, cwd) {
  if (!cfg.apiKey) return { text: '', notice: 'Sheet Workspace: no API key (set SHEET_WORKSPACE_API_KEY, or run `sheet-workspace connect`).' };
  const refusal = stateRefusal(cfg);
  if (!refusal) await flushWaiting(cfg, Date.now() + 1500);
  const r = await send(cfg, { method: 'GET', path: briefingPath(projectOf(cfg, cwd), cfg, cfg.briefingMaxChars) }, BRIEFING_MS);
  if (r.outcome !== 'sent') {
    const why = r.status ? `HTTP ${r.status}` : String(r.error ?? 'error');
    cfg.log(`briefing: ${why}`);
    return { text: '', notice: `Sheet Workspace: no briefing (${cfg.url}: ${why}); sessions are kept on this machine until it answers.` };
  }
  let text = r.text;
  try {
    text = JSON.parse(r.text).text ?? '';
  } catch {
    /* a plain-text answer */
  }
  return { text: String(text ?? '') };
}

/**
 * The PUT body of a session from a parsed transcript ({prompts, lastAssistant, files, errors, tasksDone, tasksOpen,
 * secrets}): the Claude Code record (redacted, within the service's limits), named for this assistant.
 */
export function sessionBody(kind, { parsed, project, root, sessionId }) {
  const who = AGENTS[kind];
  const body = buildSession({ parsed, project, root, sessionId });
  if (!body) return null;
  body.agent = who.agent;
  body.tags = [who.agent];
  if (body.title.startsWith('Claude Code session ')) body.title = `${who.label} session ${sessionId.slice(0, 8)}`;
  return body;
}

/**
 * Sends a session's record, or keeps it in the spool (one entry per session: a later capture of the same session
 * replaces it) when the service cannot take it now. Whatever waited before is sent first.
 */
export async function captureSession(cfg, { sessionId, body }) {
  if (!body || !sessionId || !cfg.capture) return 'skipped';
  if (!cfg.apiKey) {
    cfg.log('no API key: session not captured');
    return 'skipped';
  }
  const refusal = stateRefusal(cfg);
  if (refusal) {
    cfg.log(refusal);
    return 'refused';
  }
  const safeId = String(sessionId)
    .replace(/[^A-Za-z0-9._:-]/g, '_')
    .slice(0, 180);
  const request = { method: 'PUT', path: `/v1/sessions/external/${AGENTS[cfg.kind].prefix}:${safeId}`, body };
  const spool = createSpool(cfg.spoolDir, { log: cfg.log });
  const waiting = await flushWaiting(cfg, Date.now() + FLUSH_MS, spool);
  if (waiting === 0) {
    const r = await send(cfg, request, SEND_MS);
    if (r.outcome === 'sent') return 'sent';
    if (r.outcome === 'drop') {
      cfg.log(`${request.path}: refused (${r.status} ${r.error})`);
      return 'dropped';
    }
    cfg.log(`${request.path}: ${r.status ?? r.error}; kept in the spool`);
  }
  spool.add(request, request.path, ownerOf(cfg));
  return 'spooled';
}

/**
 * Sends this configuration's waiting entries oldest first until the deadline or the first the service cannot take;
 * returns how many still wait. Only this assistant's session PUTs under this URL and key are ever sent.
 */
export async function flushWaiting(cfg, deadline, spool = createSpool(cfg.spoolDir, { log: cfg.log })) {
  const owner = ownerOf(cfg);
  spool.recoverStale();
  const names = spool.list(owner);
  for (let i = 0; i < names.length; i++) {
    if (deadline - Date.now() < 50) return names.length - i;
    const claim = spool.claim(names[i]);
    if (!claim) continue;
    const req = claim.request;
    const ours = sameOwner(req?.owner, owner) && req.method === 'PUT' && SESSION_PATH.test(String(req.path)) && req.body && typeof req.body === 'object';
    if (!ours) {
      spool.done(claim);
      cfg.log(`spool: dropped an entry that is not this plugin's`);
      continue;
    }
    const r = await send(cfg, { method: req.method, path: req.path, body: req.body }, Math.min(SEND_MS, deadline - Date.now()));
    if (r.outcome === 'sent' || r.outcome === 'drop') {
      spool.done(claim);
      if (r.outcome === 'drop') cfg.log(`${req.path}: refused (${r.status} ${r.error}), dropped from the spool`);
      continue;
    }
    spool.release(claim);
    return names.length - i;
  }
  return 0;
}

/** Writes one line of hook output and exits 0 (a hook never fails the assistant's turn). */
export function finish(output) {
  if (output !== undefined) fs.writeSync(1, `${JSON.stringify(output)}\n`);
  process.exit(0);
}

/**
 * One assistant's hook program: `node hook.mjs <event>` with the event JSON on stdin. SessionStart prints the
 * briefing as hookSpecificOutput.additionalContext (and a failure once as systemMessage); the capture events read the
 * session file (transcript_path) with `parse` and send the record, or keep it in the spool. Always exits 0 within 12 s,
 * printing `quiet` for events that must print JSON (undefined: nothing).
 */
export async function runHook({ kind, captureEvents, parse, quiet }) {
  const event = process.argv[2] ?? '';
  const silent = () => (typeof quiet === 'function' ? quiet(event) : quiet);
  setTimeout(() => finish(silent()), 12_000).unref();
  process.on('uncaughtException', () => finish(silent()));

  const cfg = agentConfig(kind);
  const payload = readEvent();
  const cwd = typeof payload.cwd === 'string' && payload.cwd ? payload.cwd : process.cwd();

  if (event === 'SessionStart') {
    const { text, notice } = await briefing(cfg, cwd);
    const out = { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text || notice || '' } };
    if (notice) out.systemMessage = notice;
    return finish(out);
  }
  if (!captureEvents.includes(event)) return finish(silent());
  const file = typeof payload.transcript_path === 'string' ? payload.transcript_path : '';
  const sessionId = String(payload.session_id ?? '');
  let text = '';
  try {
    text = file ? fs.readFileSync(file, 'utf8') : '';
  } catch {
    cfg.log(`${event}: session file not readable`);
  }
  const body = text && sessionId ? sessionBody(kind, { parsed: parse(text), project: projectOf(cfg, cwd), root: repoRoot(cwd), sessionId }) : null;
  await captureSession(cfg, { sessionId, body });
  finish(silent());
}
