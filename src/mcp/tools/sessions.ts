import { z } from 'zod';
import type { SessionsService } from '../../modules/sessions/sessions.service.js';
import { IdParams, recordInWorkspace, WorkspaceIdInput } from '../../lib/schema-fields.js';
import {
  CreateSessionBody,
  type CreateSessionInput,
  CreateSessionResponse,
  ExternalId,
  HandoverBody,
  HandoverResponse,
  ListSessionsQuery,
  ListSessionsResponse,
  SessionResponse,
  UpdateSessionBody,
  UpsertSessionResponse,
} from '../../modules/sessions/sessions.schemas.js';
import type { AuthContext } from '../../auth/context.js';
import { McpPage, NextPage, paged } from '../paging.js';
import { ADDITIVE, READ_ONLY, type ToolRegistry } from '../tool.js';

/** What list_sessions shows of each session (plus snippet with q); get_session has the whole summary. */
export const COMPACT_SESSION_FIELDS = ['title', 'project', 'tags', 'createdAt', 'workspace_id'];
const InWorkspace = recordInWorkspace('session');
const ListInput = ListSessionsQuery.omit({ fields: true }).extend({
  limit: McpPage.limit.describe('How many sessions to return: default 20, at most 100.'),
  offset: McpPage.offset.describe('How many to skip, for the next page (use when has_more is true).'),
});

/** The services these tools call. */
export interface SessionToolDeps {
  sessions: SessionsService;
}

export function registerSessionTools(t: ToolRegistry, deps: SessionToolDeps): void {
  const upserted = async (auth: AuthContext, externalId: string, fields: CreateSessionInput) => {
    const { created, session } = await deps.sessions.upsert(auth, externalId, fields);
    return { created, id: session.id, session };
  };

  t.define('save_session', {
    creates: true,
    title: 'Save a session summary',
    description:
      'Save a summary of the coding session that is ending: what was done, decisions, problems. ' +
      'Give the project name so it can be found later, tags, and files_changed (paths). ' +
      'Use create_handover afterwards to leave a handover sheet for the next session. Fires session.saved. ' +
      'With external_id (your own reference for this session, e.g. cc:<session id>) saving again updates that session instead of adding one ' +
      '(created says which happened; omitted project, tags and files_changed become empty; session.updated fires when a field changed). ' +
      'workspace_id saves into a team workspace (default: your personal one).',
    input: CreateSessionBody.extend({ external_id: ExternalId.optional() }),
    output: CreateSessionResponse.extend({ created: UpsertSessionResponse.shape.created.optional().describe('With external_id: true when this call created the session.') }),
    annotations: ADDITIVE,
    run: async ({ external_id, ...fields }, auth) => {
      if (external_id !== undefined) return { success: true as const, ...(await upserted(auth, external_id, fields)) };
      const session = await deps.sessions.create(auth, fields);
      return { success: true as const, id: session.id, session };
    },
  });

  t.define('update_session', {
    title: 'Update a saved session',
    description:
      'Change some fields of a saved session by id (ses_...): title, summary, project ("" or null: none), tags, files_changed. ' +
      'Fields not given stay as they are. Fires session.updated when a field changed.',
    input: UpdateSessionBody.extend({ id: IdParams.shape.id.describe('Session id, e.g. ses_01j...'), workspace_id: InWorkspace }),
    output: SessionResponse,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async ({ id, workspace_id, ...fields }, auth) => ({ success: true as const, session: await deps.sessions.update(auth, id, fields, { workspace_id }) }),
  });

  t.define('list_sessions', {
    title: 'List saved sessions',
    description:
      'List saved session summaries newest first, with total and has_more. Filter by exact project name, ' +
      'or search with q (all words, in title, summary, project and tags). Use it to recall earlier work. ' +
      'Items are compact (id, title, project, tags, createdAt, workspace_id; with q a snippet around the match): get_session returns a whole summary. ' +
      'workspace_id lists a team workspace (default: your personal one).',
    input: ListInput,
    output: ListSessionsResponse.extend({ has_more: z.boolean(), next: NextPage }),
    annotations: READ_ONLY,
    source: 'querystring',
    run: async (args, auth) => {
      const r = await deps.sessions.list(auth, { ...args, fields: COMPACT_SESSION_FIELDS });
      return { success: true as const, ...r, ...paged('list_sessions', r.total, args.offset, r.sessions.length) };
    },
  });

  t.define('get_session', {
    title: 'Get a saved session',
    description: 'Fetch one saved session summary by id (ses_...), with its files_changed.',
    input: z.object({ id: IdParams.shape.id.describe('Session id, e.g. ses_01j...'), workspace_id: InWorkspace }),
    output: SessionResponse,
    annotations: READ_ONLY,
    run: async ({ id, workspace_id }, auth) => ({ success: true as const, session: await deps.sessions.get(auth, id, { workspace_id }) }),
  });

  t.define('create_handover', {
    creates: true,
    title: 'Create a handover sheet',
    description:
      'Generate a handover sheet from a saved session so the next session can pick up: the summary and files changed, ' +
      'your next_steps as an ordered list plus the project\'s open todos (only with the todos:read scope; the sheet says when they are left out), and notes. It lands in the "Handover" folder ' +
      "and becomes the project's latest handover (resource handover://{project}/latest), in the session's workspace. Fires session.handover and sheet.created.",
    input: HandoverBody,
    output: HandoverResponse,
    annotations: ADDITIVE,
    run: async (args, auth) => ({ success: true as const, ...(await deps.sessions.handover(auth, args, auth)) }),
  });

  t.define('get_latest_handover', {
    title: 'Get the latest handover of a project',
    description:
      'Fetch the newest handover sheet of a project (skipping trashed ones), to resume work where the last session stopped. ' +
      'Use project "" for sessions saved without a project. workspace_id reads a team workspace (default: your personal one).',
    input: z.object({ project: ListSessionsQuery.shape.project.unwrap().describe('Project name, exactly as saved.'), workspace_id: WorkspaceIdInput }),
    output: HandoverResponse,
    annotations: READ_ONLY,
    run: async (args, auth) => ({ success: true as const, ...(await deps.sessions.latestHandover(auth, args.project, args.workspace_id)) }),
  });
}
