// Talks to the service: every request has a deadline, and what fails is kept for a later hook.
import { USER_AGENT } from './config.mjs';
import { exchange, preconnect } from './http1.mjs';
import { ownerOf, sameOwner } from './owner.mjs';
import { ownedName } from './spool.mjs';

const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

/**
 * 'sent', 'retry' (keep it: down, slow, 5xx, 401/403/404 of a server not set up yet) or 'drop' (the service refused
 * its content). Not the global fetch: it loads undici on first use, measured at +1 s per hook on a busy 2-core
 * machine; not node:http either (see http1.mjs).
 */
export async function send(cfg, request, timeoutMs) {
  let url;
  try {
    url = new URL(cfg.url + request.path);
  } catch {
    return { outcome: 'retry', error: 'invalid SHEET_WORKSPACE_URL' };
  }
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  const headers = { authorization: `Bearer ${cfg.apiKey}`, 'user-agent': USER_AGENT, accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res;
  try {
    res = await exchange(url, { method: request.method, headers, body, timeoutMs, maxBytes: MAX_RESPONSE_BYTES });
  } catch (err) {
    const timedOut = err?.code === 'ETIMEDOUT';
    return { outcome: 'retry', timedOut, error: timedOut ? 'timeout' : (err?.code ?? err?.message ?? 'error') };
  }
  const text = res.body.toString('utf8');
  if (res.status >= 200 && res.status < 300) return { outcome: 'sent', status: res.status, text };
  const drop = res.status === 400 || res.status === 413 || res.status === 422;
  return { outcome: drop ? 'drop' : 'retry', status: res.status, error: errorCode(text) };
}

function errorCode(text) {
  try {
    const body = JSON.parse(text);
    return String(body.code ?? body.error ?? '').slice(0, 100);
  } catch {
    return '';
  }
}

/** Opens the connection the first send will use, now (a bad URL is left for send to report). */
export async function preconnectService(cfg) {
  let url;
  try {
    url = new URL(cfg.url);
  } catch {
    return;
  }
  await preconnect(url);
}

/** What flush reports: sent, dropped (refused for its content), left waiting, stalled (slow, not down), deferred. */
const noneSent = () => ({ sent: 0, dropped: 0, left: 0, stalled: false, deferred: 0 });

/** A capture job is turned into its body only with this much of the budget left. */
const RESOLVE_MIN_MS = 1500;

const SESSION_PATH = /^\/v1\/sessions\/external\/cc:([A-Za-z0-9._:-]{1,190})$/;
const isObject = (v) => Boolean(v) && typeof v === 'object' && !Array.isArray(v);
const isCaptureJob = (c, sessionId) => isObject(c) && c.session_id === sessionId && ['transcript_path', 'cwd', 'project'].every((k) => typeof c[k] === 'string');

/**
 * Whether a spool entry is one of the requests this plugin makes (hook.mjs requestOf): a todo list's POST /v1/todos, or
 * a session's PUT /v1/sessions/external/cc:<id> with its body or its capture job. The sender sends nothing else.
 */
export function pluginRequest(r) {
  if (!isObject(r)) return false;
  if (r.method === 'POST' && r.path === '/v1/todos') return isObject(r.body);
  const session = r.method === 'PUT' && typeof r.path === 'string' ? SESSION_PATH.exec(r.path) : null;
  if (!session) return false;
  return r.body === undefined ? isCaptureJob(r.capture, session[1]) : isObject(r.body);
}

/** An entry's method or path as a log line may show it: printable, short. */
const shown = (v) =>
  String(v)
    .slice(0, 120)
    .replace(/[^\x21-\x7e]/g, '?');

/**
 * Entries of an older plugin name no owner: whose key they were captured under is not known, so they are never sent.
 * They are dropped, and the log says so.
 */
function dropUnowned(spool, log) {
  const unowned = spool.list().filter((n) => !ownedName(n));
  for (const name of unowned) {
    const claim = spool.claim(name);
    if (claim) spool.done(claim);
  }
  if (unowned.length) log(`spool: dropped ${unowned.length} entries kept by an older plugin without their key: not sent`);
}

/**
 * Sends this configuration's waiting entries (its service URL and API key, owner.mjs) oldest first until the deadline;
 * entries kept under another key or URL wait for a sender that has them. Stops at the first one the service could not
 * take (down or slow): the rest would fail the same way. `stalled` says the service was slow rather than down;
 * `deferred` counts capture jobs left for a sender with time to read their transcript (resolve given).
 */
export async function flush(cfg, spool, { deadline, perRequestMs, log, resolve }) {
  const stats = noneSent();
  const owner = ownerOf(cfg);
  spool.recoverStale();
  dropUnowned(spool, log);
  const names = spool.list(owner);
  for (let i = 0; i < names.length; i++) {
    const remaining = deadline - Date.now();
    if (remaining < 30) {
      stats.stalled = true;
      stats.left = names.length - i;
      break;
    }
    const claim = spool.claim(names[i]);
    if (!claim) continue;
    let request = claim.request;
    // The name's tag says whose it is; its content must say the same, and be a request of this plugin's.
    const foreign = !sameOwner(request?.owner, owner);
    if (foreign || !pluginRequest(request)) {
      spool.done(claim);
      stats.dropped++;
      log(`${shown(request?.method)} ${shown(request?.path)}: ${foreign ? 'its owner is not the one its name says' : 'not a request this plugin makes'}, dropped from the spool`);
      continue;
    }
    if (request.body === undefined && request.capture) {
      // A capture job: reading a large transcript needs time this hook may not have (resolve null: never here).
      if (!resolve || remaining < RESOLVE_MIN_MS) {
        spool.release(claim);
        stats.deferred++;
        continue;
      }
      const body = resolve(request.capture);
      if (!body) {
        spool.done(claim);
        continue;
      }
      request = { method: request.method, path: request.path, body };
    }
    const r = await send(cfg, request, Math.min(perRequestMs, deadline - Date.now()));
    if (settle(spool, claim, r, stats, log)) continue;
    stats.left = names.length - i;
    break;
  }
  return stats;
}

/** Removes a claim the service answered (sent, or refused for its content), else puts it back; true when removed. */
function settle(spool, claim, r, stats, log) {
  if (r.outcome === 'sent') {
    spool.done(claim);
    stats.sent++;
    return true;
  }
  if (r.outcome === 'drop') {
    spool.done(claim);
    stats.dropped++;
    log(`${claim.request.method} ${claim.request.path}: refused (${r.status} ${r.error}), dropped from the spool`);
    return true;
  }
  spool.release(claim);
  stats.stalled = Boolean(r.timedOut);
  log(`${claim.request.method} ${claim.request.path}: ${r.status ?? r.error}; kept in the spool`);
  return false;
}
