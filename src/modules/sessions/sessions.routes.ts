import type { ZApp } from '../../http/types.js';
import { IdParams, responses } from '../../http/schemas.js';
import { etagged, withEtag } from '../sheets/sheets.routes.js';
import type { SessionsService } from './sessions.service.js';
import {
  CreateSessionBody,
  CreateSessionResponse,
  HandoverBody,
  HandoverResponse,
  ListSessionsQuery,
  ListSessionsResponse,
  SessionResponse,
} from './sessions.schemas.js';

export function registerSessionRoutes(app: ZApp, sessions: SessionsService) {
  const tags = ['Sessions'];
  const ok = true as const;

  app.get('/sessions', {
    schema: { tags, operationId: 'listSessions', summary: 'List saved sessions, newest first; search with q, filter by project', querystring: ListSessionsQuery, response: responses(ListSessionsResponse) },
    handler: async (req) => ({ success: ok, ...(await sessions.list(req.auth.userId, req.query)) }),
  });
  app.post('/sessions', {
    schema: { tags, operationId: 'createSession', summary: 'Save a session summary', body: CreateSessionBody, response: responses(CreateSessionResponse, 413, 415) },
    handler: async (req) => {
      const session = await sessions.create(req.auth.userId, req.body);
      return { success: ok, id: session.id, session };
    },
  });
  app.get('/sessions/:id', {
    schema: { tags, operationId: 'getSession', summary: 'Fetch one session', params: IdParams, response: responses(SessionResponse, 403, 404) },
    handler: async (req) => ({ success: ok, session: await sessions.get(req.auth.userId, req.params.id) }),
  });
  app.post('/sessions/handover', {
    schema: {
      tags,
      operationId: 'createHandover',
      summary: 'Generate a handover sheet (folder "Handover") from a session for the next session',
      body: HandoverBody,
      response: responses(etagged(HandoverResponse), 403, 404, 413, 415),
    },
    handler: async (req, reply) => withEtag(reply, { success: ok, ...(await sessions.handover(req.auth.userId, req.body, req.auth)) }),
  });
}
