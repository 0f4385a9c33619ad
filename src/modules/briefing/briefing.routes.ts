import type { ZApp } from '../../http/types.js';
import { responses } from '../../http/schemas.js';
import type { BriefingService } from './briefing.service.js';
import { BriefingHookResponse, BriefingQuery, BriefingResponse } from './briefing.schemas.js';

export function registerBriefingRoutes(app: ZApp, briefing: BriefingService) {
  app.get('/briefing', {
    schema: {
      tags: ['Sessions'],
      operationId: 'getBriefing',
      summary: "A project's latest handover and open todos in a workspace as Markdown of at most max_chars characters, for the start of a session",
      description:
        'Needs sessions:read (the handover) or todos:read (the todos); a credential with one of them gets that part and text says which part it may not read. ' +
        'What does not fit is counted in omitted, and the last lines of text name the MCP tool that reads it.',
      querystring: BriefingQuery,
      response: responses(BriefingResponse, 403, 404),
    },
    handler: async (req) => briefing.get(req.auth, req.query),
  });

  app.get('/briefing/claude-code', {
    schema: {
      tags: ['Sessions'],
      operationId: 'getBriefingForClaudeCode',
      summary: "The same briefing as a Claude Code SessionStart hook's output",
      description:
        'What GET /v1/briefing gives as text, wrapped the way a Claude Code SessionStart hook prints it, so a hook without a JSON parser ' +
        '(the plugin runs it from a shell with curl) can pass the answer through. Same query, scopes and errors.',
      querystring: BriefingQuery,
      response: responses(BriefingHookResponse, 403, 404),
    },
    handler: async (req) => ({ hookSpecificOutput: { hookEventName: 'SessionStart' as const, additionalContext: (await briefing.get(req.auth, req.query)).text } }),
  });
}
