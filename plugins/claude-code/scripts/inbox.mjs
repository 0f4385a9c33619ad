// Events the capture hooks keep for the sender (hooks/capture.sh writes them, so does a capture hook run by node), one
// file each, oldest first by name, owner-only, in <state>/inbox beside the spool. A file holds four header lines (the
// event name, then SHEET_WORKSPACE_PROJECT and SHEET_WORKSPACE_CAPTURE as the hook saw them: they may differ per
// project, then `owner <key fingerprint> <service URL>`: whose event it is, owner.mjs) and the event's JSON as Claude
// Code sent it. The name is `<nanoseconds since 1970>-<pid, 10 digits>.json`. An older plugin's file has no owner line.
import fs from 'node:fs';
import path from 'node:path';
import { alive, waitingFiles } from './spool.mjs';

/** Beyond this many waiting events a hook keeps no more (capture.sh checks the same bound): the sender is not running. */
export const INBOX_LIMIT = 1000;
/** The sender lock's file in the inbox; capture.sh starts no sender while its process lives. */
export const LOCK_NAME = '.sender.lock';
/** A lock older than this belongs to a sender that hung or died (a sender's own budget is 20 s). */
const STALE_LOCK_MS = 60_000;

const oneLine = (value) => String(value ?? '').split('\n')[0];

/** `owner <32 hex digits> <url>` as { url, key }; null when it is not one. */
function ownerFrom(line) {
  const m = /^owner ([0-9a-f]{32}) (\S+)$/.exec(line);
  return m ? { url: m[2], key: m[1] } : null;
}

export function createInbox(dir) {
  const names = () => waitingFiles(dir);
  return {
    dir,
    /** Waiting events, oldest first. */
    list: names,
    /** Keeps one event the way capture.sh does; false when the inbox is full. */
    add(event, { project, capture, owner }, json) {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (names().length >= INBOX_LIMIT) return false;
      // Microseconds since 1970 and three zeros: the nanoseconds `date +%s%N` gives capture.sh.
      const name = `${Math.round((performance.timeOrigin + performance.now()) * 1000)}000-${String(process.pid).padStart(10, '0')}.json`;
      const tmp = path.join(dir, `.tmp-${name}`);
      const ownerLine = `owner ${oneLine(owner?.key)} ${oneLine(owner?.url)}`;
      fs.writeFileSync(tmp, `${oneLine(event)}\n${oneLine(project)}\n${oneLine(capture)}\n${ownerLine}\n${json}`, { mode: 0o600 });
      fs.renameSync(tmp, path.join(dir, name));
      return true;
    },
    /**
     * One event: { event, project, capture, owner, payload } (owner null in an older plugin's file: whose it is is not
     * known), or null when its file is gone or not an event (then removed).
     */
    read(name) {
      const file = path.join(dir, name);
      let text;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch {
        return null;
      }
      const lines = text.split('\n', 4);
      const owned = lines.length === 4 && lines[3].startsWith('owner ');
      const owner = owned ? ownerFrom(lines[3]) : null;
      let payload;
      try {
        payload = JSON.parse(text.slice(lines.slice(0, owned ? 4 : 3).join('\n').length + 1) || '{}');
      } catch {
        payload = undefined;
      }
      if (lines.length < 3 || !payload || typeof payload !== 'object') {
        fs.rmSync(file, { force: true });
        return null;
      }
      return { event: lines[0], project: lines[1], capture: lines[2], owner, payload };
    },
    remove(name) {
      fs.rmSync(path.join(dir, name), { force: true });
    },
    /** Moves an event that cannot be handled out of the way (kept as `.bad-<name>`, never read again). */
    setAside(name) {
      try {
        fs.renameSync(path.join(dir, name), path.join(dir, `.bad-${name}`));
      } catch {
        /* gone already */
      }
    },
    lock: () => senderLock(path.join(dir, LOCK_NAME)),
  };
}

/**
 * One sender at a time moves the inbox into the spool and sends the spool, so events reach the service in the order
 * they happened (a task's completion after its creation). The lock file holds the sender's pid; it appears with its
 * content (a link to a file written first), so no one ever reads it empty.
 */
function senderLock(file) {
  let held = false;
  const pidIn = (name) => {
    try {
      return Number(fs.readFileSync(name, 'utf8').trim() || NaN);
    } catch {
      return NaN;
    }
  };
  const create = () => {
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(tmp, `${process.pid}\n`, { mode: 0o600 });
      fs.linkSync(tmp, file);
      return true;
    } catch {
      return false;
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  };
  /**
   * The holder is gone or hung: the lock is older than any sender's budget, or its pid runs no more. A lock without a
   * pid (written by hand, or an older plugin's half-written one) counts as held until it is old.
   */
  const stale = (name, pid) => {
    try {
      if (Date.now() - fs.statSync(name).mtimeMs > STALE_LOCK_MS) return true;
    } catch {
      return false; // let go meanwhile: the next take() decides
    }
    return Number.isInteger(pid) && pid > 0 && !alive(pid);
  };
  /**
   * Takes a stale lock over: renamed away first (only one taker's rename succeeds), then checked to be the lock
   * judged stale; a lock that a live sender took meanwhile is put back.
   */
  const takeOver = () => {
    const judged = pidIn(file);
    if (!stale(file, judged)) return false;
    const aside = `${file}.${process.pid}.stale`;
    try {
      fs.renameSync(file, aside);
    } catch {
      return false;
    }
    if (pidIn(aside) !== judged && !stale(aside, pidIn(aside))) {
      try {
        fs.linkSync(aside, file);
      } catch {
        /* a newer lock is there: it stands */
      }
      fs.rmSync(aside, { force: true });
      return false;
    }
    fs.rmSync(aside, { force: true });
    return create();
  };
  return {
    /** Takes the lock; false when a live sender holds it. A dead or hung sender's lock is taken over. */
    take() {
      if (held) return true;
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      held = create() || takeOver();
      return held;
    },
    /** Synchronous: runs right before exit too. */
    release() {
      if (!held) return;
      held = false;
      if (pidIn(file) === process.pid) fs.rmSync(file, { force: true });
    },
  };
}
