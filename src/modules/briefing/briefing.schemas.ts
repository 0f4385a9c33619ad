import { z } from 'zod';
import { Timestamp, WorkspaceIdInput, WorkspaceIdView } from '../../lib/schema-fields.js';
import { TODO_PRIORITIES, TODO_STATUSES } from '../todos/todos.schemas.js';

export const BRIEFING_MAX_CHARS = 10_000;
export const BRIEFING_MIN_CHARS = 500;

const maxChars = z
  .string()
  .regex(/^\d{1,9}$/, 'max_chars must be a whole number')
  .transform(Number)
  .refine((n) => n >= BRIEFING_MIN_CHARS && n <= BRIEFING_MAX_CHARS, `max_chars must be between ${BRIEFING_MIN_CHARS} and ${BRIEFING_MAX_CHARS}`);

export const BriefingQuery = z.object({
  project: z
    .string({ error: (i) => (i.input === undefined ? 'project is required' : 'project must be a string') })
    .trim()
    .max(200)
    .describe('Project name, exactly as sessions and todos are saved with it; an empty value means "no project".'),
  max_chars: maxChars.optional().describe(`The most characters text may have: ${BRIEFING_MIN_CHARS} to ${BRIEFING_MAX_CHARS}, default ${BRIEFING_MAX_CHARS}.`),
  workspace_id: WorkspaceIdInput.describe('The workspace (wsp_...) whose sessions, handovers and todos are read; default: your personal workspace (or the one your key is restricted to).'),
});
export type BriefingInput = { project: string; max_chars?: number; workspace_id?: string };

export const BriefingResponse = z.object({
  success: z.literal(true),
  project: z.string(),
  workspace_id: WorkspaceIdView.describe('The workspace the briefing was read from.'),
  text: z
    .string()
    .describe(
      'Markdown to hand an assistant at the start of a session, never longer than max_chars: the latest handover (next steps, notes, then summary), ' +
        'then the open todos newest first, and a last line saying what was left out and which MCP tool reads it.',
    ),
  handover: z
    .object({ handover_id: z.string(), session_id: z.string(), title: z.string(), createdAt: Timestamp })
    .nullable()
    .describe('The handover text shows; null when there is none or the credential may not read sessions.'),
  todos: z
    .array(z.object({ id: z.string(), content: z.string(), status: z.enum(TODO_STATUSES), priority: z.enum(TODO_PRIORITIES) }))
    .describe('The open todos text lists, newest first.'),
  omitted: z.object({
    todos: z.number().int().describe('Open todos not in text.'),
    handover_chars: z.number().int().describe('About how many characters of the handover are not in text (0: all of it is).'),
  }),
});
export type Briefing = z.infer<typeof BriefingResponse>;

/** The briefing as a Claude Code SessionStart hook prints it: the plugin's shell hook passes it through unchanged. */
export const BriefingHookResponse = z
  .object({
    hookSpecificOutput: z.object({
      hookEventName: z.literal('SessionStart'),
      additionalContext: z.string().describe("The briefing's text, as GET /v1/briefing gives it."),
    }),
  })
  .describe('Claude Code hook output (https://docs.claude.com/en/docs/claude-code/hooks): the text becomes context of the new session.');
