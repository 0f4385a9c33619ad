// Settings of the hook program, read from the environment once per run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const DEFAULT_URL = 'http://127.0.0.1:8787';
export const USER_AGENT = 'sheet-workspace-claude-code/0.1.0';

/** Environment first, then the plugin options Claude Code passes to hooks as CLAUDE_PLUGIN_OPTION_<KEY>. */
export function readConfig(env = process.env) {
  const url = (env.SHEET_WORKSPACE_URL || env.CLAUDE_PLUGIN_OPTION_URL || DEFAULT_URL).trim().replace(/\/+$/, '');
  const spool = spoolDir(env);
  const stateDir = path.dirname(spool);
  return {
    url,
    apiKey: (env.SHEET_WORKSPACE_API_KEY || env.CLAUDE_PLUGIN_OPTION_API_KEY || '').trim(),
    project: (env.SHEET_WORKSPACE_PROJECT ?? '').trim(),
    capture: captureOn(env.SHEET_WORKSPACE_CAPTURE),
    spoolDir: spool,
    /** hook.log, the per-session task maps and the inbox live beside the spool, so the spool holds only what waits. */
    stateDir,
    /** Events the capture hooks keep for the sender (inbox.mjs); hooks/capture.sh finds the same folder. */
    inboxDir: path.join(stateDir, 'inbox'),
    /** The briefing's budget (the service takes 500 to 20,000); hooks/session-start.sh reads the same settings. */
    briefingMaxChars: briefingMaxChars(env.SHEET_WORKSPACE_BRIEFING_MAX_CHARS || env.CLAUDE_PLUGIN_OPTION_BRIEFING_MAX_CHARS),
    /** 'exclude' leaves out what other members of a team workspace wrote; anything else includes it. */
    briefingOthers: /^exclude$/i.test(String(env.SHEET_WORKSPACE_BRIEFING_OTHERS || env.CLAUDE_PLUGIN_OPTION_BRIEFING_OTHERS || '').trim()) ? 'exclude' : 'include',
  };
}

export const BRIEFING_DEFAULT_CHARS = 6000;
/** A whole number of 500 to 20,000 (as Claude Code passes a number option: "6000", maybe "6000.0"), else the default. */
export function briefingMaxChars(value) {
  const n = Number(String(value ?? '').trim());
  return Number.isInteger(n) && n >= 500 && n <= 20_000 ? n : BRIEFING_DEFAULT_CHARS;
}

/** SHEET_WORKSPACE_CAPTURE: anything but 0, false, off or no (any case) leaves capture on. */
export const captureOn = (value) => !/^(0|false|off|no)$/i.test(String(value ?? '').trim());

function spoolDir(env) {
  if (env.SHEET_WORKSPACE_SPOOL_DIR) return path.resolve(env.SHEET_WORKSPACE_SPOOL_DIR);
  if (env.XDG_STATE_HOME) return path.join(env.XDG_STATE_HOME, 'sheet-workspace', 'spool');
  return path.join(env.HOME || os.homedir(), '.sheet-workspace', 'spool');
}

const LOG_MAX_BYTES = 256 * 1024;

/** One line in hook.log beside the spool (never secrets: callers pass redacted text). Never throws. */
export function logLine(dir, message) {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, 'hook.log');
    try {
      if (fs.statSync(file).size > LOG_MAX_BYTES) fs.renameSync(file, `${file}.1`);
    } catch {
      /* no log yet */
    }
    fs.appendFileSync(file, `${new Date().toISOString()} ${message}\n`, { mode: 0o600 });
  } catch {
    /* logging must never fail a hook */
  }
}
