// Talks to the service: every request has a deadline, and what fails is kept for a later hook.
import { USER_AGENT } from './config.mjs';
import { exchange, preconnect } from './http1.mjs';

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

/**
 * Sends waiting entries oldest first until the deadline. Stops at the first one the service could not take
 * (down or slow): the rest would fail the same way. `stalled` says the service was slow rather than down;
 * `deferred` counts capture jobs left for a sender with time to read their transcript (resolve given).
 */
export async function flush(cfg, spool, { deadline, perRequestMs, log, resolve }) {
  const stats = noneSent();
  spool.recoverStale();
  const names = spool.list();
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
