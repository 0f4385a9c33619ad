import type { ZApp } from '../../http/types.js';
import { IdParams } from '../../lib/schema-fields.js';
import { responses } from '../../http/schemas.js';
import { etagged, withEtag } from '../sheets/sheets.routes.js';
import type { SessionsService } from './sessions.service.js';
import {
  CreateSessionBody,
  CreateSessionResponse,
  ExternalIdParams,
  HandoverBody,
  HandoverResponse,
  ListSessionsQuery,
  ListSessionsResponse,
  SessionResponse,
  UpdateSessionBody,
  UpsertSessionBody,
  UpsertSessionResponse,
} from './sessions.schemas.js';

export function registerSessionRoutes(app: ZApp, sessions: SessionsService) {
  const tags = ['Sessions'];
  const ok = true as const;

  app.get('/sessions', {
    schema: {
      tags,
      operationId: 'listSessions',
      summary: 'List the saved sessions of a workspace, newest first; search with q, filter by project',
      querystring: ListSessionsQuery,
      response: responses(ListSessionsResponse, 403, 404),
    },
    handler: async (req) => ({ success: ok, ...(await sessions.list(req.auth, req.query)) }),
  });
  app.post('/sessions', {
    schema: { tags, operationId: 'createSession', summary: 'Save a session summary', body: CreateSessionBody, response: responses(CreateSessionResponse, 403, 404, 413, 415) },
    handler: async (req) => {
      const session = await sessions.create(req.auth, req.body);
      return { success: ok, id: session.id, session };
    },
  });
  app.get('/sessions/:id', {
    schema: { tags, operationId: 'getSession', summary: 'Fetch one session', params: IdParams, response: responses(SessionResponse, 403, 404) },
    handler: async (req) => ({ success: ok, session: await sessions.get(req.auth, req.params.id) }),
  });
  app.put('/sessions/external/:external_id', {
    schema: {
      tags,
      operationId: 'upsertSessionByExternalId',
      summary: "Save a session under the client's own reference: 201 creates it, 200 replaces the fields of the one saved before",
      description:
        'For clients that save the same session several times (Claude Code passes cc:<session_id>). An omitted project or tags become empty; ' +
        'omitted files_changed and record fields (outcome, tasks, errors, prompts, agent) stay as they are. ' +
        "With source 'capture' the call merges instead: files, failed commands and tasks are added, and a curated title, summary and outcome are kept. " +
        'Concurrent calls with one external_id converge on one session. Fires session.saved on create, session.updated when a field changed.',
      params: ExternalIdParams,
      body: UpsertSessionBody,
      response: { ...responses(UpsertSessionResponse, 403, 404, 413, 415), 201: UpsertSessionResponse },
    },
    handler: async (req, reply) => {
      const { created, session } = await sessions.upsert(req.auth, req.params.external_id, req.body);
      return reply.code(created ? 201 : 200).send({ success: ok, created, id: session.id, session });
    },
  });
  app.patch('/sessions/:id', {
    schema: {
      tags,
      operationId: 'updateSession',
      summary: 'Change some fields of a saved session (title, summary, project, tags, files_changed, outcome, tasks, errors, prompts)',
      description: 'Fires session.updated when a field changed.',
      params: IdParams,
      body: UpdateSessionBody,
      response: responses(SessionResponse, 403, 404, 413, 415),
    },
    handler: async (req) => ({ success: ok, session: await sessions.update(req.auth, req.params.id, req.body) }),
  });
  app.post('/sessions/handover', {
    schema: {
      tags,
      operationId: 'createHandover',
      summary: 'Generate a handover sheet (folder "Handover") from a session for the next session',
      body: HandoverBody,
      response: responses(etagged(HandoverResponse), 403, 404, 413, 415),
    },
    handler: async (req, reply) => withEtag(reply, { success: ok, ...(await sessions.handover(req.auth, req.body, req.auth)) }),
  });
}
