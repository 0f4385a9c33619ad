// Events the capture hooks keep for the sender (hooks/capture.sh writes them, so does a capture hook run by node), one
// file each, oldest first by name, owner-only, in <state>/inbox beside the spool. A file holds three header lines (the
// event name, then SHEET_WORKSPACE_PROJECT and SHEET_WORKSPACE_CAPTURE as the hook saw them: they may differ per
// project) and the event's JSON as Claude Code sent it. The name is `<nanoseconds since 1970>-<pid>.json`.
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

export function createInbox(dir) {
  const names = () => waitingFiles(dir);
  return {
    dir,
    /** Waiting events, oldest first. */
    list: names,
    /** Keeps one event the way capture.sh does; false when the inbox is full. */
    add(event, { project, capture }, json) {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (names().length >= INBOX_LIMIT) return false;
      // Microseconds since 1970 and three zeros: the nanoseconds `date +%s%N` gives capture.sh.
      const name = `${Math.round((performance.timeOrigin + performance.now()) * 1000)}000-${process.pid}.json`;
      const tmp = path.join(dir, `.tmp-${name}`);
      fs.writeFileSync(tmp, `${oneLine(event)}\n${oneLine(project)}\n${oneLine(capture)}\n${json}`, { mode: 0o600 });
      fs.renameSync(tmp, path.join(dir, name));
      return true;
    },
    /** One event: { event, project, capture, payload }, or null when its file is gone or not an event (then removed). */
    read(name) {
      const file = path.join(dir, name);
      let text;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch {
        return null;
      }
      const lines = text.split('\n', 3);
      let payload;
      try {
        payload = JSON.parse(text.slice(lines.join('\n').length + 1) || '{}');
      } catch {
        payload = undefined;
      }
      if (lines.length < 3 || !payload || typeof payload !== 'object') {
        fs.rmSync(file, { force: true });
        return null;
      }
      return { event: lines[0], project: lines[1], capture: lines[2], payload };
    },
    remove(name) {
      fs.rmSync(path.join(dir, name), { force: true });
    },
    lock: () => senderLock(path.join(dir, LOCK_NAME)),
  };
}

/**
 * One sender at a time moves the inbox into the spool and sends the spool, so events reach the service in the order
 * they happened (a task's completion after its creation). The lock file holds the sender's pid.
 */
function senderLock(file) {
  let held = false;
  const create = () => {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return true;
    } catch {
      return false;
    }
  };
  const stale = () => {
    try {
      const pid = Number(fs.readFileSync(file, 'utf8').trim());
      return !(Number.isInteger(pid) && pid > 0 && alive(pid)) || Date.now() - fs.statSync(file).mtimeMs > STALE_LOCK_MS;
    } catch (err) {
      return err?.code === 'ENOENT';
    }
  };
  return {
    get held() {
      return held;
    },
    /** Takes the lock; false when a live sender holds it. A dead or hung sender's lock is taken over. */
    take() {
      if (held) return true;
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      held = create() || (stale() && (fs.rmSync(file, { force: true }), create()));
      return held;
    },
    /** Synchronous: runs right before exit too. */
    release() {
      if (!held) return;
      held = false;
      try {
        if (Number(fs.readFileSync(file, 'utf8').trim()) === process.pid) fs.rmSync(file, { force: true });
      } catch {
        /* taken over meanwhile */
      }
    },
  };
}
