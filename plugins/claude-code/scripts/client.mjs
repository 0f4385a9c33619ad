// Talks to the service: every request has a deadline, and what fails is kept for a later hook.
import { USER_AGENT } from './config.mjs';

const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

/**
 * 'sent', 'retry' (keep it: down, slow, 5xx, 401/403/404 of a server not set up yet) or 'drop' (the service refused
 * its content). node:http rather than the global fetch: fetch loads undici on first use, measured at +1 s per hook on
 * a busy 2-core machine (http: +0-20 ms), which alone would break the 100 ms median.
 */
export async function send(cfg, request, timeoutMs) {
  let url;
  try {
    url = new URL(cfg.url + request.path);
  } catch {
    return { outcome: 'retry', error: 'invalid SHEET_WORKSPACE_URL' };
  }
  const lib = (url.protocol === 'https:' ? await import('node:https') : await import('node:http')).default;
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  const headers = { authorization: `Bearer ${cfg.apiKey}`, 'user-agent': USER_AGENT, accept: 'application/json' };
  if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  return new Promise((resolve) => {
    let settled = false;
    let timedOut = false;
    const settle = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const failed = (err) => settle({ outcome: 'retry', timedOut, error: timedOut ? 'timeout' : (err?.code ?? err?.message ?? 'error') });
    // A plain timer rather than AbortSignal.timeout: one module less to load, and it covers the whole exchange.
    const timer = setTimeout(() => {
      timedOut = true;
      failed();
      req.destroy();
    }, Math.max(1, Math.floor(timeoutMs)));
    const req = lib.request(url, { method: request.method, headers, agent: false }, (res) => {
      const chunks = [];
      let size = 0;
      res.on('data', (c) => {
        size += c.length;
        if (size <= MAX_RESPONSE_BYTES) chunks.push(c);
      });
      res.on('error', failed);
      res.on('aborted', () => failed(new Error('aborted')));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) return settle({ outcome: 'sent', status, text });
        const drop = status === 400 || status === 413 || status === 422;
        settle({ outcome: drop ? 'drop' : 'retry', status, error: errorCode(text) });
      });
    });
    req.on('error', failed);
    req.end(body);
  });
}

function errorCode(text) {
  try {
    const body = JSON.parse(text);
    return String(body.code ?? body.error ?? '').slice(0, 100);
  } catch {
    return '';
  }
}

/** A capture job is turned into its body only with this much of the budget left. */
const RESOLVE_MIN_MS = 1500;

/**
 * Sends waiting entries oldest first until the deadline. Stops at the first one the service could not take
 * (down or slow): the rest would fail the same way. `stalled` says the service was slow rather than down;
 * `deferred` counts capture jobs left for a sender with time to read their transcript (resolve given).
 */
export async function flush(cfg, spool, { deadline, perRequestMs, log, resolve }) {
  const stats = { sent: 0, dropped: 0, left: 0, stalled: false, deferred: 0 };
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
    if (r.outcome === 'sent') {
      spool.done(claim);
      stats.sent++;
      continue;
    }
    if (r.outcome === 'drop') {
      spool.done(claim);
      stats.dropped++;
      log(`${claim.request.method} ${claim.request.path}: refused (${r.status} ${r.error}), dropped from the spool`);
      continue;
    }
    spool.release(claim);
    stats.left = names.length - i;
    stats.stalled = Boolean(r.timedOut);
    log(`${claim.request.method} ${claim.request.path}: ${r.status ?? r.error}; ${stats.left} waiting in the spool`);
    break;
  }
  return stats;
}
