// Requests that could not be sent yet wait here as one file each, oldest first, owner-only. Each entry names its owner
// (the service URL and a fingerprint of the API key it was captured under, owner.mjs): in its file name as a tag, so a
// sender lists only its own, and in its content, checked again before it is sent.
import fs from 'node:fs';
import path from 'node:path';

export const SPOOL_LIMITS = { entries: 1000, bytes: 5 * 1024 * 1024 };
const CLAIM = '.sending-';
/** A claim older than this belongs to a hook that died mid-send: the entry is put back. */
const STALE_CLAIM_MS = 60_000;
let seq = 0;

/**
 * 64 bits of two FNV-1a style hashes of the key, as hex: they only have to tell one key's entry from another's. node:crypto would do,
 * but loading it costs a hook 8-20 ms, a fifth of its start-up budget.
 */
export function keyTag(key) {
  let h1 = 0x811c9dc5;
  let h2 = 0x050c5d1f;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ (h1 >>> 11), 0x01000193) >>> 0;
  }
  return h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0');
}

/** Entries without a key are unique by time, pid and sequence already; the random part guards a reused pid. */
const randomTag = () =>
  Math.floor(Math.random() * 2 ** 48)
    .toString(16)
    .padStart(12, '0');

/** Whether a process with this id still runs (a claim of a dead one can be taken back at once). */
export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err?.code === 'EPERM';
  }
}

/** An entry with a key is found again by it (add replaces the one waiting). */
const entryTag = (key) => (key ? `k${keyTag(key)}` : `r${randomTag()}`);
/** The owner's part of an entry's name: `-o` and 16 hex digits; an entry without one (an older plugin's) has no owner. */
export const ownerTag = (owner) => `o${keyTag(`${owner.url}\n${owner.key}`)}`;
const OWNED = /-o[0-9a-f]{16}\.json$/;
export const ownedName = (name) => OWNED.test(name);
/** Oldest first by name: time, then pid and sequence. */
const entryName = (tag, owner) => `${String(Date.now()).padStart(14, '0')}-${String(process.pid).padStart(7, '0')}${String(seq++).padStart(4, '0')}-${tag}-${ownerTag(owner)}.json`;
const entryText = (request, owner) => JSON.stringify({ ...request, owner: { url: owner.url, key: owner.key }, at: isoTime(Date.now()) });

/**
 * `new Date(ms).toISOString()` by arithmetic: a process's first Date loads the time zone (~0.9 ms of a hook's run).
 * Days to a civil date after Howard Hinnant's days_from_civil inverse, for the years 1970-9999.
 */
export function isoTime(ms) {
  const day = Math.floor(ms / 86_400_000);
  const msOfDay = ms - day * 86_400_000;
  const z = day + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  const two = (n) => String(n).padStart(2, '0');
  const time = `${two(Math.floor(msOfDay / 3_600_000))}:${two(Math.floor(msOfDay / 60_000) % 60)}:${two(Math.floor(msOfDay / 1000) % 60)}.${String(msOfDay % 1000).padStart(3, '0')}`;
  return `${y}-${two(m)}-${two(d)}T${time}Z`;
}

/** The `.json` files of a queue folder (spool or inbox), oldest first by name; temp files and claims are not. */
export function waitingFiles(dir) {
  try {
    return fs
      .readdirSync(dir)
      .filter((n) => n.endsWith('.json') && !n.startsWith('.'))
      .sort();
  } catch {
    return [];
  }
}

export function createSpool(dir, { limits = SPOOL_LIMITS, log = () => {} } = {}) {
  /** Claims of this process, put back by releaseAll when the hook must stop mid-send. */
  const held = new Set();
  const ensure = () => {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.chmodSync(dir, 0o700);
  };
  const names = () => waitingFiles(dir);

  return {
    dir,
    /**
     * Keeps a request of `owner` ({ url, key fingerprint }); one of the same owner with the same key (a session's PUT)
     * replaces the one waiting.
     */
    add(request, key, owner) {
      if (!owner || typeof owner.url !== 'string' || typeof owner.key !== 'string') throw new Error('spool.add: a request needs its owner');
      ensure();
      const tag = entryTag(key);
      const suffix = `-${tag}-${ownerTag(owner)}.json`;
      if (key) for (const n of names()) if (n.endsWith(suffix)) fs.rmSync(path.join(dir, n), { force: true });
      const name = entryName(tag, owner);
      const tmp = path.join(dir, `.tmp-${name}`);
      fs.writeFileSync(tmp, entryText(request, owner), { mode: 0o600 });
      fs.renameSync(tmp, path.join(dir, name));
      this.enforceLimits();
      return name;
    },
    /** Waiting entries, oldest first: all of them, or those of one owner (by the tag in their names). */
    list(owner) {
      if (!owner) return names();
      const suffix = `-${ownerTag(owner)}.json`;
      return names().filter((n) => n.endsWith(suffix));
    },
    /** Takes an entry for sending (rename, so two hooks never send the same one); null if another hook has it. */
    claim(name) {
      const claimed = path.join(dir, `${name}${CLAIM}${process.pid}`);
      try {
        fs.renameSync(path.join(dir, name), claimed);
        const claim = { name, file: claimed, request: JSON.parse(fs.readFileSync(claimed, 'utf8')) };
        held.add(claim);
        return claim;
      } catch (err) {
        if (err?.code !== 'ENOENT' && fs.existsSync(claimed)) {
          fs.rmSync(claimed, { force: true }); // unreadable JSON: nothing to send
          log(`spool: dropped unreadable ${name}`);
        }
        return null;
      }
    },
    release(claim) {
      held.delete(claim);
      try {
        fs.renameSync(claim.file, path.join(dir, claim.name));
      } catch {
        /* already recovered by another hook */
      }
    },
    done(claim) {
      held.delete(claim);
      fs.rmSync(claim.file, { force: true });
    },
    /** Puts back every entry this process is still sending (synchronous: runs right before exit). */
    releaseAll() {
      for (const claim of [...held]) this.release(claim);
    },
    /** Puts back entries whose sender died mid-send: at once when its process is gone, else after a minute. */
    recoverStale(now = Date.now()) {
      let all;
      try {
        all = fs.readdirSync(dir);
      } catch {
        return;
      }
      for (const n of all) {
        const at = n.indexOf(CLAIM);
        if (at < 0) continue;
        const file = path.join(dir, n);
        const pid = Number(n.slice(at + CLAIM.length));
        try {
          const dead = Number.isInteger(pid) && pid > 0 && pid !== process.pid && !alive(pid);
          if (dead || now - fs.statSync(file).mtimeMs > STALE_CLAIM_MS) fs.renameSync(file, path.join(dir, n.slice(0, at)));
        } catch {
          /* taken care of by another hook */
        }
      }
    },
    /** Drops the oldest entries past the count or size bound, and says so in the log. */
    enforceLimits() {
      const entries = names().map((n) => {
        let size = 0;
        try {
          size = fs.statSync(path.join(dir, n)).size;
        } catch {
          /* gone meanwhile */
        }
        return { n, size };
      });
      let total = entries.reduce((s, e) => s + e.size, 0);
      let count = entries.length;
      const dropped = [];
      for (const e of entries) {
        if (count <= limits.entries && total <= limits.bytes) break;
        fs.rmSync(path.join(dir, e.n), { force: true });
        dropped.push(e.n);
        count--;
        total -= e.size;
      }
      if (dropped.length) log(`spool full (${limits.entries} entries / ${limits.bytes} bytes): dropped ${dropped.length} oldest: ${dropped.join(', ')}`);
      return dropped;
    },
  };
}
