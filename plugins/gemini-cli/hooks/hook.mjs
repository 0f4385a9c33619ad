#!/usr/bin/env node
// Gemini CLI hook program (this extension's hooks/hooks.json): `node hook.mjs <SessionStart|AfterAgent|SessionEnd>`, the
// event JSON on stdin. SessionStart prints the briefing as hookSpecificOutput.additionalContext (Gemini CLI adds it to
// the first prompt inside <hook_context>); AfterAgent (each turn's end) and SessionEnd read the chat file
// (transcript_path) and send the session record as PUT /v1/sessions/external/gemini:<session id>, or keep it in the
// spool while the service is down. Always exits 0 and prints JSON.
import fs from 'node:fs';
import { agentConfig, briefing, captureSession, finish, projectOf, readEvent, repoRoot, sessionBody } from '../../shared/capture.mjs';
import { parseChat } from './chat.mjs';

const event = process.argv[2] ?? '';
setTimeout(() => finish({}), 12_000).unref();
process.on('uncaughtException', () => finish({}));

const cfg = agentConfig('gemini');
const payload = readEvent();
const cwd = typeof payload.cwd === 'string' && payload.cwd ? payload.cwd : process.cwd();

if (event === 'SessionStart') {
  const { text, notice } = await briefing(cfg, cwd);
  const out = { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text || notice || '' } };
  if (notice) out.systemMessage = notice;
  finish(out);
} else if (event === 'AfterAgent' || event === 'SessionEnd') {
  const file = typeof payload.transcript_path === 'string' ? payload.transcript_path : '';
  const sessionId = String(payload.session_id ?? '');
  let text = '';
  try {
    text = file ? fs.readFileSync(file, 'utf8') : '';
  } catch {
    cfg.log(`${event}: chat file not readable`);
  }
  const body = text && sessionId ? sessionBody('gemini', { parsed: parseChat(text), project: projectOf(cfg, cwd), root: repoRoot(cwd), sessionId }) : null;
  await captureSession(cfg, { sessionId, body });
  finish({});
} else {
  finish({});
}
