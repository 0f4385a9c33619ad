// What SessionStart tells the session: which briefing (the whole one once per session; none on a resume of a session
// already briefed; a short one after a compaction, whose summary may have dropped it), and a one-line notice when the
// service cannot be reached, refuses the key, or captured requests have waited over a day. hooks/session-start.sh
// keeps the same files (the briefed-session markers and the notice) and words its notices the same way.
import fs from 'node:fs';
import path from 'node:path';

/** After a compaction the earlier briefing may be gone from the context: a short one brings the essentials back. */
export const COMPACT_BRIEFING_CHARS = 1500;
/** A spool entry older than this is told (the service has not taken it for a day). */
export const STALE_SPOOL_MS = 86_400_000;
const MARKER_DAYS = 30;

const safeId = (id) =>
  String(id ?? '')
    .replace(/[^\w.-]/g, '_')
    .slice(0, 100);
const briefedDir = (stateDir) => path.join(stateDir, 'briefed');

/**
 * The budget of this SessionStart's briefing, or 0 for none: a session is briefed once (startup, clear, or the first
 * resume of a session never briefed); a resume of one already briefed carries that briefing in its history; after a
 * compaction a short one.
 */
export function briefingBudget(payload, cfg) {
  const source = String(payload?.source ?? '');
  if (source === 'compact') return Math.min(COMPACT_BRIEFING_CHARS, cfg.briefingMaxChars);
  if (source === 'resume' && payload?.session_id && briefed(cfg.stateDir, payload.session_id)) return 0;
  return cfg.briefingMaxChars;
}

/** GET /v1/briefing with the plugin's settings. */
export function briefingPath(project, cfg, maxChars) {
  const others = cfg.briefingOthers === 'exclude' ? '&others=exclude' : '';
  return `/v1/briefing?project=${encodeURIComponent(project)}&max_chars=${maxChars}${others}`;
}

export function briefed(stateDir, sessionId) {
  return fs.existsSync(path.join(briefedDir(stateDir), safeId(sessionId)));
}

/** Remembers that this session was briefed (an empty file named by its id). Never throws. */
export function markBriefed(stateDir, sessionId) {
  if (!sessionId) return;
  try {
    fs.mkdirSync(briefedDir(stateDir), { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(briefedDir(stateDir), safeId(sessionId)), '', { mode: 0o600 });
  } catch {
    /* briefed again on a resume: harmless */
  }
}

/** Forgets the markers of sessions not started for a month. */
export function pruneBriefed(stateDir, now = Date.now()) {
  const dir = briefedDir(stateDir);
  let names;
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) {
    try {
      if (now - fs.statSync(path.join(dir, n)).mtimeMs > MARKER_DAYS * 86_400_000) fs.rmSync(path.join(dir, n), { force: true });
    } catch {
      /* removed by another hook */
    }
  }
}

/** The one-line notices; the shell words them the same way (hooks/session-start.sh). */
export const NOTICES = {
  unreachable: (url, why) =>
    `Sheet Workspace: the service at ${url} could not be reached (${why}), so there is no briefing this time; what this session captures waits on this machine and is sent when the service answers again. To fix: start the service, or correct SHEET_WORKSPACE_URL (plugin option url).`,
  rejected: (url, status) =>
    `Sheet Workspace: the service at ${url} refused the API key (${status}), so there is no briefing this time; what this session captures waits on this machine and is sent once the service accepts that key. To fix: set a valid key with the sessions and todos scopes in SHEET_WORKSPACE_API_KEY (plugin option api_key).`,
  stale: (count, oldest, url) =>
    `Sheet Workspace: ${count} captured ${count === 1 ? 'request has' : 'requests have'} waited on this machine since ${oldest} (over a day): ${url} has not taken ${count === 1 ? 'it' : 'them'}; ${count === 1 ? 'it is' : 'they are'} sent once it does. To fix: see ~/.sheet-workspace/hook.log for why.`,
};

/** Which notice a failed briefing read gives: rejected (401/403) or unreachable (anything else but a 2xx). */
export function failureOf(result, url) {
  if (result.status === 401 || result.status === 403) return { kind: 'rejected', text: NOTICES.rejected(url, result.status) };
  const words = {
    timeout: 'no answer within 2.5 s',
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host not found',
    EPROTO: 'not an http or https URL',
    'invalid SHEET_WORKSPACE_URL': 'not a URL',
  };
  const why = result.status ? `HTTP ${result.status}` : (words[result.error] ?? String(result.error ?? 'error'));
  return { kind: 'unreachable', text: NOTICES.unreachable(url, why) };
}

/** The spool entries' age: their names start with milliseconds since 1970 (spool.mjs). */
export function staleEntries(names, now = Date.now()) {
  const times = names.map((n) => Number(n.slice(0, 14))).filter((t) => Number.isFinite(t) && t > 0 && now - t > STALE_SPOOL_MS);
  return times.length ? { count: times.length, oldest: new Date(Math.min(...times)).toISOString().slice(0, 16).replace('T', ' ') + ' UTC' } : null;
}

/**
 * Whether the user is to see this notice (systemMessage): once per failure, not again while the same failure lasts;
 * `kind` null (all well) forgets it, so the next failure is shown again. The notice file holds the last kind shown.
 */
export function showOnce(stateDir, kind) {
  const file = path.join(stateDir, 'notice');
  let last = '';
  try {
    last = fs.readFileSync(file, 'utf8').trim();
  } catch {
    /* none shown yet */
  }
  try {
    if (!kind) {
      if (last) fs.rmSync(file, { force: true });
      return false;
    }
    if (last === kind) return false;
    fs.writeFileSync(file, `${kind}\n`, { mode: 0o600 });
  } catch {
    /* shown again next time: better than never */
  }
  return true;
}
