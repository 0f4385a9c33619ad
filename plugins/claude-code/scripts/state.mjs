// The state folder (hook.log, the task maps, the inbox and the spool) is read and sent from only when it is this user's
// own: a folder another user owns or can write to could hold requests planted for this user's key to send.
import fs from 'node:fs';

/** Why group or others can write to a folder of this mode, or '' when they cannot. */
const writableBy = (mode) => [mode & 0o020 ? 'group' : '', mode & 0o002 ? 'others' : ''].filter(Boolean).join(' and ');

/**
 * Null when the state folder, its inbox and its spool (those that exist) are folders of this user's that no one else
 * can write to, none a symbolic link (lstat: a link is refused, not followed); else the reason, in one line. The state
 * folder is created (owner-only) when missing. Where a process has no uid (Windows), nothing is checked.
 */
export function stateRefusal(cfg) {
  if (typeof process.getuid !== 'function') return null;
  const uid = process.getuid();
  try {
    fs.mkdirSync(cfg.stateDir, { recursive: true, mode: 0o700 });
  } catch {
    /* the lstat below says why */
  }
  for (const dir of [cfg.stateDir, cfg.inboxDir, cfg.spoolDir]) {
    let st;
    try {
      st = fs.lstatSync(dir);
    } catch (err) {
      if (err?.code === 'ENOENT' && dir !== cfg.stateDir) continue;
      return `state folder ${dir} cannot be read (${err?.code ?? err})`;
    }
    if (st.isSymbolicLink()) return `state folder ${dir} is a symbolic link`;
    if (!st.isDirectory()) return `state folder ${dir} is not a folder`;
    if (st.uid !== uid) return `state folder ${dir} belongs to uid ${st.uid}, not to this user (uid ${uid})`;
    const others = writableBy(st.mode);
    if (others) return `state folder ${dir} is writable by ${others} (mode ${(st.mode & 0o777).toString(8)})`;
  }
  return null;
}
