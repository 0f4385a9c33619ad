import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AppError } from '../errors.js';
import { describeBadText, findBadText } from '../lib/bad-text.js';
import { convertHtml } from '../runtime/html-convert.js';
import type { SessionsService } from '../modules/sessions/sessions.service.js';
import type { TodosService } from '../modules/todos/todos.service.js';
import { RESOURCE_SCOPES, requireScopes } from '../auth/scopes.js';
import type { AuthSource } from './tool.js';

/** Column text of a sheet in column order, for a prompt (long columns read off the event loop). */
async function sheetText(content: Record<string, string>): Promise<string> {
  const texts: string[] = [];
  for (const k of Object.keys(content).sort((a, b) => Number(a.slice(3)) - Number(b.slice(3)))) {
    texts.push((await convertHtml('text', content[k], `column ${k}`)).trim());
  }
  return texts.filter(Boolean).join('\n\n');
}

/** The services the prompts read. */
export interface PromptDeps {
  sessions: SessionsService;
  todos: TodosService;
}

export function registerPrompts(server: McpServer, deps: PromptDeps, auth: AuthSource): void {
  server.registerPrompt(
    'resume_work',
    {
      title: 'Resume work on a project',
      description: "Start a session from the project's latest handover and its open todos (pending and in progress).",
      argsSchema: {
        project: z
          .string()
          .superRefine((value, ctx) => {
            // Checked before trim, so the message is about the text as sent; NUL would fail on PostgreSQL.
            const bad = findBadText({ project: value });
            if (bad) ctx.addIssue({ code: 'custom', message: describeBadText(bad, 'argument'), abort: true });
          })
          .trim()
          .min(1, 'project must not be empty')
          .max(200)
          .describe('Project name, exactly as saved with sessions and todos.'),
      },
    },
    async ({ project }) => {
      const caller = await auth();
      // It shows the handover and the todos, so it needs what REST needs to read both.
      requireScopes(caller.scopes, RESOURCE_SCOPES.resume_work);
      const handover = await deps.sessions.latestHandover(caller, project).catch((err: unknown) => {
        if (err instanceof AppError && err.code === 'not_found') return null;
        throw err;
      });
      const open = (await deps.todos.list(caller, { project })).filter((t) => t.status !== 'completed');
      const todoLines = open.map((t) => `- [${t.status}] ${t.content} (priority ${t.priority}, id ${t.id})`);
      const text = [
        `We are resuming work on the project "${project}".`,
        handover
          ? `## Latest handover (sheet ${handover.handover_id}, from session ${handover.session_id}, ${handover.sheet.createdAt})\n\n${await sheetText(handover.sheet.content)}`
          : '## Latest handover\n\nThere is no handover for this project yet.',
        `## Open todos (${open.length})\n\n${todoLines.length ? todoLines.join('\n') : 'None.'}`,
        '## How to proceed\n\nSummarise where things stand in a few lines, then continue with the next steps above. ' +
          'Keep the todo list current with sync_todos (project "' +
          project +
          '"). When the session ends, call save_session ' +
          'with a summary and files_changed, then create_handover with next_steps so the next session can resume.',
      ].join('\n\n');
      return {
        description: `Resume ${project}${handover ? ` from handover ${handover.handover_id}` : ''} with ${open.length} open todos`,
        messages: [{ role: 'user', content: { type: 'text', text } }],
      };
    },
  );
}
