import { z } from 'zod';
import { Tags, Timestamp, WorkspaceIdInput, WorkspaceIdView, queryInt } from '../../lib/schema-fields.js';
import { SnippetField, fieldsQuery } from '../../lib/fields.js';
import { Sheet } from '../sheets/sheets.schemas.js';

export const SESSION_SOURCES = ['curated', 'capture'] as const;
export const FailedCommand = z
  .object({
    command: z.string().max(2000).describe('The command as it was run (redacted by the client).'),
    error: z.string().max(2000).describe('Its first error line.'),
  })
  .meta({ id: 'FailedCommand' });
export type FailedCommandView = z.infer<typeof FailedCommand>;
const TaskList = z.array(z.string().trim().min(1).max(1000)).max(200);

export const Distilled = z
  .object({
    summary: z.string().describe('A condensed summary written by the AI provider.'),
    decisions: z.array(z.string()).describe('Decisions taken in the session, with their reasons.'),
    learnings: z.array(z.string()).describe('What is worth remembering about the code base or tools.'),
    model: z.string().describe('The model that wrote it.'),
    at: Timestamp.describe('When it was written.'),
  })
  .meta({ id: 'DistilledSession' });
export interface DistillView {
  distilled: z.infer<typeof Distilled> | null;
  note: string | null;
}

export const Session = z
  .object({
    id: z.string(),
    title: z.string(),
    summary: z.string(),
    project: z.string().nullable().describe('null when the session was saved without a project.'),
    tags: z.array(z.string()),
    files_changed: z.array(z.string()),
    external_id: z.string().nullable().describe("The client's own reference (PUT /sessions/external/{external_id}); null when saved without one."),
    outcome: z.string().nullable().describe('What the session came to (for a captured session, its closing message); null when not known.'),
    tasks_done: z.array(z.string()).describe('Tasks completed in this session.'),
    tasks_open: z.array(z.string()).describe('Tasks this session left open.'),
    errors: z.array(FailedCommand).describe('Commands that failed in this session, each with its first error line.'),
    prompts: z.array(z.string()).describe("The session's prompts, shortened."),
    agent: z.string().nullable().describe('The assistant that ran the session (claude-code, codex, gemini-cli, ...); null when not said.'),
    source: z.enum(SESSION_SOURCES).describe("Who wrote title and summary: 'curated' (a person or the model) or 'capture' (a client's automatic capture, which never replaces curated text)."),
    handover_id: z.string().nullable().describe('The newest handover sheet made from this session; null when none.'),
    distilled: Distilled.nullable().describe('The optional LLM distillation (DISTILL=1, docs/distillation.md); null when the session was not distilled.'),
    distill_note: z.string().nullable().describe('Why the latest distillation did not happen (daily token cap, provider failure); null when nothing is to be said.'),
    workspace_id: WorkspaceIdView,
    createdAt: Timestamp,
    updatedAt: Timestamp.nullable().describe('When the session was last changed; null when never changed since it was saved.'),
  })
  .meta({ id: 'Session' });
export type SessionView = z.infer<typeof Session>;

export const ListSessionsQuery = z.object({
  q: z.string().max(200).optional().describe('Words matched (all of them) in title, summary, project and tags, case-insensitively; works for CJK.'),
  project: z.string().max(200).optional().describe('Only sessions of exactly this project; an empty value selects sessions without a project.'),
  limit: queryInt('limit').optional().describe('Default 20; values above 100 are clamped to 100.'),
  offset: queryInt('offset').optional(),
  fields: fieldsQuery(Object.keys(Session.shape)).optional(),
  workspace_id: WorkspaceIdInput,
});

export const CreateSessionBody = z.object({
  title: z.string().trim().min(1, 'title must not be empty').max(1000),
  summary: z.string().trim().min(1, 'summary must not be empty').max(200_000),
  project: z.string().trim().max(200).optional(),
  tags: Tags.optional(),
  files_changed: z.array(z.string().max(1000)).max(1000).optional(),
  outcome: z.string().trim().max(20_000).optional(),
  tasks_done: TaskList.optional(),
  tasks_open: TaskList.optional(),
  errors: z.array(FailedCommand).max(100).optional(),
  prompts: z.array(z.string().max(2000)).max(200).optional(),
  agent: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]{0,39}$/, 'agent must be a short lowercase name such as claude-code, codex or gemini-cli')
    .optional(),
  workspace_id: WorkspaceIdInput,
});
export type CreateSessionInput = z.infer<typeof CreateSessionBody>;

export const EXTERNAL_ID_MAX = 200;
export const ExternalId = z
  .string()
  .min(1, 'external_id must not be empty')
  .max(EXTERNAL_ID_MAX, `external_id must be at most ${EXTERNAL_ID_MAX} characters`)
  .regex(/^[A-Za-z0-9._:-]+$/, 'external_id may contain only letters, digits and . _ : - (e.g. cc:<session id>)')
  .describe("The client's own reference for the session, unique per workspace, e.g. cc:<Claude Code session_id>.");
export const ExternalIdParams = z.object({ external_id: ExternalId });

export const UpsertSessionBody = CreateSessionBody.extend({
  source: z
    .enum(SESSION_SOURCES)
    .optional()
    .describe(
      "'capture' for a client's automatic capture: it merges into the session (adds files, failed commands and tasks) and never replaces a " +
        "curated title, summary or outcome. Default 'curated': the fields given replace the session's.",
    ),
});
export type UpsertSessionInput = z.infer<typeof UpsertSessionBody>;

export const UpdateSessionBody = CreateSessionBody.omit({ workspace_id: true, agent: true })
  .partial()
  .extend({ project: CreateSessionBody.shape.project.unwrap().nullable().optional().describe('"" or null: no project.') })
  .describe('Only the fields given change; at least one is needed.');
export type UpdateSessionInput = z.infer<typeof UpdateSessionBody>;

export const HandoverBody = z.object({
  session_id: z.string().min(1, 'session_id must not be empty').max(100),
  next_steps: z.array(z.string().max(10_000)).max(200).optional(),
  notes: z.string().max(200_000).optional(),
  workspace_id: WorkspaceIdInput.describe("The session's workspace (wsp_...): the handover sheet goes there; any other is 403 forbidden. Default: the session's."),
});
export type HandoverInput = z.infer<typeof HandoverBody>;

export const SessionListItem = Session.partial()
  .extend({ id: z.string(), snippet: SnippetField.optional() })
  .meta({ id: 'SessionListItem', description: 'A session with the fields chosen by fields= (all by default), plus snippet when q is given.' });
export const ListSessionsResponse = z.object({ success: z.literal(true), sessions: z.array(SessionListItem), total: z.number().int() });
export const SessionResponse = z.object({ success: z.literal(true), session: Session });
export const CreateSessionResponse = z.object({ success: z.literal(true), id: z.string(), session: Session });
export const UpsertSessionResponse = CreateSessionResponse.extend({
  created: z.boolean().describe('true (status 201) when this call created the session, false (200) when it updated the existing one.'),
});
export const HandoverResponse = z.object({
  success: z.literal(true),
  handover_id: z.string().describe('Id of the generated handover sheet.'),
  session_id: z.string(),
  workspace_id: WorkspaceIdView,
  sheet: Sheet,
});
