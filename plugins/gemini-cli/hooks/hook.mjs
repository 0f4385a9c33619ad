#!/usr/bin/env node
// Gemini CLI hook program (this extension's hooks/hooks.json): `node hook.mjs <SessionStart|AfterAgent|SessionEnd>`, the
// event JSON on stdin. SessionStart prints the briefing as hookSpecificOutput.additionalContext (Gemini CLI adds it to
// the first prompt inside <hook_context>); AfterAgent (each turn's end) and SessionEnd read the chat file
// (transcript_path) and send the session record as PUT /v1/sessions/external/gemini:<session id>, or keep it in the
// spool while the service is down. Always exits 0 and prints JSON.
import { runHook } from '../../shared/capture.mjs';
import { parseChat } from './chat.mjs';

// Gemini CLI reads JSON from every hook.
await runHook({ kind: 'gemini', captureEvents: ['AfterAgent', 'SessionEnd'], parse: parseChat, quiet: {} });
