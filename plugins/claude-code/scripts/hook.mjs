#!/usr/bin/env node
// Claude Code hook entry: `node hook.mjs <SessionStart|PreCompact|SessionEnd|PostToolUse|TaskCreated|TaskCompleted|flush|project>`.
// Reads the event JSON on stdin. Never fails the assistant's turn: exits 0, prints only valid hook output,
// and returns within 3 s even when the service hangs (SessionEnd within 1.5 s); what it could not send waits in the spool.
// Claude Code runs the bundle of these modules, hooks/hook.cjs (scripts/bundle.mjs builds it): one file loads faster.
// Claude Code runs shell scripts rather than node while the assistant waits: hooks/session-start.sh reads the briefing
// with curl, hooks/capture.sh keeps each event in the inbox; both start `hook.cjs flush` detached to send what waits.
// Run as a hook itself, this program does the same work (session-start.sh falls back to it where curl is missing).
import fs from 'node:fs';
import { flush, preconnectService, send } from './client.mjs';
import { captureOn, logLine, readConfig } from './config.mjs';
import { createInbox } from './inbox.mjs';
import { ownerOf } from './owner.mjs';
import { detectProject, findRepo } from './project.mjs';
import { createSpool } from './spool.mjs';
import { stateRefusal } from './state.mjs';
import { briefingBudget, briefingPath, failureOf, markBriefed, NOTICES, pruneBriefed, showOnce, staleEntries } from './brief.mjs';
import { todoItems, loadTaskMap, pruneTaskMaps } from './tasks.mjs';
import { buildSession, parseTranscript, readTranscript } from './transcript.mjs';

// libuv starts 4 threads on the first asynchronous fs call (the stdin read); 2 are enough here and start ~0.5 ms sooner.
// A second one keeps a DNS lookup (a SHEET_WORKSPACE_URL with a host name) from waiting behind the stdin read.
process.env.UV_THREADPOOL_SIZE ??= '2';

// Budgets count from the process start, so node's own start-up counts too (process.uptime, not performance.now:
// the performance global loads perf_hooks, a millisecond or more).
const started = Math.round(Date.now() - process.uptime() * 1000);
const event = process.argv[2] ?? '';
const BUDGET_MS = event === 'flush' ? 20_000 : 2600;
const STDIN_WAIT_MS = 1000;
/**
 * Claude Code cancels SessionEnd hooks 1.5 s after spawning them, and on a busy machine node's start alone can take
 * most of that. SessionEnd sends only until this long after its start; what is left then (a slow service) goes to
 * a detached sender, which needs the rest of the 1.5 s to be started. A service that is down is not waited for.
 */
const SESSION_END_SEND_MS = 700;

let exited = false;
/** Spools this run opened: what it was still sending goes back before it exits. So does the sender lock. */
const spools = [];
const locks = [];
function finish(output) {
  if (exited) return;
  exited = true;
  for (const spool of spools) spool.releaseAll();
  for (const lock of locks) lock.release();
  if (output) writeOut(`${JSON.stringify(output)}\n`);
  else process.exit(0);
}

/** Writes to fd 1 directly (process.stdout builds a stream first); a non-blocking pipe falls back to the stream. */
function writeOut(text) {
  const bytes = Buffer.from(text);
  let off = 0;
  try {
    while (off < bytes.length) off += fs.writeSync(1, bytes, off);
  } catch (err) {
    if (err?.code === 'EAGAIN') return process.stdout.write(bytes.subarray(off), () => process.exit(0));
  }
  process.exit(0);
}
// Whatever is still pending when the budget is gone (a hanging service) is abandoned, never waited for.
setTimeout(() => finish(), Math.max(1, started + BUDGET_MS + 150 - Date.now())).unref();
process.on('uncaughtException', () => finish());
// Claude Code sends SIGTERM to a hook past its time. SessionEnd gets it 1.5 s after its spawn, which a busy
// machine can spend on node's start alone: it finishes writing the spool first (milliseconds), then exits.
// The detached sender keeps SIGHUP ignored where nohup started it (no setsid): closing the terminal must not stop it.
for (const signal of event === 'flush' ? ['SIGTERM', 'SIGINT'] : ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => (event === 'SessionEnd' ? undefined : finish()));
process.on('unhandledRejection', () => finish());

const cfg = readConfig();
/** Why the state folder is not used (another user's, writable by others, a link): then nothing is read, sent or logged there. */
const refusal = event === 'project' ? null : stateRefusal(cfg);
const log = (m) => (refusal ? undefined : logLine(cfg.stateDir, `${event}: ${m}`));
const REFUSED = refusal ? `Sheet Workspace: ${refusal}: nothing kept there is read or sent, and nothing is captured (make it yours, mode 700, or set SHEET_WORKSPACE_SPOOL_DIR)` : '';

/**
 * The event JSON from fd 0, read with fs.read rather than process.stdin (which builds a socket stream first). Gives up
 * after STDIN_WAIT_MS: a caller that never closes stdin cannot hold the hook.
 */
function readStdin() {
  let isTerminal = false;
  try {
    isTerminal = fs.fstatSync(0).isCharacterDevice();
  } catch {
    return Promise.resolve({});
  }
  if (isTerminal) return Promise.resolve({});
  const chunks = [];
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(), STDIN_WAIT_MS);
    function done() {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
      } catch {
        resolve({});
      }
    }
    const next = () =>
      fs.read(0, Buffer.allocUnsafe(65536), 0, 65536, null, (err, n, buf) => {
        if (err?.code === 'EAGAIN') return viaStream();
        if (err || n === 0) return done();
        chunks.push(buf.subarray(0, n));
        next();
      });
    // A non-blocking stdin (fd 0 shared with a parent that made it so) is read the stream way.
    const viaStream = () => {
      process.stdin.on('data', (c) => chunks.push(c));
      process.stdin.on('end', done);
      process.stdin.on('error', done);
    };
    next();
  });
}

/** The events whose hooks capture (hooks/capture.sh keeps them in the inbox); SessionStart briefs instead. */
const CAPTURE_EVENTS = new Set(['PostToolUse', 'TaskCreated', 'TaskCompleted', 'PreCompact', 'SessionEnd']);

const deadline = (ms = BUDGET_MS) => started + ms;

async function main() {
  if (event === 'project') {
    // For the handover command: the project name the hooks use for the current folder.
    writeOut(`${detectProject(process.cwd(), cfg.project)}\n`);
    return;
  }
  if (!cfg.apiKey) {
    if (event === 'SessionStart') log('no API key (SHEET_WORKSPACE_API_KEY or the plugin option api_key): doing nothing');
    return finish();
  }
  if (refusal) {
    // Said once per run, on stderr; SessionStart says it to the user too (systemMessage) and still reads the briefing.
    process.stderr.write(`${REFUSED}\n`);
    if (event !== 'SessionStart') return finish();
    const payload = await readStdin();
    const output = await sessionStart(payload, typeof payload.cwd === 'string' && payload.cwd ? payload.cwd : process.cwd());
    return finish({ ...output, systemMessage: REFUSED });
  }
  if (event === 'flush') {
    // The detached sender capture.sh (or a hook short of time) starts. A service that is down gets one cheap probe and
    // nothing more: what waits stays in the (bounded) inbox and spool for a sender that finds the service up. The probe
    // comes before the lock, and a sender that found the service down never takes it: its answer may be seconds old
    // (a hung service), and a later hook's sender, which finds the service back, must not find the lock taken.
    pruneTaskMaps(cfg.stateDir);
    if ((await send(cfg, { method: 'GET', path: '/healthz' }, 3000)).outcome === 'sent') {
      await sendWaiting({ deadline: deadline(), perRequestMs: 5000, resolve: sessionBody });
    }
    return finish();
  }
  const stdin = readStdin();
  if (event === 'SessionStart') {
    await preconnectService(cfg); // loading node:net (~4 ms of CPU) overlaps the wait for stdin
    const payload = await stdin;
    pruneTaskMaps(cfg.stateDir);
    pruneBriefed(cfg.stateDir);
    return finish(await sessionStart(payload, typeof payload.cwd === 'string' && payload.cwd ? payload.cwd : process.cwd()));
  }
  if (!CAPTURE_EVENTS.has(event) || !cfg.capture) return finish();
  // A capture hook run by node rather than capture.sh: the same inbox, then the send within this hook's budget.
  // SessionEnd sends within its shorter one and leaves the rest to a detached sender (see SESSION_END_SEND_MS).
  const payload = await stdin;
  if (!createInbox(cfg.inboxDir).add(event, { ...cfg, owner: ownerOf(cfg) }, JSON.stringify(payload))) log('inbox full: event not kept');
  const ms = event === 'SessionEnd' ? SESSION_END_SEND_MS : BUDGET_MS;
  const stats = await sendWaiting({ deadline: deadline(ms), perRequestMs: 2000, resolve: null });
  if (stats.deferred > 0 || (event === 'SessionEnd' && stats.stalled)) await startBackgroundSender();
  finish();
}

function spoolOf() {
  const spool = createSpool(cfg.spoolDir, { log });
  spools.push(spool);
  return spool;
}

/**
 * The one sender at a time (inbox.mjs's lock): moves the inbox's events into the spool in order, then sends the spool
 * oldest first, and again while events arrived meanwhile. With the lock taken by a live sender it does nothing: that
 * one sends what this hook would have.
 */
async function sendWaiting({ deadline, perRequestMs, resolve }) {
  const inbox = createInbox(cfg.inboxDir);
  const lock = inbox.lock();
  locks.push(lock);
  const spool = spoolOf();
  let stats = { sent: 0, dropped: 0, left: 0, stalled: false, deferred: 0 };
  while (lock.take()) {
    try {
      moveInbox(inbox, spool);
      stats = await flush(cfg, spool, { deadline, perRequestMs, log, resolve });
    } finally {
      lock.release();
    }
    // Events kept while the lock was held: capture.sh started no sender for them.
    if (stats.left > 0 || stats.stalled || deadline - Date.now() < 100 || inbox.list().length === 0) break;
  }
  return stats;
}

/** Each waiting event as the request it makes, into the spool, oldest first; the task map follows each task event. */
function moveInbox(inbox, spool) {
  for (const name of inbox.list()) {
    try {
      const entry = inbox.read(name);
      if (!entry) log(`inbox: dropped ${name}, not an event (cut at 1 MB?)`);
      else if (!entry.owner) log(`inbox: dropped ${name}, kept by an older plugin without its key: not sent`);
      else if (captureOn(entry.capture)) {
        const request = requestOf(entry);
        // The event's own URL and key go with it: only a sender with the same sends it.
        if (request) spool.add(request, request.method === 'PUT' ? request.path : undefined, entry.owner);
      }
      inbox.remove(name);
    } catch (err) {
      // One event that cannot be moved (a full disk, a folder named *.json) must not hold up the ones behind it.
      log(`inbox: ${name} set aside (${err?.code ?? err})`);
      inbox.setAside(name);
    }
  }
}

/** The request one captured event makes, or null when it carries nothing to send. */
function requestOf({ event, project: override, payload }) {
  const cwd = typeof payload.cwd === 'string' && payload.cwd ? payload.cwd : process.cwd();
  const project = () => detectProject(cwd, override.trim());
  if (event === 'PreCompact' || event === 'SessionEnd') return sessionRequest(payload, cwd, project());
  if (event !== 'PostToolUse' && event !== 'TaskCreated' && event !== 'TaskCompleted') return null;
  const map = loadTaskMap(cfg.stateDir, payload.session_id);
  const todos = todoItems({ ...payload, hook_event_name: payload.hook_event_name ?? event }, map);
  map.save();
  // session_ref: the service remembers which session last changed each todo (the briefing says who left it in progress).
  const sessionRef = sessionIdOf(payload);
  return todos.length ? { method: 'POST', path: '/v1/todos', body: { project: project(), todos, ...(sessionRef ? { session_ref: `cc:${sessionRef}` } : {}) } } : null;
}

/** SessionStart sends what waits for at most this long before it reads the briefing. */
const SPOOL_FIRST_MS = 1000;

/**
 * What waits is sent first (at most SPOOL_FIRST_MS; capture on only), so the briefing sees the sessions an outage held
 * back; then the briefing (brief.mjs: once per session, a short one after a compaction) as additional context, with a
 * one-line notice when the service cannot be reached, refuses the key, or captured requests have waited over a day.
 * The user sees a notice once (systemMessage), not again while the same failure lasts.
 */
async function sessionStart(payload, cwd) {
  const project = detectProject(cwd, cfg.project);
  const capturing = cfg.capture && !refusal;
  if (capturing) {
    const stats = await sendWaiting({ deadline: Math.min(deadline(), Date.now() + SPOOL_FIRST_MS), perRequestMs: SPOOL_FIRST_MS, resolve: null });
    // Capture jobs (large transcripts) are not read here: parsing would hold up the briefing.
    if (stats.deferred > 0 || stats.stalled) await startBackgroundSender();
  }
  const budget = refusal ? cfg.briefingMaxChars : briefingBudget(payload, cfg);
  let text = '';
  let failure = null;
  if (budget > 0) {
    const briefing = await send(cfg, { method: 'GET', path: briefingPath(project, cfg, budget) }, deadline() - Date.now() - 50);
    if (briefing.outcome === 'sent') {
      try {
        text = String(JSON.parse(briefing.text).text ?? '');
      } catch {
        /* not the service's JSON */
      }
      if (text && !refusal) markBriefed(cfg.stateDir, payload.session_id);
    } else {
      log(`briefing for "${project}" not read: ${briefing.status ?? briefing.error}`);
      failure = failureOf(briefing, cfg.url);
    }
  }
  const stale = capturing && !failure ? staleEntries(spoolOf().list(ownerOf(cfg))) : null;
  const notice = failure ?? (stale ? { kind: 'stale', text: NOTICES.stale(stale.count, stale.oldest, cfg.url) } : null);
  const show = refusal ? false : notice ? showOnce(cfg.stateDir, notice.kind) : text ? showOnce(cfg.stateDir, null) : false;
  const context = [notice?.text, text].filter(Boolean).join('\n\n');
  if (!context) return undefined;
  const out = { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context } };
  if (show) out.systemMessage = notice.text;
  return out;
}

/** Claude Code's session id as the service's references take it (cc:<id>, letters, digits and . _ : -). */
const sessionIdOf = (payload) =>
  String(payload.session_id ?? '')
    .replace(/[^A-Za-z0-9._:-]/g, '')
    .slice(0, 190);

/** Transcripts larger than this are read later by the background sender (~40 ms per MB on a busy machine). */
const INLINE_TRANSCRIPT_BYTES = 4 * 1024 * 1024;

/**
 * The session's PUT: with its body when the transcript is small, else a capture job (paths only, nothing
 * read yet) that a sender turns into the body when it sends it.
 */
function sessionRequest(payload, cwd, project) {
  const sessionId = sessionIdOf(payload);
  if (!sessionId || typeof payload.transcript_path !== 'string') return null;
  const capture = { transcript_path: payload.transcript_path, cwd, session_id: sessionId, project };
  const path = `/v1/sessions/external/cc:${sessionId}`;
  if (transcriptBytes(payload.transcript_path) > INLINE_TRANSCRIPT_BYTES) return { method: 'PUT', path, capture };
  const body = sessionBody(capture);
  return body ? { method: 'PUT', path, body } : null;
}

function transcriptBytes(file) {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/** The redacted session record of a capture job, or null when the session holds nothing to keep. */
function sessionBody(capture) {
  const parsed = parseTranscript(readTranscript(capture.transcript_path));
  const root = findRepo(capture.cwd)?.root ?? capture.cwd;
  return buildSession({ parsed, project: capture.project, root, sessionId: capture.session_id });
}

/**
 * `node hook.mjs flush`, detached: it outlives this hook and Claude Code (20 s budget, 5 s per request). Two at
 * once are harmless: one holds the sender lock, the other finds it taken and exits.
 */
async function startBackgroundSender() {
  try {
    const { spawn } = (await import('node:child_process')).default; // only here: most runs never need it
    const child = spawn(process.execPath, [process.argv[1], 'flush'], { detached: true, stdio: 'ignore', windowsHide: true, env: process.env });
    child.on('error', () => {});
    child.unref();
  } catch (err) {
    log(`could not start the background sender: ${err?.code ?? err}`);
  }
}

main().catch((err) => {
  log(
    `unexpected: ${String(err?.stack ?? err)
      .split('\n')[0]
      .slice(0, 300)}`,
  );
  finish();
});
