import { z } from 'zod';
import { Tags, Timestamp, WorkspaceIdInput, WorkspaceIdView, queryInt } from '../../lib/schema-fields.js';
import { SnippetField, fieldsQuery } from '../../lib/fields.js';
import { Sheet } from '../sheets/sheets.schemas.js';

export const Session = z
  .object({
    id: z.string(),
    title: z.string(),
    summary: z.string(),
    project: z.string().nullable().describe('null when the session was saved without a project.'),
    tags: z.array(z.string()),
    files_changed: z.array(z.string()),
    external_id: z.string().nullable().describe('The client\'s own reference (PUT /sessions/external/{external_id}); null when saved without one.'),
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
  workspace_id: WorkspaceIdInput,
});
export type CreateSessionInput = z.infer<typeof CreateSessionBody>;

export const EXTERNAL_ID_MAX = 200;
export const ExternalId = z
  .string()
  .min(1, 'external_id must not be empty')
  .max(EXTERNAL_ID_MAX, `external_id must be at most ${EXTERNAL_ID_MAX} characters`)
  .regex(/^[A-Za-z0-9._:-]+$/, 'external_id may contain only letters, digits and . _ : - (e.g. cc:<session id>)')
  .describe('The client\'s own reference for the session, unique per workspace, e.g. cc:<Claude Code session_id>.');
export const ExternalIdParams = z.object({ external_id: ExternalId });

export const UpdateSessionBody = CreateSessionBody.omit({ workspace_id: true })
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
