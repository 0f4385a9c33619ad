#!/usr/bin/env node
// Claude Code hook entry: `node hook.mjs <SessionStart|PreCompact|SessionEnd|PostToolUse|TaskCreated|TaskCompleted|flush|project>`.
// Reads the event JSON on stdin. Never fails the assistant's turn: exits 0, prints only valid hook output,
// and returns within 3 s even when the service hangs (SessionEnd within 1.5 s); what it could not send waits in the spool.
// Claude Code runs the bundle of these modules, hooks/hook.cjs (scripts/bundle.mjs builds it): one file loads faster.
import fs from 'node:fs';
import { flush, preconnectService, send, sendNew } from './client.mjs';
import { logLine, readConfig } from './config.mjs';
import { detectProject, findRepo } from './project.mjs';
import { createSpool } from './spool.mjs';
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
/** Spools this run opened: what it was still sending goes back before it exits. */
const spools = [];
function finish(output) {
  if (exited) return;
  exited = true;
  for (const spool of spools) spool.releaseAll();
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
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => (event === 'SessionEnd' ? undefined : finish()));
process.on('unhandledRejection', () => finish());

const cfg = readConfig();
const log = (m) => logLine(cfg.stateDir, `${event}: ${m}`);

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

/** Hooks that send on every run (the briefing, a task, the session); PostToolUse often has nothing to send. */
const ALWAYS_SEND = new Set(['SessionStart', 'TaskCreated', 'TaskCompleted', 'PreCompact', 'SessionEnd']);

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
  if (event === 'flush') {
    // The detached child SessionEnd (or a hook with a large transcript) leaves behind to send what waits.
    // A service that is down gets one cheap probe, not the parse of every waiting transcript.
    if (!cfg.capture || (await send(cfg, { method: 'GET', path: '/healthz' }, 3000)).outcome !== 'sent') return finish();
    await flush(cfg, spoolOf(), { deadline: deadline(), perRequestMs: 5000, log, resolve: sessionBody });
    return finish();
  }
  const stdin = readStdin();
  // Events that always send connect now: loading node:net (~4 ms of CPU) overlaps the wait for stdin, the
  // handshake overlaps the spool and task files.
  if (ALWAYS_SEND.has(event) && (cfg.capture || event === 'SessionStart')) await preconnectService(cfg);
  const payload = await stdin;
  const cwd = typeof payload.cwd === 'string' && payload.cwd ? payload.cwd : process.cwd();
  if (event === 'SessionStart') {
    pruneTaskMaps(cfg.stateDir);
    return finish(await sessionStart(payload, cwd));
  }
  if (!cfg.capture) return finish();
  const spool = spoolOf();
  // SessionEnd sends within its own shorter budget and hands what is left to a detached sender (see SESSION_END_SEND_MS).
  const ending = event === 'SessionEnd';
  const options = { deadline: deadline(ending ? SESSION_END_SEND_MS : BUDGET_MS), perRequestMs: 2000, log };
  let sending;
  if (event === 'PreCompact' || event === 'SessionEnd') {
    const request = sessionRequest(payload, cwd);
    if (request?.capture) {
      // A large transcript takes longer to read than the hook may take: the background sender reads it.
      spool.add(request, request.path);
      await startBackgroundSender();
      return finish();
    }
    if (request) sending = sendNew(cfg, spool, request, { ...options, key: request.path });
  } else if (event === 'PostToolUse' || event === 'TaskCreated' || event === 'TaskCompleted') {
    const map = loadTaskMap(cfg.stateDir, payload.session_id);
    const todos = todoItems({ ...payload, hook_event_name: payload.hook_event_name ?? event }, map);
    if (todos.length) sending = sendNew(cfg, spool, { method: 'POST', path: '/v1/todos', body: { project: detectProject(cwd, cfg.project), todos } }, options);
    map.save(); // while the service works on the request
  }
  const stats = await (sending ?? flush(cfg, spool, { ...options, resolve: null }));
  if (stats.deferred > 0 || (ending && stats.stalled)) await startBackgroundSender();
  finish();
}

function spoolOf() {
  const spool = createSpool(cfg.spoolDir, { log });
  spools.push(spool);
  return spool;
}

/** The briefing as additional context; the spool is flushed at the same time (capture on only). */
async function sessionStart(payload, cwd) {
  const project = detectProject(cwd, cfg.project);
  const path = `/v1/briefing?project=${encodeURIComponent(project)}&max_chars=10000`;
  // Capture jobs (large transcripts) are not read here: parsing would hold up the briefing.
  const [briefing, stats] = await Promise.all([
    send(cfg, { method: 'GET', path }, deadline() - Date.now() - 50),
    cfg.capture ? flush(cfg, spoolOf(), { deadline: deadline(), perRequestMs: 1500, log, resolve: null }) : null,
  ]);
  if (stats?.deferred > 0) await startBackgroundSender();
  if (briefing.outcome !== 'sent') {
    log(`briefing for "${project}" not read: ${briefing.status ?? briefing.error}`);
    return undefined;
  }
  let text = '';
  try {
    text = String(JSON.parse(briefing.text).text ?? '');
  } catch {
    /* not the service's JSON */
  }
  if (!text) return undefined;
  return { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } };
}

/** Transcripts larger than this are read later by the background sender (~40 ms per MB on a busy machine). */
const INLINE_TRANSCRIPT_BYTES = 4 * 1024 * 1024;

/**
 * The session's PUT: with its body when the transcript is small, else a capture job (paths only, nothing
 * read yet) that a sender turns into the body when it sends it.
 */
function sessionRequest(payload, cwd) {
  const sessionId = String(payload.session_id ?? '').replace(/[^A-Za-z0-9._:-]/g, '').slice(0, 190);
  if (!sessionId || typeof payload.transcript_path !== 'string') return null;
  const capture = { transcript_path: payload.transcript_path, cwd, session_id: sessionId, project: detectProject(cwd, cfg.project) };
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
 * once are harmless: each entry is claimed by one sender.
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
  log(`unexpected: ${String(err?.stack ?? err).split('\n')[0].slice(0, 300)}`);
  finish();
});
