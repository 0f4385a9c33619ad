#!/usr/bin/env node
// Codex CLI hook program: `node hook.mjs <SessionStart|Stop|SessionEnd>`, the event JSON on stdin (Codex hooks, 0.171+:
// ~/.codex/hooks.json, written by `sheet-workspace connect codex`). SessionStart prints the briefing as
// hookSpecificOutput.additionalContext (Codex gives it to the model as a developer message); Stop (each turn's end) and
// SessionEnd read the session file (transcript_path) and send the session record as PUT
// /v1/sessions/external/codex:<session id>, or keep it in the spool while the service is down. Always exits 0.
import fs from 'node:fs';
import { agentConfig, briefing, captureSession, finish, projectOf, readEvent, repoRoot, sessionBody } from '../shared/capture.mjs';
import { parseRollout } from './rollout.mjs';

const event = process.argv[2] ?? '';
setTimeout(() => finish(event === 'Stop' ? {} : undefined), 12_000).unref();
process.on('uncaughtException', () => finish(event === 'Stop' ? {} : undefined));

const cfg = agentConfig('codex');
const payload = readEvent();
const cwd = typeof payload.cwd === 'string' && payload.cwd ? payload.cwd : process.cwd();

if (event === 'SessionStart') {
  const { text, notice } = await briefing(cfg, cwd);
  const out = { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text || notice || '' } };
  if (notice) out.systemMessage = notice;
  finish(out);
} else if (event === 'Stop' || event === 'SessionEnd') {
  const file = typeof payload.transcript_path === 'string' ? payload.transcript_path : '';
  const sessionId = String(payload.session_id ?? '');
  let text = '';
  try {
    text = file ? fs.readFileSync(file, 'utf8') : '';
  } catch {
    cfg.log(`${event}: session file not readable`);
  }
  const body = text && sessionId ? sessionBody('codex', { parsed: parseRollout(text), project: projectOf(cfg, cwd), root: repoRoot(cwd), sessionId }) : null;
  await captureSession(cfg, { sessionId, body });
  finish(event === 'Stop' ? {} : undefined);
} else {
  finish(undefined);
}
