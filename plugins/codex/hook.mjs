#!/usr/bin/env node
// Codex CLI hook program: `node hook.mjs <SessionStart|Stop|SessionEnd>`, the event JSON on stdin (Codex hooks, 0.171+:
// ~/.codex/hooks.json, written by `sheet-workspace connect codex`). SessionStart prints the briefing as
// hookSpecificOutput.additionalContext (Codex gives it to the model as a developer message); Stop (each turn's end) and
// SessionEnd read the session file (transcript_path) and send the session record as PUT
// /v1/sessions/external/codex:<session id>, or keep it in the spool while the service is down. Always exits 0.
import { runHook } from '../shared/capture.mjs';
import { parseRollout } from './rollout.mjs';

// Stop must print JSON; SessionEnd and unknown events print nothing.
await runHook({ kind: 'codex', captureEvents: ['Stop', 'SessionEnd'], parse: parseRollout, quiet: (event) => (event === 'Stop' ? {} : undefined) });
